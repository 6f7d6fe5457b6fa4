import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LessonsError } from '../errors.js';
import { STATE_DIR } from './repo.js';
import { toPosixRelative } from './fs.js';

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
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_STALE_MS = 120_000;
const BREAKER_STALE_MS = 10_000;

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
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const owner: Owner = { pid: process.pid, host: os.hostname(), token: Math.random().toString(36).slice(2) };
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644);
      fs.writeSync(fd, JSON.stringify(owner));
      fs.closeSync(fd);
      return () => releaseIfOwned(file, owner);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new LessonsError('IO', `cannot create lock ${toPosixRelative(root, file)}: ${(error as Error).message}`);
      }
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

function readOwner(file: string): Owner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Owner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.token === 'string' ? (owner as Owner) : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(file: string, staleMs: number): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return true;
  }
  const owner = readOwner(file);
  // A lock without a readable owner may be one being written right now: only age makes it stale.
  const dead = owner !== undefined && owner.host === os.hostname() && !isAlive(owner.pid);
  return dead || Date.now() - stat.mtimeMs > staleMs;
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
