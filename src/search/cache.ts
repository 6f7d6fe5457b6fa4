import fs from 'node:fs';
import path from 'node:path';
import { INDEX_FILE } from '../io/repo.js';
import { memorySource, SearchIndex } from './search-index.js';
import { CACHE_FILE, isFresh, openCached, opened, SEARCH_LOCK, statIndex, type Cached, type OpenedSearch } from './open.js';
import { markUnusualRun } from '../io/run-state.js';
import { fallback, updateSearch } from './update.js';

export { CACHE_FILE, DELTA_FILE, SEARCH_LOCK, type OpenedSearch } from './open.js';
export { searchFromLessons, THESAURUS_FILES, updateSearch } from './update.js';

/**
 * Where preflight's search index comes from. The fast path opens the cache files under
 * .lessons/cache/ (a base segment and, when lessons changed since it was built, a delta
 * segment) when the stat of lessons/index.json (size, mtime, inode) is the one they describe,
 * and reads them piece by piece; it never parses index.json. Otherwise the cache is brought
 * up to date under a lock: the lessons whose index line or file changed go into a new delta
 * (search-delta.ts), or, past a share of the corpus, everything is rebuilt from index.json,
 * together with the lessons' full text (read from the files then, so queries never read them)
 * and the thesaurus. When index.json is missing, unreadable or older than the lesson folders,
 * the lessons are scanned instead, with a warning.
 *
 * A caller that must not wait (an agent hook) asks for `update: 'background'`: a stale cache
 * answers as it is and a detached process brings it up to date.
 */

/** An index this small is brought up to date inline even for a hook: it takes a few milliseconds. */
export const INLINE_UPDATE_BYTES = 2 * 1024 * 1024;

export interface SearchOptions {
  /**
   * How a stale cache is brought up to date: before answering (the default), or, for a caller
   * that must answer within its time limit, in a detached process while the answer comes from
   * the cache as it was (or from no lessons at all when there is none yet).
   */
  update?: 'inline' | 'background';
  /** The background updater's command (tests); `node <package>/dist/cli/fast/search-refresh.js <root>` by default. */
  refreshCommand?: readonly string[];
}

/** The search index of the repository at `root`, brought up to date as `options.update` says. */
export async function openSearch(root: string, options: SearchOptions = {}): Promise<OpenedSearch> {
  const stat = statIndex(root);
  const cached = stat ? openCached(root) : undefined;
  if (stat && cached && isFresh(cached.index, stat, root)) return opened(cached as Cached & { index: SearchIndex });
  // Rebuilding the cache, or scanning the lesson files, is not what this command usually runs.
  markUnusualRun();
  if (!stat || !cached) return fallback(root, `${INDEX_FILE} is missing`);
  if (options.update === 'background' && stat.size > INLINE_UPDATE_BYTES) {
    await startBackgroundUpdate(root, options.refreshCommand);
    // Answering from the cache as it was is the point; nothing to act on, so nothing to say.
    if (cached.index) return opened(cached as Cached & { index: SearchIndex });
    cached.close();
    const { buildSearchIndex } = await import('./build.js');
    const empty = SearchIndex.open(memorySource(buildSearchIndex([], { digest: '', stat: null, verifiedMtimeMs: 0 })))!;
    return { index: empty, digest: '', warning: 'the search cache is being built in the background: this answer has no lessons', close: () => undefined };
  }
  cached.close();
  return updateSearch(root);
}

/**
 * Brings an existing search cache up to date after git changed the working tree (the
 * post-merge, post-checkout and post-rewrite hooks): as an agent hook would, inline below
 * INLINE_UPDATE_BYTES of index, else in a detached process. A repository with no cache (no one
 * ran preflight there) gets none. Says whether there was a cache to look at.
 */
export async function refreshSearch(root: string): Promise<boolean> {
  if (!fs.existsSync(path.join(root, CACHE_FILE))) return false;
  (await openSearch(root, { update: 'background' })).close();
  return true;
}

/**
 * Starts `lessons`' cache updater detached from this process (it takes the search-cache lock,
 * so at most one runs); false when one is running already.
 */
async function startBackgroundUpdate(root: string, command?: readonly string[]): Promise<boolean> {
  const { LOCKS_DIR } = await import('../io/lock.js');
  if (fs.existsSync(path.join(root, LOCKS_DIR, `${SEARCH_LOCK}.lock`))) return false;
  const [{ spawn }, { packageFile }] = await Promise.all([import('node:child_process'), import('../io/package-root.js')]);
  const [program, ...args] = command ?? [process.execPath, packageFile('dist/cli/fast/search-refresh.js')];
  try {
    const child = spawn(program!, [...args, root], { detached: true, stdio: 'ignore', cwd: root });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
