import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { initGitRepo, runCli as run, tempDir, tempLessonsRepo } from '../helpers/repo.js';

const runCli = (args: string[], options: Parameters<typeof run>[1] = {}) => run(args, { timeoutMs: 15_000, ...options });

/** A FIFO with no writer: a blocking open of it never returns. */
function fifo(dir: string, name: string): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

describe('a FIFO under lessons/ (directly or through a link) is refused, never waited on', () => {
  it('lint, index, preflight, guard and the agent hook finish and name it', () => {
    const root = initGitRepo(tempLessonsRepo(lessonFile({ id: 'case-a' })));
    expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
    const outside = tempDir();
    fifo(path.join(root, 'lessons/patterns'), 'pattern-fifo.md');
    fs.symlinkSync(fifo(root, 'inside.fifo'), path.join(root, 'lessons/cases/case-linked.md'));
    const lint = runCli(['lint'], { cwd: root });
    expect(lint.exitCode).toBe(1);
    expect(lint.stdout).toContain('lessons/patterns/pattern-fifo.md: error [file] is not a regular file (a socket, FIFO or device): remove it');
    expect(lint.stdout).toContain('lessons/cases/case-linked.md: error [file] is not a regular file (a socket, FIFO or device): remove it');
    const index = runCli(['index'], { cwd: root });
    expect(index.exitCode).toBe(1);
    expect(index.stderr).toContain('is not a regular file');
    // The index itself replaced by a link to a FIFO: preflight and the hook read it.
    fs.rmSync(path.join(root, 'lessons/index.json'));
    fs.symlinkSync(fifo(outside, 'index.fifo'), path.join(root, 'lessons/index.json'));
    const preflight = runCli(['preflight', 'bump the version'], { cwd: root });
    expect(preflight.exitCode).toBe(0);
    expect(preflight.stderr).toContain('lessons/index.json cannot be read');
    expect(runCli(['guard', '--stage', 'final'], { cwd: root }).exitCode).toBe(0);
    const hook = runCli(['hook', 'claude'], { cwd: root, input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: 'package.json' }, cwd: root }) });
    expect(hook.exitCode).toBe(0);
  }, 60_000);
});
