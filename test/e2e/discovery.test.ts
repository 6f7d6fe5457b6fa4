import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initGitRepo, runCli, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

/** Every file under `root`, as sorted relative paths, to show that a command wrote nothing. */
function listing(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[]).map((entry) => entry.split(path.sep).join('/')).sort();
}

/** `outer/` is a lessons repository; `outer/app` is a git repository of its own without lessons/. */
function nested(): { outer: string; app: string } {
  const outer = tempLessonsRepo();
  const app = path.join(outer, 'app');
  fs.mkdirSync(path.join(app, 'src'), { recursive: true });
  initGitRepo(app);
  return { outer, app };
}

const COMMANDS: string[][] = [
  ['index'],
  ['index', '--check'],
  ['lint'],
  ['preflight', 'bump the version'],
  ['guard', '--stage', 'pre-commit'],
  ['hooks', 'install'],
  ['hooks', 'status'],
  ['list'],
  ['show', 'case-x'],
  ['new', 'A lesson'],
  ['report'],
  ['export', '--to', 'agents-md'],
  ['ask', 'how do we release'],
  ['capture', '-'],
  ['accept', 'case-x'],
  ['retire', 'case-x', '--reason', 'gone'],
  ['apply', 'pattern-x', '--context', 'web', '--ref', 'PR 1'],
  ['promote', 'case-a', 'case-b', '--to', 'pattern', '--title', 'P'],
  ['review'],
  ['mcp'],
];

describe('discovery stops at the git top level (built binary)', () => {
  it.each(COMMANDS)('`lessons %s` in a git repository nested in a lessons repository says so, exits 2 and writes nothing', (...args) => {
    const { outer, app } = nested();
    const before = listing(outer);
    for (const cwd of [app, path.join(app, 'src')]) {
      const result = runCli(args, { cwd, input: '[LESSON]\ntitle: t\n[/LESSON]\n' });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^lessons: not a lessons repository \(no lessons\/ folder in .*app.*\): run `lessons init` there, or pass -C <dir>\n$/);
      expect(result.stdout).toBe('');
    }
    expect(listing(outer)).toEqual(before);
  });

  it('-C names the nested repository: the same refusal, the outer index untouched', () => {
    const { outer, app } = nested();
    const result = runCli(['-C', app, 'index']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('not a lessons repository');
    expect(fs.existsSync(path.join(outer, 'lessons/index.json'))).toBe(false);
  });

  it('-C stops discovery at the directory given, even outside git', () => {
    const outer = tempLessonsRepo();
    const plain = path.join(outer, 'plain');
    fs.mkdirSync(plain);
    expect(runCli(['-C', plain, 'index']).exitCode).toBe(2);
    expect(fs.existsSync(path.join(outer, 'lessons/index.json'))).toBe(false);
    // Without -C, a plain folder inside a lessons repository is part of it, as a subfolder is.
    expect(runCli(['index'], { cwd: plain }).exitCode).toBe(0);
    expect(fs.existsSync(path.join(outer, 'lessons/index.json'))).toBe(true);
  });

  it('a subfolder of a git repository whose top level holds lessons/ finds it', () => {
    const root = initGitRepo(tempLessonsRepo());
    writeFiles(root, { 'packages/app/readme.md': 'x\n' });
    const result = runCli(['index'], { cwd: path.join(root, 'packages/app') });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, 'lessons/index.json'))).toBe(true);
  });

  it('an agent hook in the nested repository stays neutral instead of serving the outer lessons', () => {
    const { app } = nested();
    const input = JSON.stringify({ hook_event_name: 'SessionStart', cwd: app, session_id: 's1' });
    const result = runCli(['hook', 'claude', 'SessionStart'], { cwd: app, input, env: { CLAUDE_PROJECT_DIR: app } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain('additionalContext');
  });

  it('outside any repository, a temp folder says so', () => {
    const result = runCli(['list'], { cwd: tempDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('not a lessons repository');
  });
});
