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
});
