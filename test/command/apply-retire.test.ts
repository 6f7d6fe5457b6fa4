import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPattern } from '../../src/lifecycle/apply.js';
import { retireLesson } from '../../src/lifecycle/retire.js';
import { listLessons, showLesson } from '../../src/store/query.js';
import { loadLessons } from '../../src/lesson/load.js';
import { lint } from '../../src/lint/lint-repository.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { tempLessonsRepo } from '../helpers/repo.js';

const now = new Date('2026-11-21T12:00:00Z');

function repo(extra: Record<string, string> = {}): string {
  return tempLessonsRepo({
    ...lessonFile({ id: 'case-a' }),
    ...lessonFile({ id: 'case-b' }),
    'lessons/patterns/pattern-p.md': lessonText({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-b'] }),
    ...extra,
  });
}

const applicationsOf = (root: string, id: string) => loadLessons(root).lessons.find((item) => item.lesson.id === id)!.lesson.applications;

describe('lessons apply', () => {
  it('records a validated application dated today', async () => {
    const root = repo();
    const result = await applyPattern({ cwd: root, id: 'pattern-p', context: 'web-app', ref: 'PR #812', now });
    expect(result).toMatchObject({ action: 'recorded', repeatedContext: false, applications: 1, contexts: ['web-app'], needed: 3 });
    expect(applicationsOf(root, 'pattern-p')).toEqual([{ context: 'web-app', ref: 'PR #812', validated_at: '2026-11-21' }]);
    expect(fs.readFileSync(path.join(root, 'lessons/patterns/pattern-p.md'), 'utf8')).toContain('applications:\n  - { context: web-app, ref: "PR #812", validated_at: 2026-11-21 }\n');
  });

  it('is idempotent for the same context and ref', async () => {
    const root = repo();
    await applyPattern({ cwd: root, id: 'pattern-p', context: 'web-app', ref: 'PR #812', date: '2026-11-01', now });
    const before = fs.readFileSync(path.join(root, 'lessons/patterns/pattern-p.md'), 'utf8');
    const again = await applyPattern({ cwd: root, id: 'pattern-p', context: 'web-app', ref: 'PR #812', now });
    expect(again).toMatchObject({ action: 'unchanged', application: { validated_at: '2026-11-01' }, applications: 1 });
    expect(fs.readFileSync(path.join(root, 'lessons/patterns/pattern-p.md'), 'utf8')).toBe(before);
  });

  it('records a repeated context but says it is not a new one', async () => {
    const root = repo();
    await applyPattern({ cwd: root, id: 'pattern-p', context: 'web-app', ref: 'PR #1', now });
    const result = await applyPattern({ cwd: root, id: 'pattern-p', context: 'web-app', ref: 'PR #2', now });
    expect(result).toMatchObject({ action: 'recorded', repeatedContext: true, applications: 2, contexts: ['web-app'] });
  });

  it('refuses a case, a retired pattern, a bad or future date', async () => {
    const root = repo({
      'lessons/patterns/pattern-old.md': lessonText({ id: 'pattern-old', level: 'pattern', status: 'retired', superseded_by: 'pattern-p', source_case_ids: ['case-a', 'case-b'] }),
    });
    await expect(applyPattern({ cwd: root, id: 'pattern-old', context: 'x', ref: 'y', now })).rejects.toMatchObject({
      exitCode: 1,
      message: '`pattern-old` is retired: record the application on `pattern-p`',
    });
    await expect(applyPattern({ cwd: root, id: 'case-a', context: 'x', ref: 'y', now })).rejects.toMatchObject({
      exitCode: 1,
      message: '`case-a` is a case: applications are recorded on patterns (promote the cases to a pattern first)',
    });
    await expect(applyPattern({ cwd: root, id: 'pattern-p', context: 'x', ref: 'y', date: '2026-02-30', now })).rejects.toMatchObject({
      exitCode: 2,
      message: '--date `2026-02-30` is not a date: use YYYY-MM-DD',
    });
    await expect(applyPattern({ cwd: root, id: 'pattern-p', context: 'x', ref: 'y', date: '2026-12-01', now })).rejects.toThrow(
      '--date 2026-12-01 is in the future: an application is recorded once it is validated',
    );
    await expect(applyPattern({ cwd: root, id: 'pattern-p', context: ' ', ref: 'y', now })).rejects.toThrow('--context is empty');
  });
});

describe('lessons retire', () => {
  it('retires with a reason: the file stays, list and show find it, and nothing is deleted', async () => {
    const root = repo(lessonFile({ id: 'case-c' }));
    const result = await retireLesson({ cwd: root, id: 'case-c', reason: 'the tool was replaced', now });
    expect(result).toEqual({ id: 'case-c', path: 'lessons/cases/case-c.md', superseded_by: null, retired_reason: 'the tool was replaced', referencedBy: [] });
    expect((await showLesson({ cwd: root, id: 'case-c' })).entry.status).toBe('retired');
    expect((await listLessons({ cwd: root, status: 'retired' })).map((entry) => entry.id)).toEqual(['case-c']);
    expect((await lint({ cwd: root, now })).errors).toBe(0);
  });

  it('retires in favour of a replacement; references to it become lint warnings', async () => {
    const root = repo({ ...lessonFile({ id: 'case-c' }), ...lessonFile({ id: 'case-d', duplicate_of: 'case-c' }) });
    const result = await retireLesson({ cwd: root, id: 'case-c', supersededBy: 'case-a', now });
    expect(result.referencedBy).toEqual(['case-d']);
    const findings = (await lint({ cwd: root, now })).findings.filter((finding) => finding.rule === 'reference');
    expect(findings).toEqual([
      { rule: 'reference', severity: 'warning', file: 'lessons/cases/case-d.md', line: 10, field: 'duplicate_of', message: 'duplicate_of names `case-c`, which is retired (superseded by case-a)' },
    ]);
  });

  it('refuses without a replacement or a reason', async () => {
    const root = repo();
    await expect(retireLesson({ cwd: root, id: 'case-a', now })).rejects.toMatchObject({
      exitCode: 2,
      message: 'say what replaces the lesson or why it no longer holds: --superseded-by <id> or --reason "..."',
    });
  });

  it('refuses a retired or missing replacement, itself, and a lesson already retired', async () => {
    const root = repo({ ...lessonFile({ id: 'case-c', status: 'retired', retired_reason: 'old' }), ...lessonFile({ id: 'case-d' }) });
    await expect(retireLesson({ cwd: root, id: 'case-d', supersededBy: 'case-c', now })).rejects.toThrow('`case-c` is retired too: name the lesson that replaces both');
    await expect(retireLesson({ cwd: root, id: 'case-d', supersededBy: 'case-zzz', now })).rejects.toMatchObject({ code: 'LESSON_NOT_FOUND' });
    await expect(retireLesson({ cwd: root, id: 'case-d', supersededBy: 'case-d', now })).rejects.toThrow('a lesson cannot supersede itself');
    await expect(retireLesson({ cwd: root, id: 'case-c', reason: 'x', now })).rejects.toMatchObject({ exitCode: 1, message: '`case-c` is already retired (old)' });
  });

  it('refuses to retire a case a pattern needs as evidence', async () => {
    const root = repo();
    await expect(retireLesson({ cwd: root, id: 'case-a', reason: 'x', now })).rejects.toMatchObject({
      exitCode: 1,
      message:
        'retiring `case-a` would leave the pattern `pattern-p` without its evidence (case `case-a` is retired; needs 2 independent cases, has 1): add other sources to it or retire it first',
    });
  });
});
