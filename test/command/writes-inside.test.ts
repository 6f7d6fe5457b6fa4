import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LESSONS_LOCK, withLock } from '../../src/io/lock.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { BIN, GIT_ENV, initGitRepo, runCli, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

/** A lessons repository at `<parent>/repo`, so a test can see what lands next to it. */
function nestedRepo(files: Record<string, string> = {}): { parent: string; root: string } {
  const parent = tempDir();
  const root = path.join(parent, 'repo');
  for (const folder of ['cases', 'patterns', 'principles']) fs.mkdirSync(path.join(root, 'lessons', folder), { recursive: true });
  writeFiles(root, files);
  return { parent, root };
}

function expectRefusal(result: ReturnType<typeof runCli>, message: string | RegExp): void {
  expect(result.exitCode, result.stderr).toBe(1);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe('every write stays inside the repository', () => {
  it('export --to cursor refuses a lesson id that climbs out, and creates nothing outside', () => {
    const { parent, root } = nestedRepo({ 'lessons/cases/case-a.md': lessonText({ id: '/../../../../outside/x', status: 'validated' }) });
    const result = runCli(['export', '--to', 'cursor'], { cwd: root });
    expectRefusal(result, 'a lesson id leads outside the repository');
    expect(fs.readdirSync(parent)).toEqual(['repo']);
  });

  it('new, capture and lint refuse a level folder linked to a folder outside', () => {
    const { parent, root } = nestedRepo({ 'notes.md': '[LESSON]\ntitle: Queue redelivery charged twice\n[/LESSON]' });
    const elsewhere = path.join(parent, 'elsewhere');
    fs.mkdirSync(elsewhere);
    writeFiles(elsewhere, lessonFile({ id: 'case-b' }));
    fs.rmSync(path.join(root, 'lessons/cases'), { recursive: true });
    fs.symlinkSync(path.join(elsewhere, 'lessons/cases'), path.join(root, 'lessons/cases'));
    expectRefusal(runCli(['new', 'Deploy skipped the migration'], { cwd: root }), /symbolic link .*outside the repository/);
    expectRefusal(runCli(['capture', 'notes.md'], { cwd: root }), /symbolic link .*outside the repository/);
    expect(fs.readdirSync(path.join(elsewhere, 'lessons/cases'))).toEqual(['case-b.md']);
    const lint = runCli(['lint'], { cwd: root });
    expect(lint.exitCode).toBe(1);
    expect(lint.stdout).toContain('lessons/cases: error [file] is a symbolic link to a folder outside the repository');
    expect(lint.stdout).not.toContain('case-b');
  });

  it('a .lessons/ state folder linked outside is refused by preflight and the guard, which write nothing there', () => {
    const { parent, root } = nestedRepo(lessonFile({ id: 'case-a' }));
    const elsewhere = path.join(parent, 'state');
    fs.mkdirSync(elsewhere);
    fs.symlinkSync(elsewhere, path.join(root, '.lessons'));
    initGitRepo(root);
    expectRefusal(runCli(['preflight', 'bump the version'], { cwd: root }), 'a symbolic link on its way leads outside the repository');
    expectRefusal(runCli(['guard', '--stage', 'final'], { cwd: root }), 'a symbolic link on its way leads outside the repository');
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('init, the harness settings installers and the agent hooks refuse to write through a link that leads outside', () => {
    const { parent, root } = nestedRepo(lessonFile({ id: 'case-a' }));
    initGitRepo(root);
    const elsewhere = path.join(parent, 'elsewhere');
    fs.mkdirSync(elsewhere);
    // A settings folder linked outside: the installer refuses and writes nothing there.
    fs.symlinkSync(elsewhere, path.join(root, '.claude'));
    expectRefusal(runCli(['hooks', 'install', '--claude'], { cwd: root }), 'a symbolic link on its way leads outside the repository');
    // A file init writes, linked outside: init refuses before it writes through the link.
    fs.symlinkSync(path.join(elsewhere, 'AGENTS.md'), path.join(root, 'AGENTS.md'));
    const init = runCli(['init', '--force'], { cwd: root });
    expect(init.exitCode, init.stderr).not.toBe(0);
    expect(init.stderr).toMatch(/outside the repository/);
    // The hook's session state, linked outside: the hook still answers (exit 0) and writes nothing there.
    fs.mkdirSync(path.join(root, '.lessons'), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(root, '.lessons/sessions'));
    const input = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's1', prompt: 'bump the version and publish the release', cwd: root });
    const hook = runCli(['hook', 'claude', 'UserPromptSubmit'], { cwd: root, input });
    expect(hook.exitCode).toBe(0);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('a level folder linked inside the repository still works', () => {
    const { root } = nestedRepo();
    fs.mkdirSync(path.join(root, 'shared-cases'));
    fs.rmSync(path.join(root, 'lessons/cases'), { recursive: true });
    fs.symlinkSync('../shared-cases', path.join(root, 'lessons/cases'));
    expect(runCli(['new', 'Deploy skipped the migration'], { cwd: root }).exitCode).toBe(0);
    expect(fs.readdirSync(path.join(root, 'shared-cases'))).toHaveLength(1);
  });
});

function spawnCli(root: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: root, env: { ...process.env, ...GIT_ENV, NO_COLOR: '1' }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

describe('lessons index and new take the lessons lock', () => {
  it('index waits for a holder of the lock before it reads the tree', async () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a' }));
    const index = path.join(root, 'lessons/index.json');
    let running: Promise<number> | undefined;
    await withLock(root, LESSONS_LOCK, async () => {
      running = spawnCli(root, ['index']);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(fs.existsSync(index)).toBe(false);
      writeFiles(root, lessonFile({ id: 'case-b' }));
    });
    expect(await running).toBe(0);
    expect(JSON.parse(fs.readFileSync(index, 'utf8')).lessons.map((entry: { id: string }) => entry.id)).toEqual(['case-a', 'case-b']);
  });

  it('new waits for a holder of the lock', async () => {
    const root = tempLessonsRepo();
    let running: Promise<number> | undefined;
    await withLock(root, LESSONS_LOCK, async () => {
      running = spawnCli(root, ['new', 'Deploy skipped the migration']);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(fs.readdirSync(path.join(root, 'lessons/cases'))).toEqual([]);
    });
    expect(await running).toBe(0);
    expect(fs.readdirSync(path.join(root, 'lessons/cases'))).toHaveLength(1);
  });

  it('a capture racing two index runs is always in the index at the end', async () => {
    for (let round = 0; round < 3; round++) {
      const root = tempLessonsRepo({ ...lessonFile({ id: 'case-a' }), 'notes.md': '[LESSON]\ntitle: Queue redelivery charged twice\n[/LESSON]' });
      expect(await spawnCli(root, ['index'])).toBe(0);
      const codes = await Promise.all([spawnCli(root, ['index']), spawnCli(root, ['capture', 'notes.md']), spawnCli(root, ['index'])]);
      expect(codes).toEqual([0, 0, 0]);
      const ids = JSON.parse(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')).lessons.map((entry: { id: string }) => entry.id);
      expect(ids).toHaveLength(2);
    }
  });
});
