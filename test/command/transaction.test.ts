import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withLock } from '../../src/io/lock.js';
import { commitChanges, recoverChanges } from '../../src/io/transaction.js';
import { promoteLessons } from '../../src/lifecycle/promote.js';
import { acceptLesson } from '../../src/lifecycle/accept.js';
import { lessonFile } from '../helpers/lessons.js';
import { PACKAGE_ROOT, tempLessonsRepo } from '../helpers/repo.js';

const now = new Date('2026-11-21T12:00:00Z');

/** Every file under lessons/, with its content: the tree as a user sees it. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(root, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(path.join(root, 'lessons'));
  return files;
}

function twoCases(): string {
  return tempLessonsRepo({ ...lessonFile({ id: 'case-a' }), ...lessonFile({ id: 'case-b' }), 'lessons/index.json': '{"stale": true}\n' });
}

describe('commitChanges', () => {
  it('writes every file, creating new ones and replacing old ones, and leaves no state behind', () => {
    const root = tempLessonsRepo({ 'lessons/a.txt': 'old a\n' });
    commitChanges(root, [{ path: 'lessons/a.txt', content: 'new a\n' }, { path: 'lessons/b.txt', content: 'new b\n', create: true }]);
    expect(snapshot(root)).toEqual({ 'lessons/a.txt': 'new a\n', 'lessons/b.txt': 'new b\n' });
    expect(fs.readdirSync(path.join(root, '.lessons/txn'))).toEqual([]);
  });

  it('refuses to create over an existing file before anything moves', () => {
    const root = tempLessonsRepo({ 'lessons/a.txt': 'a\n', 'lessons/b.txt': 'b\n' });
    expect(() => commitChanges(root, [{ path: 'lessons/a.txt', content: 'x\n' }, { path: 'lessons/b.txt', content: 'y\n', create: true }])).toThrow(
      'lessons/b.txt already exists: choose another id',
    );
    expect(snapshot(root)).toEqual({ 'lessons/a.txt': 'a\n', 'lessons/b.txt': 'b\n' });
  });

  for (const failAfter of [1, 2, 3]) {
    it(`rolls a promotion back when it fails after ${failAfter} of 4 renames`, async () => {
      const root = twoCases();
      const before = snapshot(root);
      const hooks = {
        afterRename: (done: number) => {
          if (done === failAfter) throw new Error('disk full');
        },
      };
      await expect(promoteLessons({ cwd: root, sources: ['case-a', 'case-b'], to: 'pattern', title: 'One version', now, hooks })).rejects.toMatchObject({
        code: 'IO',
        message: expect.stringContaining('disk full; nothing was changed'),
      });
      expect(snapshot(root)).toEqual(before);
      expect(fs.readdirSync(path.join(root, '.lessons/txn'))).toEqual([]);
    });
  }

  it('a killed process leaves a journal that the next command rolls back', async () => {
    const root = twoCases();
    const before = snapshot(root);
    // Dies by SIGKILL after the new pattern and one back-link are in place.
    const script = `
      const { promoteLessons } = await import(${JSON.stringify(pathToFileURL(path.join(PACKAGE_ROOT, 'dist/src/lifecycle/promote.js')).href)});
      await promoteLessons({ cwd: ${JSON.stringify(root)}, sources: ['case-a', 'case-b'], to: 'pattern', title: 'One version', now: new Date(),
        hooks: { afterRename: (done) => { if (done === 2) process.kill(process.pid, 'SIGKILL'); } } });`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.signal).toBe('SIGKILL');
    const torn = snapshot(root);
    expect(torn).not.toEqual(before);
    expect(Object.keys(torn)).toContain('lessons/patterns/pattern-one-version.md');
    expect(fs.readdirSync(path.join(root, '.lessons/txn')).length).toBe(1);

    expect(recoverChanges(root).length).toBe(1);
    expect(snapshot(root)).toEqual(before);
    expect(fs.readdirSync(path.join(root, '.lessons/txn'))).toEqual([]);
  });

  it('rolls back a killed change at the start of the next lifecycle command, which then runs', async () => {
    const root = twoCases();
    const before = snapshot(root);
    const script = `
      const { promoteLessons } = await import(${JSON.stringify(pathToFileURL(path.join(PACKAGE_ROOT, 'dist/src/lifecycle/promote.js')).href)});
      await promoteLessons({ cwd: ${JSON.stringify(root)}, sources: ['case-a', 'case-b'], to: 'pattern', title: 'One version', now: new Date(),
        hooks: { afterRename: (done) => { if (done === 3) process.kill(process.pid, 'SIGKILL'); } } });`;
    expect(spawnSync(process.execPath, ['--input-type=module', '-e', script]).signal).toBe('SIGKILL');
    // The dead process's lock is stale: its pid is gone.
    await acceptLesson({ cwd: root, id: 'case-a', canonical: false, now });
    const after = snapshot(root);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(after['lessons/cases/case-b.md']).toBe(before['lessons/cases/case-b.md']);
    expect(after['lessons/cases/case-a.md']).not.toContain('promoted_to');
  });
});

describe('withLock', () => {
  it('breaks a lock whose process is gone', async () => {
    const root = tempLessonsRepo();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.mkdirSync(path.join(root, '.lessons/locks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.lessons/locks/lessons.lock'), JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), token: 'dead' }));
    expect(await withLock(root, 'lessons', () => 'ran')).toBe('ran');
    expect(fs.readdirSync(path.join(root, '.lessons/locks'))).toEqual([]);
  });

  it('waits for a live holder, then times out naming it', async () => {
    const root = tempLessonsRepo();
    await withLock(root, 'lessons', async () => {
      await expect(withLock(root, 'lessons', () => 'never', { timeoutMs: 50 })).rejects.toMatchObject({
        code: 'LOCKED',
        message: `.lessons/locks/lessons.lock is held by process ${process.pid} on ${os.hostname()}: wait for it to finish, or delete the file if no lessons command is running`,
      });
    });
  });

  it('breaks a lock older than staleMs even when its owner is unknown', async () => {
    const root = tempLessonsRepo();
    const file = path.join(root, '.lessons/locks/lessons.lock');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'garbage');
    const old = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(file, old, old);
    expect(await withLock(root, 'lessons', () => 'ran', { timeoutMs: 1000 })).toBe('ran');
  });
});
