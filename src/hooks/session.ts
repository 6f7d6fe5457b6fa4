/**
 * Per-session state of the agent hooks, in .lessons/sessions/<session id>.json: the lessons
 * shown so far; those shown for the task (by a prompt or a tool call) whose checklists the next
 * Stop has yet to check against the final answer; and digests of the blocks already captured
 * (so a block is captured once however often Stop fires).
 * Writes are atomic and serialised by a lock file, so two hooks firing at once lose nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../io/fs.js';
import { STATE_DIR } from '../io/repo.js';
import { formatJson } from '../util/json.js';
import { uniqueSorted } from '../util/compare.js';

export interface SessionState {
  session_id: string;
  shown: string[];
  pending: string[];
  captured: string[];
}

/** FNV-1a, 32 bits twice with different seeds: a stable file name without loading node:crypto on the hook path. */
function fnvHex(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** A file name for any session id: kept as is when it is safe, hashed otherwise (never a path). */
export function sessionFileName(sessionId: string): string {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(sessionId) ? `${sessionId}.json` : `session-${fnvHex(sessionId)}.json`;
}

export function sessionFile(root: string, sessionId: string): string {
  return path.join(root, STATE_DIR, 'sessions', sessionFileName(sessionId));
}

export function readSession(root: string, sessionId: string): SessionState {
  const empty: SessionState = { session_id: sessionId, shown: [], pending: [], captured: [] };
  let data: Partial<SessionState>;
  try {
    data = JSON.parse(fs.readFileSync(sessionFile(root, sessionId), 'utf8')) as Partial<SessionState>;
  } catch {
    return empty;
  }
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  return { session_id: sessionId, shown: strings(data.shown), pending: strings(data.pending), captured: strings(data.captured) };
}

const LOCK_WAIT_MS = 200;
const LOCK_STALE_MS = 5000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `fn` holding `<file>.lock`; a lock older than LOCK_STALE_MS is a crashed writer's and is broken. */
function withLock<T>(file: string, fn: () => T): T {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > LOCK_STALE_MS) fs.rmSync(lock, { force: true });
      } catch {
        // removed meanwhile
      }
      if (Date.now() > deadline) throw new Error(`session state is locked: ${lock}`);
      sleep(5);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

export interface SessionUpdate {
  shown?: readonly string[];
  /** Shown for the task: the next Stop checks their checklists. */
  pending?: readonly string[];
  /** Checked by a Stop: no longer pending. */
  settled?: readonly string[];
  captured?: readonly string[];
}

/** Applies an update to a session's state under its lock; returns the new state. */
export function updateSession(root: string, sessionId: string, update: SessionUpdate): SessionState {
  const file = sessionFile(root, sessionId);
  return withLock(file, () => {
    const state = readSession(root, sessionId);
    const settled = new Set(update.settled ?? []);
    const next: SessionState = {
      session_id: sessionId,
      shown: uniqueSorted([...state.shown, ...(update.shown ?? []), ...(update.pending ?? [])]),
      pending: uniqueSorted([...state.pending, ...(update.pending ?? [])]).filter((id) => !settled.has(id)),
      captured: uniqueSorted([...state.captured, ...(update.captured ?? [])]),
    };
    writeFileAtomic(file, formatJson(next));
    return next;
  });
}
