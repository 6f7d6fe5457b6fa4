import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openRegularFile, readRegularFile } from '../io/fs.js';
import { INDEX_FILE, LOCK_FILE } from '../io/repo.js';
import { packageVersion } from '../io/package-root.js';
import { memorySource, SearchIndex, type ByteSource } from './search-index.js';
import { CACHE_FILE, DELTA_FILE, lessonFoldersMtime } from './files.js';
import { Segment } from './segment.js';

/** The search cache's files, and whether they still describe lessons/index.json (search-cache.ts). */

export { CACHE_FILE, DELTA_FILE, lessonFoldersMtime };
export const SEARCH_LOCK = 'search-cache';
/** Other repositories' lessons, built by `lessons sources update` (src/sources/search.ts). */
export const SOURCES_CACHE_FILE = '.lessons/cache/sources.bin';

export interface OpenedSearch {
  index: SearchIndex;
  /** sha256 of lessons/index.json, or of the scanned tree's serialized index. */
  digest: string;
  /** One line for stderr when the index was missing or stale. */
  warning: string | undefined;
  /** Releases the cache files; the index must not be read after. */
  close: () => void;
}

export interface IndexStat {
  size: number;
  mtimeMs: number;
  ino: number;
}

export function statIndex(root: string): IndexStat | undefined {
  try {
    const stat = fs.statSync(path.join(root, INDEX_FILE));
    return { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
  } catch {
    return undefined;
  }
}

function fileSource(file: string): { source: ByteSource; close: () => void } | undefined {
  let fd: number;
  try {
    fd = openRegularFile(file);
  } catch {
    return undefined;
  }
  const source: ByteSource = {
    size: fs.fstatSync(fd).size,
    read: (offset, length, into) => {
      const bytes = into ? into.subarray(0, length) : new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const n = fs.readSync(fd, bytes, done, length - done, offset + done);
        if (n === 0) break;
        done += n;
      }
      return done === length ? bytes : bytes.subarray(0, done);
    },
  };
  return { source, close: () => fs.closeSync(fd) };
}

export interface Cached {
  index: SearchIndex | undefined;
  close: () => void;
  /** Why the sources' lessons are not searched, when there is a sources segment that cannot be used. */
  warning?: string | undefined;
}

/** lessons/sources.lock.json's bytes (none when there is no lock file): what a sources segment is built for. */
export function lockBytes(root: string): Buffer {
  try {
    return readRegularFile(path.join(root, LOCK_FILE), 'sources lock');
  } catch {
    return Buffer.alloc(0); // no lock file: no locked sources
  }
}

/** What a sources segment is keyed by: a digest of lessons/sources.lock.json's bytes. */
export function sourcesKey(root: string): string {
  return createHash('sha256').update(lockBytes(root)).digest('hex');
}

/**
 * The sources segment (src/sources/search.ts), when there is one of this version built for the
 * lock file as it is; otherwise a warning naming it, and the local lessons alone are searched.
 */
export function openSources(root: string): { segment?: Segment; close: () => void; warning?: string } {
  const file = fileSource(path.join(root, SOURCES_CACHE_FILE));
  if (!file) return { close: () => undefined };
  const segment = Segment.open(file.source, packageVersion());
  const why = !segment || segment.header.kind !== 'sources' ? 'cannot be read' : !lockBytes(root).equals(segment.section('lock')) ? `was built for another ${LOCK_FILE}` : undefined;
  if (why === undefined) return { segment: segment!, close: file.close };
  file.close();
  return { close: () => undefined, warning: `the sources' search cache ${SOURCES_CACHE_FILE} ${why}: searched the local lessons only (run \`lessons sources update\`)` };
}

/**
 * The cache files as they are (or the base and delta given, just built); an index only when the
 * base is a search index of this version. The sources segment comes along when it can be used.
 */
export function openCached(root: string, built: { base?: Uint8Array; delta?: Uint8Array } = {}): Cached {
  const base = built.base ? { source: memorySource(built.base), close: () => undefined } : fileSource(path.join(root, CACHE_FILE));
  const deltaFile = built.delta || built.base ? undefined : fileSource(path.join(root, DELTA_FILE));
  const sources = openSources(root);
  const close = (): void => {
    base?.close();
    deltaFile?.close();
    sources.close();
  };
  if (!base) return { index: undefined, close, warning: sources.warning };
  const delta = built.delta ? memorySource(built.delta) : deltaFile?.source;
  return { index: SearchIndex.open(base.source, delta, packageVersion(), sources.segment), close, warning: sources.warning };
}

/** Whether the cache was built from lessons/index.json as it is now: the same size, mtime and inode. */
export function builtFrom(index: SearchIndex | undefined, stat: IndexStat): index is SearchIndex {
  const built = index?.source.stat;
  return !!index && !!built && built.size === stat.size && built.mtimeMs === stat.mtimeMs && built.ino === stat.ino;
}

export function isFresh(index: SearchIndex | undefined, stat: IndexStat, root: string): index is SearchIndex {
  return builtFrom(index, stat) && lessonFoldersMtime(root) <= Math.max(stat.mtimeMs, index.source.verifiedMtimeMs);
}

export function opened(cached: Cached & { index: SearchIndex }): OpenedSearch {
  return { index: cached.index, digest: cached.index.source.digest, warning: cached.warning, close: cached.close };
}

