import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_REGULAR, readRegularTextWithin } from '../../src/io/fs.js';
import { filesAndLinksBelow, isDirectory, listDirIfExists, pathKind } from '../../src/io/paths.js';
import { sortStrings } from '../../src/util/compare.js';
import { tempDir } from '../helpers/repo.js';

/** The path questions the commands ask through src/io answer as the file-system calls they replaced. */

describe('path questions', () => {
  it('tells a file, a folder, a link (dangling too) and nothing apart, without following the link', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'file'), 'x');
    fs.mkdirSync(path.join(dir, 'folder'));
    fs.symlinkSync(path.join(dir, 'folder'), path.join(dir, 'to-folder'));
    fs.symlinkSync(path.join(dir, 'gone'), path.join(dir, 'dangling'));
    expect(['file', 'folder', 'to-folder', 'dangling', 'gone'].map((name) => pathKind(path.join(dir, name)))).toEqual(['file', 'directory', 'symlink', 'symlink', 'missing']);
    expect(['file', 'folder', 'to-folder', 'gone'].map((name) => isDirectory(path.join(dir, name)))).toEqual([false, true, true, false]);
  });

  it('lists no names for a folder that is not there, and the files and links below one', () => {
    const dir = tempDir();
    expect(listDirIfExists(path.join(dir, 'none'))).toEqual([]);
    fs.mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a', 'b', 'deep.md'), '');
    fs.writeFileSync(path.join(dir, 'a', 'top.md'), '');
    fs.symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'a', 'link.md'));
    expect(sortStrings(listDirIfExists(path.join(dir, 'a')))).toEqual(['b', 'link.md', 'top.md']);
    expect(sortStrings(filesAndLinksBelow(path.join(dir, 'a')))).toEqual([path.join(dir, 'a', 'b', 'deep.md'), path.join(dir, 'a', 'link.md'), path.join(dir, 'a', 'top.md')]);
  });
});

describe('readRegularTextWithin', () => {
  it('reads a file up to the bound, gives the size past it, and the open error of a missing file or a FIFO', () => {
    const dir = tempDir();
    const file = path.join(dir, 'answer.json');
    fs.writeFileSync(file, '{"ok":true}');
    expect(readRegularTextWithin(file, 11)).toEqual({ kind: 'text', text: '{"ok":true}' });
    expect(readRegularTextWithin(file, 10)).toEqual({ kind: 'too-large', size: 11 });
    const missing = readRegularTextWithin(path.join(dir, 'none'), 10);
    expect(missing.kind === 'unopened' && missing.error.code).toBe('ENOENT');
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const refused = readRegularTextWithin(fifo, 10);
    expect(refused.kind === 'unopened' && refused.error.code).toBe(NOT_REGULAR);
  });
});
