import path from 'node:path';
import { LessonsError } from '../errors.js';
import { readTextIfExists, writeFileAtomic } from '../io/fs.js';
import type { Policy } from '../policy/policy.js';
import { readSourcesJson } from './json-file.js';
import { formatLock, resolveSource, type LockEntry, type Source } from './model.js';
import { LOCK_FILE } from '../io/repo.js';

/** The entries of lessons/sources.lock.json; none when the file does not exist. */
export function readLock(root: string): LockEntry[] {
  const data = readSourcesJson(root, LOCK_FILE, 'sources-lock', `restore it with \`git checkout ${LOCK_FILE}\`, or delete it and run \`lessons sources update\``);
  return data === undefined ? [] : (data as { sources: LockEntry[] }).sources;
}

/** Writes the lock file when its text changes; returns whether it did. A lock of no entries is never created: there is nothing to commit. */
export function writeLock(root: string, entries: readonly LockEntry[]): boolean {
  const file = path.join(root, LOCK_FILE);
  const text = formatLock(entries);
  const before = readTextIfExists(file);
  if (before === text || (before === undefined && entries.length === 0)) return false;
  writeFileAtomic(file, text);
  return true;
}

/** The policy's sources with defaults applied; two sources of one name are a configuration error. */
export function policySources(policy: Policy): Source[] {
  const sources = policy.sources.map(resolveSource);
  const seen = new Set<string>();
  for (const source of sources) {
    if (seen.has(source.name)) throw new LessonsError('INVALID_POLICY', `two sources in the policy are named \`${source.name}\`: give each source its own name`);
    seen.add(source.name);
  }
  return sources;
}
