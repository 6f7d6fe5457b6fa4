/**
 * Per-session state of the agent hooks, in .lessons/sessions/<session id>.json: the lessons
 * shown so far; those shown for the task (by a prompt or a tool call) whose checklists the next
 * Stop has yet to check against the final answer; digests of the blocks already captured
 * (so a block is captured once however often Stop fires); the problems already reported (so a
 * broken index or policy is said once); and the critical lessons whose first matching tool call
 * was already stopped (so the retry goes through); the related entries already listed (so a
 * tool call lists each once); and the red -> green state of its shell commands (red-green.ts).
 * Writes are atomic and serialised by a lock file, so two hooks firing at once lose nothing.
 */
import path from 'node:path';
import { readRegularFile, writeInRepo } from '../io/fs.js';
import { listDir, modifiedTimeMs } from '../io/paths.js';
import { withLock } from '../io/lock.js';
import { STATE_DIR } from '../io/repo.js';
import { formatJson } from '../util/json.js';
import { compareStrings, uniqueSorted } from '../util/compare.js';
import { EMPTY_RED_GREEN, readRedGreen, type RedGreenState } from './red-green.js';

export interface SessionState {
  session_id: string;
  shown: string[];
  pending: string[];
  captured: string[];
  notified: string[];
  gated: string[];
  /** Related entries listed to the agent (one-line titles, not `shown`: their text was not). */
  listed: string[];
  redgreen: RedGreenState;
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
  const empty: SessionState = { session_id: sessionId, shown: [], pending: [], captured: [], notified: [], gated: [], listed: [], redgreen: EMPTY_RED_GREEN };
  let data: Partial<Record<keyof SessionState, unknown>>;
  try {
    data = JSON.parse(readRegularFile(sessionFile(root, sessionId)).toString('utf8')) as typeof data;
  } catch {
    return empty;
  }
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  return {
    session_id: sessionId,
    shown: strings(data.shown),
    pending: strings(data.pending),
    captured: strings(data.captured),
    notified: strings(data.notified),
    gated: strings(data.gated),
    listed: strings(data.listed),
    redgreen: readRedGreen(data.redgreen),
  };
}

/** A hook waits this long for another hook of the same session, then gives up (it never blocks). */
const LOCK_WAIT_MS = 200;
/** A session lock this old belongs to a hook that was killed at its time limit. */
const LOCK_STALE_MS = 5000;

export interface SessionUpdate {
  shown?: readonly string[];
  /** Shown for the task: the next Stop checks their checklists. */
  pending?: readonly string[];
  /** Checked by a Stop: no longer pending. */
  settled?: readonly string[];
  captured?: readonly string[];
  notified?: readonly string[];
  gated?: readonly string[];
  listed?: readonly string[];
  /** A step of the red -> green state, applied under the lock to what is on disk. */
  redgreen?: (state: RedGreenState) => RedGreenState;
}

/** Applies an update to a session's state under its lock; returns the new state. */
export async function updateSession(root: string, sessionId: string, update: SessionUpdate): Promise<SessionState> {
  const file = sessionFile(root, sessionId);
  const lockName = `session-${path.basename(file, '.json')}`;
  return withLock(root, lockName, () => {
    const state = readSession(root, sessionId);
    const settled = new Set(update.settled ?? []);
    const next: SessionState = {
      session_id: sessionId,
      shown: uniqueSorted([...state.shown, ...(update.shown ?? []), ...(update.pending ?? [])]),
      pending: uniqueSorted([...state.pending, ...(update.pending ?? [])]).filter((id) => !settled.has(id)),
      captured: uniqueSorted([...state.captured, ...(update.captured ?? [])]),
      notified: uniqueSorted([...state.notified, ...(update.notified ?? [])]),
      gated: uniqueSorted([...state.gated, ...(update.gated ?? [])]),
      listed: uniqueSorted([...state.listed, ...(update.listed ?? [])]),
      redgreen: update.redgreen ? update.redgreen(state.redgreen) : state.redgreen,
    };
    writeInRepo(root, file, formatJson(next), { durable: false });
    return next;
  }, { timeoutMs: LOCK_WAIT_MS, staleMs: LOCK_STALE_MS });
}

/** A session's record as the report reads it: the lessons it showed and when it was last written. */
export interface SessionRecord {
  shown: string[];
  /** The record file's modification time, milliseconds since the epoch. */
  time: number;
}

/** Every session record under .lessons/sessions/, in file-name order; unreadable ones are skipped. */
export function listSessions(root: string): SessionRecord[] {
  const dir = path.join(root, STATE_DIR, 'sessions');
  let names: string[];
  try {
    names = listDir(dir).filter((name) => name.endsWith('.json')).sort(compareStrings);
  } catch {
    return [];
  }
  const records: SessionRecord[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const data = JSON.parse(readRegularFile(file).toString('utf8')) as { shown?: unknown };
      const shown = Array.isArray(data.shown) ? data.shown.filter((id): id is string => typeof id === 'string') : [];
      records.push({ shown, time: modifiedTimeMs(file) });
    } catch {
      continue;
    }
  }
  return records;
}
