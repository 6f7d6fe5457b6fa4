import { findRepoRoot, LOCK_FILE } from '../io/repo.js';
import { pathInside } from '../io/inside.js';
import { withLock } from '../io/lock.js';
import { silentProgress, type Progress } from '../io/progress.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { checkoutCommit, fetchCommit, fetchRef, fetchUrl, followsFrom, prepareCheckout, SourceGitError } from './git.js';
import { policySources, readLock, writeLock } from './lock-file.js';
import { SOURCES_DIR, SOURCES_LOCK, checkoutDir, lockMatches, sparseFolders, type LockEntry, type Source } from './model.js';

export interface UpdateOptions {
  cwd: string;
  /** Check out exactly the locked commits; never write the lock. */
  locked: boolean;
  progress?: Progress;
}

export interface SourceUpdate {
  name: string;
  /** `updated`: the lock moved; `unchanged`: the same commit; `checked-out`: the locked commit (--locked); `failed`: see message. */
  status: 'updated' | 'unchanged' | 'checked-out' | 'failed';
  commit: string | null;
  previous: string | null;
  /** The ref was rewritten: the locked commit is not an ancestor of the new one. */
  rewritten: boolean;
  message: string | null;
}

export interface UpdateResult {
  locked: boolean;
  sources: SourceUpdate[];
  /** Whether lessons/sources.lock.json was written. */
  lock_written: boolean;
  failed: number;
}

/**
 * Fetches every source of the policy into .lessons/sources/<name> (shallow, sparse to its
 * lessons tree) and records the commits in lessons/sources.lock.json; with `locked`, checks
 * out exactly the locked commits instead. A source that fails is reported by name and the
 * others go on; its lock entry stays as it was.
 */
export async function updateSources(options: UpdateOptions): Promise<UpdateResult> {
  const root = findRepoRoot(options.cwd);
  const policy = loadPolicy(root);
  const sources = policySources(policy);
  const progress = options.progress ?? silentProgress;
  // Before the first write: git writes the checkouts itself, past the checks of io/.
  pathInside(root, SOURCES_DIR, 'the sources folder');
  return withLock(root, SOURCES_LOCK, async () => {
    const lock = readLock(root);
    const updates: SourceUpdate[] = [];
    try {
      for (const [i, source] of sources.entries()) {
        progress.step(i + 1, sources.length, `${options.locked ? 'checking out' : 'fetching'} ${source.name}`);
        const entry = lock.find((candidate) => candidate.name === source.name);
        pathInside(root, checkoutDir(root, source.name), 'a source checkout');
        updates.push(options.locked ? await checkOutLocked(root, source, entry) : await fetchLatest(root, source, entry));
      }
    } finally {
      progress.end();
    }
    if (options.locked) {
      for (const entry of lock) {
        if (sources.some((source) => source.name === entry.name)) continue;
        updates.push(failed(entry.name, entry.commit, `is in ${LOCK_FILE} but not in the policy: run \`lessons sources update\` and commit the lock file`));
      }
    }
    // No sources: nothing to lock, and no lock file to commit.
    const lockWritten = options.locked || sources.length === 0 ? false : writeLock(root, nextLock(sources, lock, updates));
    // Preflight and the hooks search the fetched lessons through a segment built here, never on
    // their hot path; when every source is at the commit the segment was built from, it stays.
    const search = await import('./search.js');
    const moved = updates.some((update) => update.status === 'updated' || update.status === 'failed');
    if (moved || !search.sourcesSearchIsCurrent(root, policy)) {
      try {
        await search.buildSourcesSearch(root, policy, progress);
      } finally {
        progress.end();
      }
    }
    return { locked: options.locked, sources: updates, lock_written: lockWritten, failed: updates.filter((update) => update.status === 'failed').length };
  });
}

function failed(name: string, previous: string | null, message: string): SourceUpdate {
  return { name, status: 'failed', commit: null, previous, rewritten: false, message };
}

async function checkOutLocked(root: string, source: Source, entry: LockEntry | undefined): Promise<SourceUpdate> {
  if (entry === undefined) return failed(source.name, null, `is not in ${LOCK_FILE}: run \`lessons sources update\` and commit the lock file`);
  if (!lockMatches(entry, source)) {
    return failed(
      source.name,
      entry.commit,
      `the lock was made for ${entry.url} ${entry.ref} (path ${entry.path}), the policy asks for ${source.url} ${source.ref} (path ${source.path}): run \`lessons sources update\` and commit the lock file`,
    );
  }
  const dir = checkoutDir(root, source.name);
  try {
    await prepareCheckout(dir, fetchUrl(root, source.url), sparseFolders(source));
    await fetchCommit(dir, entry.commit);
    await checkoutCommit(dir, entry.commit);
  } catch (error) {
    if (!(error instanceof SourceGitError)) throw error;
    return failed(source.name, entry.commit, `cannot check out the locked commit ${entry.commit}: ${error.message} (was the ref rewritten? run \`lessons sources update\` to lock a commit the remote has)`);
  }
  return { name: source.name, status: 'checked-out', commit: entry.commit, previous: entry.commit, rewritten: false, message: null };
}

async function fetchLatest(root: string, source: Source, entry: LockEntry | undefined): Promise<SourceUpdate> {
  const dir = checkoutDir(root, source.name);
  const previous = entry !== undefined && lockMatches(entry, source) ? entry.commit : null;
  try {
    await prepareCheckout(dir, fetchUrl(root, source.url), sparseFolders(source));
    const commit = await fetchRef(dir, source.ref);
    const rewritten = previous !== null && previous !== commit && !(await followsFrom(dir, source.ref, previous, commit));
    await checkoutCommit(dir, commit);
    return {
      name: source.name,
      status: commit === previous ? 'unchanged' : 'updated',
      commit,
      previous,
      rewritten,
      message: rewritten ? `\`${source.ref}\` was rewritten: the locked commit ${previous!.slice(0, 12)} is not in its history any more; review the source's changes before committing the lock file` : null,
    };
  } catch (error) {
    if (!(error instanceof SourceGitError)) throw error;
    return failed(source.name, previous, `cannot fetch ${source.url} ${source.ref}: ${error.message}`);
  }
}

/** The lock after an update: new commits for the sources that were fetched, the old entry for those that failed. */
function nextLock(sources: readonly Source[], lock: readonly LockEntry[], updates: readonly SourceUpdate[]): LockEntry[] {
  const entries: LockEntry[] = [];
  for (const source of sources) {
    const update = updates.find((candidate) => candidate.name === source.name);
    if (update?.commit) entries.push({ name: source.name, url: source.url, ref: source.ref, path: source.path, commit: update.commit });
    else {
      const old = lock.find((entry) => entry.name === source.name);
      if (old) entries.push(old);
    }
  }
  return entries;
}
