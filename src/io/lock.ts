import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LessonsError } from '../errors.js';
import { STATE_DIR } from './repo.js';
import { readRegularFile, toPosixRelative } from './fs.js';
import { pathInside } from './inside.js';

export const LOCKS_DIR = `${STATE_DIR}/locks`;

/** The one lock every writer of lessons or lessons/index.json holds: they change together. */
export const LESSONS_LOCK = 'lessons';

export interface LockOptions {
  /** How long to wait for another holder before giving up. */
  timeoutMs?: number;
  /** A lock file older than this is stale even when its owner cannot be checked (another host). */
  staleMs?: number;
}

interface Owner {
  pid: number;
  host: string;
  token: string;
  /** When the owner process started (clock ticks since boot, /proc/<pid>/stat), where the system says: a pid reused by another process is no owner. */
  start?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_STALE_MS = 120_000;
const BREAKER_STALE_MS = 10_000;
/**
 * A lock is written whole (a complete temp file, hard-linked into place), so this code never
 * leaves one empty. An empty or unreadable one (an older version killed between its create and
 * its write, a full disk) is stale after this long, not after `staleMs`.
 */
const UNREADABLE_STALE_MS = 2_000;

/**
 * Runs `fn` while holding `.lessons/locks/<name>.lock`, created with O_EXCL so only one
 * process holds it. A lock left by a process that died (same host, pid gone) or older than
 * `staleMs` is broken; every read-modify-write of lessons happens inside this.
 */
export async function withLock<T>(root: string, name: string, fn: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const file = path.join(root, LOCKS_DIR, `${name}.lock`);
  const release = await acquire(root, file, options);
  try {
    return await fn();
  } finally {
    release();
  }
}

async function acquire(root: string, file: string, options: LockOptions): Promise<() => void> {
  // Before the first write: a committed .lessons link must not have the locks folder made elsewhere.
  fs.mkdirSync(pathInside(root, path.dirname(file), 'the locks folder'), { recursive: true });
  const start = processStart(process.pid);
  const owner: Owner = { pid: process.pid, host: os.hostname(), token: Math.random().toString(36).slice(2), ...(start === undefined ? {} : { start }) };
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  for (let attempt = 0; ; attempt++) {
    try {
      if (createWhole(file, JSON.stringify(owner))) return () => releaseIfOwned(file, owner);
    } catch (error) {
      throw new LessonsError('IO', `cannot create lock ${toPosixRelative(root, file)}: ${(error as Error).message}`);
    }
    if (breakIfStale(file, options.staleMs ?? DEFAULT_STALE_MS)) continue;
    if (Date.now() > deadline) {
      const holder = readOwner(file);
      throw new LessonsError(
        'LOCKED',
        `${toPosixRelative(root, file)} is held${holder ? ` by process ${holder.pid} on ${holder.host}` : ''}: wait for it to finish, or delete the file if no lessons command is running`,
      );
    }
    await sleep(Math.min(5 + attempt * 5, 50));
  }
}

/**
 * Creates `file` holding `text`, false when it exists: the text goes to a temp file first and a
 * hard link puts it in place, so a reader never sees the lock empty or half-written.
 */
function createWhole(file: string, text: string): boolean {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  fs.writeFileSync(temp, text, { flag: 'wx', mode: 0o644 });
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** A process's start time (field 22 of /proc/<pid>/stat), undefined where the system does not say. */
function processStart(pid: number): number | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count from the last `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[19]);
  return Number.isFinite(start) ? start : undefined;
}

function readOwner(file: string): Owner | undefined {
  try {
    const owner = JSON.parse(readRegularFile(file, 'state').toString('utf8')) as Partial<Owner>;
    return Number.isInteger(owner.pid) && typeof owner.host === 'string' && typeof owner.token === 'string' ? (owner as Owner) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the lock's owner still runs: its pid is alive and, where both are known, started when the owner did. */
function isAlive(owner: Owner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.start === undefined) return true;
  const start = processStart(owner.pid);
  return start === undefined || start === owner.start;
}

function isStale(file: string, staleMs: number): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return true;
  }
  const owner = readOwner(file);
  const age = Date.now() - stat.mtimeMs;
  // Locks are written whole: one without a readable owner was left by a crash, not being written now.
  if (owner === undefined) return age > Math.min(UNREADABLE_STALE_MS, staleMs);
  const dead = owner.host === os.hostname() && !isAlive(owner);
  return dead || age > staleMs;
}

/**
 * True when the lock was stale and is gone, so the caller retries at once. Breaking is itself
 * exclusive (`<lock>.break`, O_EXCL), and staleness is checked again under it: of two processes
 * that found the same dead lock, the second sees the first one's fresh lock and leaves it.
 */
function breakIfStale(file: string, staleMs: number): boolean {
  if (!isStale(file, staleMs)) return false;
  const breaker = `${file}.break`;
  let fd: number;
  try {
    fd = fs.openSync(breaker, 'wx');
  } catch {
    // Another process is breaking it. A breaker whose process died goes after a while.
    try {
      if (Date.now() - fs.statSync(breaker).mtimeMs > BREAKER_STALE_MS) fs.rmSync(breaker, { force: true });
    } catch {
      // Gone already.
    }
    return false;
  }
  try {
    fs.closeSync(fd);
    if (isStale(file, staleMs)) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(breaker, { force: true });
  }
  return true;
}

function releaseIfOwned(file: string, owner: Owner): void {
  if (readOwner(file)?.token === owner.token) fs.rmSync(file, { force: true });
}
