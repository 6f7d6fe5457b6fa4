/**
 * Questions about paths and the plain operations on them (is it there, what is it, list, move,
 * remove): each is the one file-system call it names, with that call's errors, so a command's
 * messages and refusals are the same through it as with the call itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Whether anything is at `file`, a link followed (one that leads nowhere is not there). */
export function pathExists(file: string): boolean {
  return fs.existsSync(file);
}

/** Whether `file` is a folder, a link followed; false when nothing is there. */
export function isDirectory(file: string): boolean {
  return fs.statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** Whether `file` is a regular file this process may run, as `command -v` finds one. */
export function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** When `file` was last written, in milliseconds since the epoch; throws when it is absent. */
export function modifiedTimeMs(file: string): number {
  return fs.statSync(file).mtimeMs;
}

export type PathKind = 'missing' | 'file' | 'directory' | 'symlink' | 'other';

/** What is at `file` itself, a link not followed; `missing` when it cannot be looked at. */
export function pathKind(file: string): PathKind {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return 'missing';
  }
  if (stat.isSymbolicLink()) return 'symlink';
  return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other';
}

/** The path `file` leads to, every link on the way followed. */
export function realPath(file: string): string {
  return fs.realpathSync(file);
}

/** The names in the folder `dir`, in the order the file system gives them. */
export function listDir(dir: string): string[] {
  return fs.readdirSync(dir);
}

/** listDir() of `dir`, none when nothing is there. */
export function listDirIfExists(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** The regular files and symbolic links anywhere below the folder `dir`, as paths that start with `dir`, in the order the file system gives them. */
export function filesAndLinksBelow(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Creates the folder `dir` and the folders above it that are missing. */
export function makeDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
}

/** A new empty folder under the system's temporary folder, its name `prefix` and a random tail. */
export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Renames `from` to `to`, replacing a file at `to`. */
export function movePath(from: string, to: string): void {
  fs.renameSync(from, to);
}

/** Removes the file `file`; an error when nothing is there. */
export function removeFile(file: string): void {
  fs.rmSync(file);
}

/** Removes the file `file` when it is there. */
export function removeIfExists(file: string): void {
  fs.rmSync(file, { force: true });
}

/** Removes the folder `dir` and everything in it, when it is there. */
export function removeTree(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Lets everyone read and run `file`, and its owner write it (a git hook). */
export function makeExecutable(file: string): void {
  fs.chmodSync(file, 0o755);
}

/** Sets the access and modification times of `file` to `seconds` since the epoch. */
export function setFileTimes(file: string, seconds: number): void {
  fs.utimesSync(file, seconds, seconds);
}

/** Copies the file or folder `from` to `to` (folders whole, links as links, times kept). */
export function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
}

/**
 * Copies the regular file `from` to `to`, its mode and modification time kept: what copyTree
 * does for one file, without its checks (a third of the time, over thousands of files).
 */
export function copyFile(from: string, to: string): void {
  fs.copyFileSync(from, to);
  const stat = fs.statSync(from);
  fs.utimesSync(to, stat.atime, stat.mtime);
}

/** A symbolic link at `link` that points at `target`. */
export function makeSymlink(target: string, link: string): void {
  fs.symlinkSync(target, link);
}
