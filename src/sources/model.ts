import path from 'node:path';
import { LESSONS_DIR, STATE_DIR } from '../io/repo.js';
import { LEVELS, LEVEL_FOLDERS, type Level } from '../lesson/model.js';
import type { SourcePolicy } from '../policy/policy.js';
import { byKey } from '../util/compare.js';
import { formatJson } from '../util/json.js';

/** The committed lock file: the commit of every source, like a package lock. */
/** Where each source is checked out: git-ignored local state, one folder per source name. */
export const SOURCES_DIR = `${STATE_DIR}/sources`;
/** The lock every command that writes the lock file or a checkout holds. */
export const SOURCES_LOCK = 'sources';
export const DEFAULT_SOURCE_PATH = LESSONS_DIR;

/** One source as the lock file records it: what was asked for and the commit it resolved to. */
export interface LockEntry {
  name: string;
  url: string;
  ref: string;
  path: string;
  commit: string;
}

export interface SourcesLock {
  version: 1;
  sources: LockEntry[];
}

/** A source of the policy with its defaults applied. */
export interface Source {
  name: string;
  url: string;
  ref: string;
  path: string;
  levels: Level[];
}

export function resolveSource(spec: SourcePolicy): Source {
  return {
    name: spec.name,
    url: spec.url,
    ref: spec.ref,
    path: path.posix.normalize(spec.path ?? DEFAULT_SOURCE_PATH).replace(/\/+$/, ''),
    levels: LEVELS.filter((level) => spec.levels === undefined || spec.levels.includes(level)),
  };
}

/** `<source>:<id>`: how a source's lesson is named outside its own repository. */
export function qualifiedId(source: string, id: string): string {
  return `${source}:${id}`;
}

/** The source name and id of `<source>:<id>`, or undefined for a local id. */
export function splitQualifiedId(id: string): { source: string; id: string } | undefined {
  const colon = id.indexOf(':');
  return colon === -1 ? undefined : { source: id.slice(0, colon), id: id.slice(colon + 1) };
}

/** The folders of the source repository a checkout holds: one per level taken, nothing else. */
export function sparseFolders(source: Source): string[] {
  return source.levels.map((level) => `${source.path}/${LEVEL_FOLDERS[level]}`);
}

export function checkoutDir(root: string, name: string): string {
  return path.join(root, SOURCES_DIR, name);
}

/** The same source, asked for the same way: a lock entry still stands for the policy's source. */
export function lockMatches(entry: LockEntry, source: Source): boolean {
  return entry.url === source.url && entry.ref === source.ref && entry.path === source.path;
}

/** The lock file's text: entries sorted by name, fixed key order, no timestamps. */
export function formatLock(entries: readonly LockEntry[]): string {
  const sources = [...entries].sort(byKey((entry) => entry.name)).map(({ name, url, ref, path: tree, commit }) => ({ name, url, ref, path: tree, commit }));
  return formatJson({ version: 1, sources } satisfies SourcesLock);
}
