import fs from 'node:fs';
import type { Chunks } from '../util/digest.js';
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { compareStrings } from '../util/compare.js';
import { isWithin, pathInside, resolvesInside } from './inside.js';

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
  /** `outside`: `file` is the folder itself, a link that leads out of the repository. */
  kind: 'file' | 'symlink' | 'directory' | 'other' | 'outside';
  /** Listed by name alone: `kind` says `file` until the caller finds out (listMarkdownFiles()). */
  untyped?: true;
}

/**
 * The `*.md` entries directly inside `dir`, in code-point order of name. `untyped`: only the
 * names are read (a folder of 100,000 files lists in half the time); each entry is marked
 * `untyped` and the caller learns its kind some other way (entryKind()).
 */
export function listMarkdownFiles(root: string, dir: string, options: { untyped?: boolean } = {}): MarkdownEntry[] {
  // A level folder linked elsewhere would have lint read, and new or capture write, outside.
  if (!resolvesInside(root, dir)) return [{ file: dir, kind: 'outside' }];
  // `dir` is a normalised path and a name from readdir has no separator: this is path.join, without its cost per file.
  const prefix = dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`;
  try {
    if (options.untyped) {
      const names = fs.readdirSync(dir).filter((name) => name.endsWith('.md'));
      names.sort(compareStrings);
      return names.map((name) => ({ file: `${prefix}${name}`, kind: 'file', untyped: true }));
    }
    const names = fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.name.endsWith('.md'));
    names.sort((a, b) => compareStrings(a.name, b.name));
    return names.map((entry) => ({
      file: `${prefix}${entry.name}`,
      kind: entry.isFile() ? 'file' : entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'directory' : 'other',
    }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new LessonsError('IO', `cannot read ${toPosixRelative(root, dir)}: ${(error as Error).message}`);
  }
}

/** The kind of an entry listed `untyped`, from a stat of it that does not follow a link; one gone since the listing reads as a file (its read says it is gone). */
export function entryKind(file: string): MarkdownEntry['kind'] {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (stat === undefined || stat.isFile()) return 'file';
  return stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'directory' : 'other';
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
  if (entry.kind === 'outside') {
    return { kind: 'problem', path: rel, severity: 'error', message: 'is a symbolic link to a folder outside the repository: its lessons are not read; replace the link with a real folder' };
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
    // Stat the link, not its resolved name: /dev/stdin resolves to a pipe's name that no stat finds.
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat === undefined) return { kind: 'problem', path: rel, severity: 'warning', message: 'symbolic link leads nowhere: skipped' };
    if (stat.isDirectory()) {
      return { kind: 'problem', path: rel, severity: 'error', message: 'links to a directory, not a lesson file: remove the link' };
    }
    if (!stat.isFile()) {
      return { kind: 'problem', path: rel, severity: 'error', message: 'is not a regular file (a socket, FIFO or device): remove it' };
    }
    if (!isWithin(realRoot, target)) {
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
    // No stat before the open: a tree of 100,000 lessons would pay 100,000 of them, and the listing has typed the entry (or the non-blocking open and its fstat refuse what is not a file).
    fd = openRegularFile(file, { statFirst: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === NOT_REGULAR) return { kind: 'problem', path: rel, severity: 'error', message: 'is not a regular file (a socket, FIFO or device): remove it' };
    if (code === 'EISDIR') return { kind: 'problem', path: rel, severity: 'error', message: 'is a directory, not a lesson file: rename it so it does not end in .md' };
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

/** A worktree file's stat identity; a change of content changes at least one of these (ctime cannot be set back). */
export function statIdentity(stat: fs.BigIntStats): string {
  return `${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.ino}`;
}

/** Reused read buffer: one allocation for every lesson file. */
const scratch = Buffer.allocUnsafe(MAX_LESSON_BYTES + 1);

function tempPathFor(file: string): string {
  const suffix = `${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
  return path.join(path.dirname(file), `.${path.basename(file)}.${suffix}.tmp`);
}

function writeTemp(file: string, data: string | Uint8Array | Chunks, durable = true): string {
  const temp = tempPathFor(file);
  const fd = fs.openSync(temp, 'wx', 0o644);
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) fs.writeFileSync(fd, data);
    else for (const chunk of data) writeAll(fd, chunk);
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

/** Writes all of `bytes` at the file's position (a write may take fewer bytes than it is given). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}

/** Writes `file` so that readers see the old content or the new, never a part: temp file, fsync (unless `durable` is false), rename. */
export function writeFileAtomic(file: string, data: string | Uint8Array | Chunks, options: WriteOptions = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = writeTemp(file, data, options.durable ?? true);
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** writeFileAtomic of `target` (repo-relative or absolute) once pathInside has checked it stays inside `root`, and that no folder stands there. */
export function writeInRepo(root: string, target: string, data: string | Uint8Array | Chunks, options: WriteOptions = {}): void {
  const file = pathInside(root, target);
  if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    const shown = path.isAbsolute(target) ? toPosixRelative(root, target) : target;
    throw new LessonsError('REFUSED', `cannot write ${shown}: a folder stands at that path; remove it (\`git rm -r ${shown}\` if it is committed) and run the command again`, 1);
  }
  writeFileAtomic(file, data, options);
}

/** createFileExclusive of `target` once pathInside has checked it stays inside `root`. */
export function createInRepo(root: string, target: string, data: string | Uint8Array): void {
  createFileExclusive(pathInside(root, target), data);
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

/** The error code of a path that is there but is a FIFO, socket or device. */
export const NOT_REGULAR = 'ENOTREGULAR';
/** The error code of a file over the size limit of its kind (READ_LIMITS). */
export const TOO_LARGE = 'EFBIG';

const MIB = 1024 * 1024;

/**
 * The most bytes the CLI reads of each kind of file: far above any real one, so a file that is
 * over it (a planted link to a huge file, a runaway generator) is refused with a message instead
 * of filling the memory. Lessons keep their own limit (MAX_LESSON_BYTES), reported by lint.
 */
export const READ_LIMITS = {
  lesson: MAX_LESSON_BYTES,
  policy: 4 * MIB,
  index: 1024 * MIB,
  evals: 64 * MIB,
  'sources lock': 16 * MIB,
  cache: 2048 * MIB,
  /** Local state (receipts, sessions, locks, journals) and other small files the CLI keeps. */
  state: 64 * MIB,
  /** Any other text a command reads: reference docs, a file a user names, the package's own files. */
  text: 256 * MIB,
} as const;

export type ReadKind = keyof typeof READ_LIMITS;

function refusal(file: string, what: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${path.basename(file)} is ${what}`), { code });
}

/**
 * Opens `file` for reading only if, after following links, it is a regular file. A stat before
 * the open refuses a FIFO, socket or device without opening it; the open does not block
 * (O_NONBLOCK) and the fstat after it checks again, so a FIFO swapped in between is refused
 * too instead of hanging the process (a synchronous open of a FIFO with no writer never
 * returns, and no timer can fire meanwhile). Throws ENOENT for nothing there, EISDIR for a
 * directory and NOT_REGULAR for anything else that is not a regular file. `statFirst: false`
 * skips the stat, for a caller that listed the entry's kind already.
 */
export function openRegularFile(file: string, options: { statFirst?: boolean } = {}): number {
  const before = options.statFirst === false ? undefined : fs.statSync(file, { throwIfNoEntry: false });
  if (before !== undefined && !before.isFile()) throw notRegular(file, before);
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  if (stat.isFile()) return fd;
  fs.closeSync(fd);
  throw notRegular(file, stat);
}

function notRegular(file: string, stat: fs.Stats): NodeJS.ErrnoException {
  return stat.isDirectory() ? refusal(file, 'a directory', 'EISDIR') : refusal(file, 'not a regular file (a FIFO, socket or device)', NOT_REGULAR);
}

function sizeText(bytes: number): string {
  return bytes >= MIB ? `${Math.round(bytes / MIB)} MiB` : `${bytes} bytes`;
}

/**
 * The one reader of files the CLI did not just write: the whole content of a regular file (see
 * openRegularFile) of at most the limit of its `kind`; over it, a TOO_LARGE error that says the
 * size and the limit. What readFileSync is for paths anyone can plant.
 */
export function readRegularFile(file: string, kind: ReadKind = 'text'): Buffer {
  const fd = openRegularFile(file);
  try {
    const size = fs.fstatSync(fd).size;
    const limit = READ_LIMITS[kind];
    if (size > limit) throw refusal(file, `${sizeText(size)}, over the ${sizeText(limit)} a ${kind} file may have`, TOO_LARGE);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A regular file's text read only up to a bound: the open's error is data, so the caller can say what was there. */
export type BoundedText = { kind: 'text'; text: string } | { kind: 'too-large'; size: number } | { kind: 'unopened'; error: NodeJS.ErrnoException };

/** The text of a regular file (see openRegularFile) that holds at most `maxBytes`, else its size; one that cannot be opened, or is refused, is `unopened`. */
export function readRegularTextWithin(file: string, maxBytes: number): BoundedText {
  let fd: number;
  try {
    fd = openRegularFile(file);
  } catch (error) {
    return { kind: 'unopened', error: error as NodeJS.ErrnoException };
  }
  try {
    const size = fs.fstatSync(fd).size;
    if (size > maxBytes) return { kind: 'too-large', size };
    return { kind: 'text', text: fs.readFileSync(fd, 'utf8') };
  } finally {
    fs.closeSync(fd);
  }
}

/** How much of a file readRecords() reads at a time. */
const RECORDS_CHUNK = 1 << 20;

/**
 * A regular file's text split at `separator` (a byte below 0x80: a newline, a NUL), as
 * `text.split(separator)` gives it, read a megabyte at a time into one buffer. A file read
 * whole into a fresh buffer costs its pages: 50 MB take half a second here, where this takes
 * a tenth of that to read, and the text is decoded piece by piece as whole records.
 */
export function readRecords(file: string, separator: string): string[] {
  const byte = separator.charCodeAt(0);
  const fd = openRegularFile(file);
  let buffer = Buffer.allocUnsafe(RECORDS_CHUNK);
  // Bytes at the buffer's start that are not decoded yet: the start of a record (a separator byte is never part of a longer UTF-8 character).
  let held = 0;
  const records: string[] = [];
  try {
    for (;;) {
      if (held === buffer.length) {
        const bigger = Buffer.allocUnsafe(2 * buffer.length);
        buffer.copy(bigger, 0, 0, held);
        buffer = bigger;
      }
      const read = fs.readSync(fd, buffer, held, buffer.length - held, null);
      const end = held + read;
      if (read === 0) {
        records.push(buffer.toString('utf8', 0, held));
        return records;
      }
      const last = buffer.lastIndexOf(byte, end - 1);
      if (last < held) {
        held = end;
        continue;
      }
      for (const record of buffer.toString('utf8', 0, last).split(separator)) records.push(record);
      buffer.copy(buffer, 0, last + 1, end);
      held = end - last - 1;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A file's bytes, a link followed, through readRegularFile (`kind` sets the size limit): for
 * files that lessons, git or the package put there, and for a path a user names (their
 * messages quote these errors: ENOENT, EISDIR, NOT_REGULAR, TOO_LARGE).
 */
export function readBytes(file: string, kind: ReadKind = 'text'): Buffer {
  return readRegularFile(file, kind);
}

/** readBytes() of `file`, as UTF-8 text. */
export function readText(file: string, kind: ReadKind = 'text'): string {
  return readRegularFile(file, kind).toString('utf8');
}

/** A regular file's text, undefined when there is nothing at `file`; a FIFO or device is an error, never a hang. */
export function readTextIfExists(file: string, kind: ReadKind = 'text'): string | undefined {
  try {
    return readRegularFile(file, kind).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A regular file's text, undefined when it cannot be read (absent, a folder, a FIFO, no permission). */
export function readTextOrUndefined(file: string, kind: ReadKind = 'text'): string | undefined {
  try {
    return readRegularFile(file, kind).toString('utf8');
  } catch {
    return undefined;
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
