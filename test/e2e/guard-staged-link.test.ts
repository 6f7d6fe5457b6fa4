import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASE_ID, commitAll, committedLessonsRepo, runLessons } from '../helpers/guard.js';
import { git } from '../helpers/repo.js';

const LINK = 'lessons/cases/case-2026-01-09-linked.md';

describe('a lesson git holds as a symbolic link (built binary, real git)', () => {
  it('is a blocking schema finding at pre-commit, pre-push and ci, naming the file and the fix', async () => {
    const root = await committedLessonsRepo();
    const base = git(root, 'rev-parse', 'HEAD').trim();
    // A link to a lesson elsewhere, and one to a device: neither is a lesson in git.
    fs.symlinkSync(`${CASE_ID}.md`, path.join(root, LINK));
    fs.symlinkSync('/dev/stdin', path.join(root, 'lessons/cases/case-2026-01-10-stdin.md'));
    git(root, 'add', '--', LINK, 'lessons/cases/case-2026-01-10-stdin.md');
    expect(git(root, 'ls-files', '--stage', '--', LINK)).toMatch(/^120000 /);
    const staged = runLessons(['guard', '--stage', 'pre-commit', '--json'], { cwd: root });
    expect(staged.exitCode).toBe(1);
    const findings = (JSON.parse(staged.stdout) as { findings: { gate: string; level: string; file?: string; message: string }[] }).findings;
    const links = findings.filter((f) => f.gate === 'schema' && /symbolic link/.test(f.message));
    expect(links.map((f) => [f.level, f.file])).toEqual([
      ['block', LINK],
      ['block', 'lessons/cases/case-2026-01-10-stdin.md'],
    ]);
    expect(links[0]!.message).toContain('replace the link with the file itself');
    commitAll(root, 'link a lesson');
    const ci = runLessons(['guard', '--stage', 'ci', '--base', base, '--json'], { cwd: root });
    expect(ci.exitCode).toBe(1);
    expect(ci.stdout).toContain('git holds this lesson as a symbolic link');
  });
});
