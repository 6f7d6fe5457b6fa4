import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSandbox } from '../../src/doctor/hook-sandbox.js';
import { git, initGitRepo, writeFiles } from '../helpers/repo.js';

/** Every file of the repository's object store. */
function objects(root: string): string[] {
  return fs.readdirSync(path.join(root, '.git/objects'), { recursive: true, encoding: 'utf8' }).sort();
}

describe('the temporary copy doctor --run-hooks runs the hooks in', () => {
  it("holds the working tree as it is now, modes and times kept, commits, and writes nothing into the repository's object store", async () => {
    const root = initGitRepo();
    writeFiles(root, { 'a.txt': 'committed\n', 'd.txt': 'deleted later\n', 'run.sh': '#!/bin/sh\necho hi\n', '.gitignore': 'c.log\n' });
    fs.chmodSync(path.join(root, 'run.sh'), 0o755);
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'first');
    // Edited, untracked, ignored and deleted files in the working tree.
    writeFiles(root, { 'a.txt': 'edited\n', 'b.txt': 'untracked\n', 'c.log': 'ignored\n' });
    fs.rmSync(path.join(root, 'd.txt'));
    const old = new Date('2020-01-02T03:04:05Z');
    fs.utimesSync(path.join(root, 'run.sh'), old, old);
    const before = objects(root);

    const sandbox = await makeSandbox(root);
    try {
      const { dir } = sandbox;
      expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('edited\n');
      expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('untracked\n');
      expect(fs.existsSync(path.join(dir, 'c.log'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'd.txt'))).toBe(false);
      const script = fs.statSync(path.join(dir, 'run.sh'));
      expect(script.mode & 0o777).toBe(0o755);
      expect(script.mtime.toISOString()).toBe(old.toISOString());
      // The copy's commit holds the tree as it is now.
      expect(git(dir, 'show', `${sandbox.base}:a.txt`)).toBe('edited\n');
      expect(git(dir, 'show', `${sandbox.base}:run.sh`)).toBe('#!/bin/sh\necho hi\n');
      const second = await sandbox.commit('a sample');
      expect(git(dir, 'rev-parse', `${second}^`).trim()).toBe(sandbox.base);
    } finally {
      sandbox.remove();
    }
    expect(fs.existsSync(sandbox.dir)).toBe(false);
    expect(objects(root)).toEqual(before);
  });
});
