import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptLesson } from '../../src/lifecycle/accept.js';
import { loadLessons } from '../../src/lesson/load.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { tempLessonsRepo } from '../helpers/repo.js';

const now = new Date('2026-11-21T12:00:00Z');
const NO_CHECKLIST = '## Situation\n\nSomething broke.\n';

function statusOf(root: string, id: string): { status: string; last_validated_at: string | null } {
  const item = loadLessons(root).lessons.find((candidate) => candidate.lesson.id === id)!;
  return { status: item.lesson.status, last_validated_at: item.lesson.last_validated_at };
}

describe('lessons accept', () => {
  it('moves a candidate to validated and stamps last_validated_at with today', async () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a', status: 'candidate', last_validated_at: undefined }));
    const result = await acceptLesson({ cwd: root, id: 'case-a', canonical: false, now });
    expect(result).toEqual({ id: 'case-a', path: 'lessons/cases/case-a.md', from: 'candidate', to: 'validated', last_validated_at: '2026-11-21' });
    expect(statusOf(root, 'case-a')).toEqual({ status: 'validated', last_validated_at: '2026-11-21' });
    const index = JSON.parse(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')) as { lessons: { id: string; status: string }[] };
    expect(index.lessons.map((entry) => [entry.id, entry.status])).toEqual([['case-a', 'validated']]);
  });

  it('moves a validated lesson to canonical with --canonical, and a candidate straight to canonical', async () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a', status: 'validated', last_validated_at: '2026-01-01' }),
      ...lessonFile({ id: 'case-b', status: 'candidate', last_validated_at: undefined }),
    });
    expect((await acceptLesson({ cwd: root, id: 'case-a', canonical: true, now })).to).toBe('canonical');
    expect((await acceptLesson({ cwd: root, id: 'case-b', canonical: true, now })).to).toBe('canonical');
    expect(statusOf(root, 'case-a')).toEqual({ status: 'canonical', last_validated_at: '2026-11-21' });
  });

  it('re-validates a canonical lesson without demoting it', async () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a', status: 'canonical', last_validated_at: '2025-01-01' }));
    const result = await acceptLesson({ cwd: root, id: 'case-a', canonical: false, now });
    expect([result.from, result.to]).toEqual(['canonical', 'canonical']);
    expect(statusOf(root, 'case-a').last_validated_at).toBe('2026-11-21');
  });

  it('brings a retired lesson back as validated and clears its retirement fields', async () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a', status: 'retired', retired_reason: 'obsolete' }));
    await acceptLesson({ cwd: root, id: 'case-a', canonical: false, now });
    const lesson = loadLessons(root).lessons[0]!.lesson;
    expect([lesson.status, lesson.retired_reason, lesson.last_validated_at]).toEqual(['validated', null, '2026-11-21']);
  });

  it('refuses a lesson without a Prevention Checklist, names the rule, and writes nothing', async () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a', status: 'candidate', last_validated_at: undefined }, NO_CHECKLIST));
    const before = fs.readFileSync(path.join(root, 'lessons/cases/case-a.md'), 'utf8');
    await expect(acceptLesson({ cwd: root, id: 'case-a', canonical: false, now })).rejects.toMatchObject({
      code: 'REFUSED',
      exitCode: 1,
      message:
        'cannot accept `case-a` as validated: it would not be lint-clean:\n' +
        '  lessons/cases/case-a.md: [checklist] a validated lesson needs a non-empty `## Prevention Checklist` list (`- [ ] ...` items): preflight shows nothing without it\n' +
        'fix the lesson, then run `lessons accept case-a` again',
    });
    expect(fs.readFileSync(path.join(root, 'lessons/cases/case-a.md'), 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(root, 'lessons/index.json'))).toBe(false);
  });

  it('refuses a pattern whose evidence is missing, with the evidence rule', async () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a' }),
      'lessons/patterns/pattern-p.md': lessonText({ id: 'pattern-p', level: 'pattern', status: 'candidate', source_case_ids: ['case-a'], last_validated_at: undefined }),
    });
    await expect(acceptLesson({ cwd: root, id: 'pattern-p', canonical: false, now })).rejects.toThrow(
      '[evidence] not enough evidence for a pattern: needs 2 independent cases, has 1',
    );
  });

  it('says which ids are near when the id does not exist', async () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-alpha' }));
    await expect(acceptLesson({ cwd: root, id: 'alpha', canonical: false, now })).rejects.toMatchObject({
      code: 'LESSON_NOT_FOUND',
      message: 'no lesson with id `alpha`; did you mean: case-alpha (`lessons list` shows them all)',
    });
  });
});
