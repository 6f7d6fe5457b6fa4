import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGuard } from '../../src/guard/guard.js';
import { CASE_ID, commitAll, committedLessonsRepo } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, runCli, writeFiles } from '../helpers/repo.js';
import { writeIndex } from '../../src/store/index-write.js';

const NOW = new Date('2026-11-21T09:30:00Z');

describe('the ci stage checks the exports', () => {
  it('a lesson changed without re-running the export blocks in ci, through the index-fresh gate; a repository that exports nothing is not asked to', async () => {
    const root = await committedLessonsRepo();
    const base = git(root, 'rev-parse', 'HEAD').trim();
    expect((await runGuard({ cwd: root, stage: 'ci', now: NOW, env: {}, base })).findings.filter((f) => f.rule === 'export-stale')).toEqual([]);

    expect(runCli(['export', '--to', 'agents-md'], { cwd: root }).exitCode).toBe(0);
    commitAll(root, 'export', 'Lessons-Preflight: none');
    expect((await runGuard({ cwd: root, stage: 'ci', now: NOW, env: {}, base })).blocked).toBe(false);

    writeFiles(root, lessonFile({ id: CASE_ID, status: 'validated', title: 'Example lesson, renamed' }));
    await writeIndex({ cwd: root });
    commitAll(root, 'rename the lesson', 'Lessons-Preflight: none');
    const report = await runGuard({ cwd: root, stage: 'ci', now: NOW, env: {}, base });
    expect(report.blocked).toBe(true);
    expect(report.findings.filter((f) => f.rule === 'export-stale')).toEqual([
      {
        gate: 'index-fresh',
        level: 'block',
        rule: 'export-stale',
        severity: 'error',
        file: 'AGENTS.md',
        message: 'the agents-md export is behind the lessons (AGENTS.md): run `lessons export --to agents-md` and commit the result',
      },
    ]);
    // Not a local stage's business: pre-push does not run it.
    expect((await runGuard({ cwd: root, stage: 'pre-push', now: NOW, env: {}, base })).findings.filter((f) => f.rule === 'export-stale')).toEqual([]);
    expect(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8')).not.toContain('renamed');
  });

  it('covers the new targets: a stale Windsurf rule blocks in ci, and a Windsurf rule past its limit is a warning naming what would be cut', async () => {
    const long = Array.from({ length: 130 }, (_, index) => `- [ ] Step ${index + 1} of a checklist long enough that Windsurf would not read all of it, item by item.`).join('\n');
    const root = await committedLessonsRepo(lessonFile({ id: 'case-2026-02-02-long', title: 'Long' }, `## Situation\n\nIt went wrong.\n\n## Prevention Checklist\n\n${long}\n`));
    const base = git(root, 'rev-parse', 'HEAD').trim();
    expect(runCli(['export', '--to', 'windsurf'], { cwd: root }).exitCode).toBe(0);
    commitAll(root, 'export', 'Lessons-Preflight: none');
    const current = await runGuard({ cwd: root, stage: 'ci', now: NOW, env: {}, base });
    expect(current.blocked).toBe(false);
    expect(current.findings.filter((f) => f.rule.startsWith('export-')).map((f) => [f.rule, f.level, f.file])).toEqual([['export-budget', 'warn', '.windsurf/rules/lessons-case-2026-02-02-long.md']]);
    expect(current.findings.find((f) => f.rule === 'export-budget')!.message).toContain('case-2026-02-02-long (checklist item 130 of 130)');

    writeFiles(root, lessonFile({ id: CASE_ID, status: 'validated', title: 'Example lesson, renamed' }));
    await writeIndex({ cwd: root });
    commitAll(root, 'rename the lesson', 'Lessons-Preflight: none');
    const stale = await runGuard({ cwd: root, stage: 'ci', now: NOW, env: {}, base });
    expect(stale.blocked).toBe(true);
    expect(stale.findings.filter((f) => f.rule === 'export-stale').map((f) => f.message)).toEqual([
      `the windsurf export is behind the lessons (.windsurf/rules/lessons-${CASE_ID}.md): run \`lessons export --to windsurf\` and commit the result`,
    ]);
  });
});
