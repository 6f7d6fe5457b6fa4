import { createHash } from 'node:crypto';
import path from 'node:path';
import { readText, writeInRepo } from '../io/fs.js';
import { removeIfExists } from '../io/paths.js';
import { silentProgress, type Progress } from '../io/progress.js';
import { ensureStateDir } from '../io/state.js';
import { packageVersion } from '../io/package-root.js';
import type { Policy } from '../policy/policy.js';
import { buildSegment, lockBytes, narrative, openSources, readThesaurus, SEARCH_FORMAT_VERSION, SOURCES_CACHE_FILE, sourcesKey } from '../search/engine.js';
import type { Finding } from '../lesson/finding.js';
import { sourceIndexEntries } from './entries.js';

/**
 * The search segment of every fetched source's lessons, `.lessons/cache/sources.bin`: built by
 * `lessons sources update`, never on the hot path, and read by preflight and the hooks beside
 * the local cache (one ranking over both, statistics over both). Its lessons carry their
 * provenance in their ids (`<source>:<id>`) and paths (the checkout's); retired ones are left
 * out. It names the lock file it was built for: after the lock changes it is not read until
 * the next update.
 */

export { SOURCES_CACHE_FILE };

export interface SourcesSearch {
  /** Lessons in the segment (retired ones are not). */
  lessons: number;
  /** Sources whose lessons it holds. */
  sources: string[];
  /** What was left out, by source and file. */
  problems: Finding[];
}

/** Beside the segment: what it was built from (lock, the policy's sources, version), so an update that changed nothing keeps it. */
const SOURCES_BUILT_FILE = '.lessons/cache/sources-built.txt';

/** What the sources segment is a function of: the lock as written, the policy's sources (levels, paths), this version of lessons and of the segment format. */
function buildKey(root: string, policy: Policy): string {
  return createHash('sha256').update(JSON.stringify([sourcesKey(root), policy.sources, packageVersion(), SEARCH_FORMAT_VERSION])).digest('hex');
}

/**
 * Whether the sources segment on disk was built from exactly what an update would build it
 * from now, and preflight can read it: then the checkouts hold the same commits and it is kept
 * as it is.
 */
export function sourcesSearchIsCurrent(root: string, policy: Policy): boolean {
  try {
    if (readText(path.join(root, SOURCES_BUILT_FILE)) !== buildKey(root, policy)) return false;
    const { segment, close } = openSources(root);
    close();
    return segment !== undefined;
  } catch {
    return false;
  }
}

/** Builds (or, without sources, removes) the sources segment of the repository at `root`. */
export async function buildSourcesSearch(root: string, policy: Policy, progress: Progress = silentProgress): Promise<SourcesSearch> {
  const file = path.join(root, SOURCES_CACHE_FILE);
  removeIfExists(path.join(root, SOURCES_BUILT_FILE));
  const { entries, loaded } = sourceIndexEntries(root, policy, progress);
  const { fetched, problems } = loaded;
  if (fetched.length === 0) {
    removeIfExists(file);
    return { lessons: 0, sources: [], problems };
  }
  const bodies = new Map<string, string>();
  // Two files of one id: the first one's text, as its index entry is the first one's.
  for (const item of loaded.lessons) if (!bodies.has(item.qualifiedId)) bodies.set(item.qualifiedId, narrative(item.lesson.body));
  progress.say(`building the search cache of ${entries.length} source lessons`);
  const bytes = buildSegment({
    kind: 'sources',
    entries,
    source: { digest: sourcesKey(root), stat: null, verifiedMtimeMs: 0 },
    lock: lockBytes(root),
    extras: { bodies, thesaurus: await readThesaurus() },
    tool: packageVersion(),
  });
  ensureStateDir(root);
  writeInRepo(root, SOURCES_CACHE_FILE, bytes, { durable: false });
  writeInRepo(root, SOURCES_BUILT_FILE, buildKey(root, policy), { durable: false });
  return { lessons: entries.filter((entry) => entry.status !== 'retired').length, sources: fetched, problems };
}
