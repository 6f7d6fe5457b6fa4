import fs from 'node:fs';
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { compareStrings } from '../util/compare.js';

export const MAX_LESSON_BYTES = 1024 * 1024;

/** Repo-relative POSIX path, the only form paths take in output and in the index. */
export function toPosixRelative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

export type FileRead =
  | { kind: 'file'; path: string; bytes: Buffer }
  | { kind: 'problem'; path: string; severity: 'error' | 'warning'; message: string };

/** A `*.md` entry of a lessons folder, listed but not read; plain data, so it can cross to a worker. */
export interface MarkdownEntry {
  file: string;
  kind: 'file' | 'symlink' | 'directory' | 'other';
}

/** The `*.md` entries directly inside `dir`, in code-point order of name. */
export function listMarkdownFiles(root: string, dir: string): MarkdownEntry[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new LessonsError('IO', `cannot read ${toPosixRelative(root, dir)}: ${(error as Error).message}`);
  }
  const names = entries.filter((entry) => entry.name.endsWith('.md'));
  names.sort((a, b) => compareStrings(a.name, b.name));
  return names.map((entry) => ({
    file: path.join(dir, entry.name),
    kind: entry.isFile() ? 'file' : entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'directory' : 'other',
  }));
}

/**
 * Reads every `*.md` directly inside `dir`, in code-point order of name. Never throws for a
 * single bad entry: directories named like lessons, files over 1 MiB, links that lead outside
 * `root` or nowhere come back as problems so lint can name them.
 */
export function readMarkdownFiles(root: string, dir: string): FileRead[] {
  return listMarkdownFiles(root, dir).map((entry) => readMarkdownEntry(root, entry));
}

export function readMarkdownEntry(root: string, entry: MarkdownEntry): FileRead {
  const { file } = entry;
  const rel = toPosixRelative(root, file);
  if (entry.kind === 'directory') {
    return { kind: 'problem', path: rel, severity: 'error', message: 'is a directory, not a lesson file: rename it so it does not end in .md' };
  }
  if (entry.kind === 'other') {
    return { kind: 'problem', path: rel, severity: 'error', message: 'is not a regular file (a socket, FIFO or device): remove it' };
  }
  if (entry.kind === 'symlink') {
    let target: string;
    try {
      target = fs.realpathSync(file);
    } catch {
      return { kind: 'problem', path: rel, severity: 'warning', message: 'symbolic link leads nowhere: skipped' };
    }
    const realRoot = fs.realpathSync(root);
    if (fs.statSync(target).isDirectory()) {
      return { kind: 'problem', path: rel, severity: 'error', message: 'links to a directory, not a lesson file: remove the link' };
    }
    if (target !== realRoot && !target.startsWith(realRoot + path.sep)) {
      return {
        kind: 'problem',
        path: rel,
        severity: 'warning',
        message: 'symbolic link leads outside the repository: skipped (copy the lesson into the repository instead)',
      };
    }
  }
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    return { kind: 'problem', path: rel, severity: 'error', message: `cannot read file: ${(error as Error).message}` };
  }
  try {
    // One read of up to the limit plus a byte tells a file over the limit without a separate stat.
    let length = 0;
    for (;;) {
      const read = fs.readSync(fd, scratch, length, scratch.length - length, length);
      if (read === 0) break;
      length += read;
      if (length === scratch.length) break;
    }
    if (length > MAX_LESSON_BYTES) {
      return {
        kind: 'problem',
        path: rel,
        severity: 'error',
        message: `file is ${fs.fstatSync(fd).size} bytes, over the 1 MiB limit for a lesson: keep lessons short and link to long material`,
      };
    }
    return { kind: 'file', path: rel, bytes: Buffer.from(scratch.subarray(0, length)) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = code === 'EISDIR' ? 'is a directory, not a lesson file: rename it so it does not end in .md' : `cannot read file: ${(error as Error).message}`;
    return { kind: 'problem', path: rel, severity: 'error', message };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reused read buffer: one allocation for every lesson file. */
const scratch = Buffer.allocUnsafe(MAX_LESSON_BYTES + 1);

function tempPathFor(file: string): string {
  const suffix = `${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
  return path.join(path.dirname(file), `.${path.basename(file)}.${suffix}.tmp`);
}

function writeTemp(file: string, data: string | Uint8Array, durable = true): string {
  const temp = tempPathFor(file);
  const fd = fs.openSync(temp, 'wx', 0o644);
  try {
    fs.writeFileSync(fd, data);
    if (durable) fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  return temp;
}

export interface WriteOptions {
  /**
   * fsync before the rename (the default), so the content survives a crash too. Local state
   * that is rebuilt or rewritten anyway (caches, receipts, hook sessions) turns it off: the
   * rename alone keeps it whole, and an fsync on every tool call is the slowest part of a hook.
   */
  durable?: boolean;
}

/** Writes `file` so that readers see the old content or the new, never a part: temp file, fsync, rename. */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: WriteOptions = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = writeTemp(file, data, options.durable ?? true);
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Creates `file` with its whole content at once, failing with EEXIST if it is already there:
 * a hard link from a complete temp file is atomic and never replaces an existing file.
 */
export function createFileExclusive(file: string, data: string | Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = writeTemp(file, data);
  try {
    fs.linkSync(temp, file);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

export function readTextIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export interface WalkOptions {
  /** The folder to walk, relative to `root` (default: `root` itself). */
  under?: string;
  /** Folders (by name) not to enter. */
  skipFolder?: (name: string) => boolean;
  /** Files (by name) to list (default: all). */
  keepFile?: (name: string) => boolean;
}

/** Regular files below a folder, relative to `root` and POSIX, in code-point order; an unreadable folder counts as empty. */
export function walkFiles(root: string, options: WalkOptions = {}): string[] {
  const files: string[] = [];
  const visit = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!options.skipFolder?.(entry.name)) visit(full);
      } else if (entry.isFile() && (options.keepFile?.(entry.name) ?? true)) files.push(toPosixRelative(root, full));
    }
  };
  visit(options.under === undefined ? root : path.join(root, options.under));
  return files.sort(compareStrings);
}
