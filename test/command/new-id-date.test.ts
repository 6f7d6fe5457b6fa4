import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promoteLessons } from '../../src/lifecycle/promote.js';
import { newLesson } from '../../src/lifecycle/new.js';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';

const NOW = new Date('2026-11-21T09:30:00Z');
const LONG_TITLE = 'The nightly deploy job skipped the database migration because the feature flag service timed out during the rollout window';

describe('ids and dates for lessons written after the fact', () => {
  it('a default id is a few words of the title, not all of it', async () => {
    const root = tempLessonsRepo();
    const result = await newLesson({ cwd: root, title: LONG_TITLE, level: 'case', tags: [], severity: 'medium', now: NOW });
    expect(result.id).toBe('case-2026-11-21-nightly-deploy-job-skipped-the-database');
    expect(result.id.length).toBeLessThanOrEqual(56);
  });

  it('promote gives a pattern a short default id too', async () => {
    const body = '## Situation\n\nIt broke.\n\n## Prevention Checklist\n\n- [ ] Check it.\n';
    const root = tempLessonsRepo({ ...lessonFile({ id: 'case-a', title: 'A one' }, body), ...lessonFile({ id: 'case-b', title: 'B two' }, body) });
    const result = await promoteLessons({ cwd: root, sources: ['case-a', 'case-b'], to: 'pattern', title: LONG_TITLE, now: NOW });
    expect(result.id).toBe('pattern-nightly-deploy-job-skipped-the-database');
  });

  it('new --id names the lesson; new --date dates it and its id, from the binary', () => {
    const root = tempLessonsRepo();
    const named = runCli(['new', LONG_TITLE, '--id', 'case-2026-03-14-deploy-skipped-migration', '--date', '2026-03-14'], { cwd: root });
    expect(named.exitCode, named.stderr).toBe(0);
    expect(named.stdout).toBe('lessons/cases/case-2026-03-14-deploy-skipped-migration.md\n');
    const text = fs.readFileSync(path.join(root, 'lessons/cases/case-2026-03-14-deploy-skipped-migration.md'), 'utf8');
    expect(text).toContain('\ncreated_at: 2026-03-14\nlast_seen: 2026-03-14\n');
    const dated = runCli(['new', 'Cache key ignored the locale', '--date', '2026-02-03'], { cwd: root });
    expect(dated.exitCode, dated.stderr).toBe(0);
    expect(dated.stdout).toBe('lessons/cases/case-2026-02-03-cache-key-ignored-the-locale.md\n');
    expect(runCli(['index', '--check'], { cwd: root }).exitCode).toBe(0);
  });

  it('refuses a bad --id, a taken --id, a malformed or future --date, with exit 2 and nothing written', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-taken' }));
    const cases: [string[], string][] = [
      [['--id', 'Not An Id'], '--id `Not An Id` is not a valid id'],
      [['--id', 'case-taken'], 'a lesson with id `case-taken` already exists: choose another --id'],
      [['--date', '2026-02-30'], '--date `2026-02-30` is not a date: use YYYY-MM-DD'],
      [['--date', '2999-01-01'], '--date 2999-01-01 is after today'],
    ];
    for (const [args, message] of cases) {
      const result = runCli(['new', 'Something new happened', ...args], { cwd: root });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(fs.readdirSync(path.join(root, 'lessons/cases'))).toEqual(['case-taken.md']);
  });
});
