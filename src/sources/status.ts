import { findRepoRoot, LOCK_FILE } from '../io/repo.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { checkedOutCommit, fetchUrl, remoteCommit, rewrittenSince, SourceGitError } from './git.js';
import { policySources, readLock } from './lock-file.js';
import { checkoutDir, lockMatches } from './model.js';

export type SourceState = 'current' | 'behind' | 'rewritten' | 'missing' | 'unlocked' | 'unreachable' | 'not-in-policy';

export interface SourceStatus {
  name: string;
  state: SourceState;
  /** The commit the lock names. */
  locked: string | null;
  /** The commit checked out in .lessons/sources/<name>. */
  checkout: string | null;
  /** The commit the ref names on the remote now. */
  remote: string | null;
  message: string;
}

export interface StatusResult {
  sources: SourceStatus[];
}

/**
 * `lessons sources status`'s exit code: 1 when a source is behind, rewritten, missing or mismatched with
 * the lock (a finding, even when another remote could not be asked), else 2 when a remote could
 * not be reached (the status is unknown), else 0: every source is current.
 */
export function statusExitCode(result: StatusResult): 0 | 1 | 2 {
  if (result.sources.some((source) => source.state !== 'current' && source.state !== 'unreachable')) return 1;
  return result.sources.some((source) => source.state === 'unreachable') ? 2 : 0;
}

/**
 * What is behind, missing or unlocked: the lock against the policy, the checkout against the
 * lock, and the remote's ref against the lock (asked with `git ls-remote`). A ref that moved is
 * fetched into the checkout's objects (never checked out, never locked) to tell a ref that moved
 * on from one rewritten under the lock, as `sources update` would.
 */
export async function sourcesStatus(options: { cwd: string }): Promise<StatusResult> {
  const root = findRepoRoot(options.cwd);
  const sources = policySources(loadPolicy(root));
  const lock = readLock(root);
  const statuses: SourceStatus[] = [];
  for (const source of sources) {
    const entry = lock.find((candidate) => candidate.name === source.name);
    const locked = entry && lockMatches(entry, source) ? entry.commit : null;
    const checkout = checkedOutCommit(checkoutDir(root, source.name)) ?? null;
    let remote: string | null = null;
    let unreachable: string | undefined;
    try {
      remote = await remoteCommit(root, fetchUrl(root, source.url), source.ref);
    } catch (error) {
      if (!(error instanceof SourceGitError)) throw error;
      unreachable = error.message;
    }
    const status = (state: SourceState, message: string): SourceStatus => ({ name: source.name, state, locked, checkout, remote, message });
    if (locked === null) {
      statuses.push(status('unlocked', entry ? `the policy changed its url, ref or path since it was locked: run \`lessons sources update\`` : `not in ${LOCK_FILE}: run \`lessons sources update\``));
    } else if (checkout !== locked) {
      statuses.push(status('missing', checkout === null ? 'not fetched: run `lessons sources update --locked`' : `the checkout is at ${checkout.slice(0, 12)}, not the locked commit: run \`lessons sources update --locked\``));
    } else if (unreachable !== undefined) {
      statuses.push(status('unreachable', `cannot reach ${source.url}: ${unreachable}`));
    } else if (remote !== locked) {
      const rewritten = await rewrittenSince(checkoutDir(root, source.name), source.ref, locked, remote!);
      statuses.push(
        rewritten === true
          ? status('rewritten', `\`${source.ref}\` was rewritten: it is at ${remote!.slice(0, 12)}, and the locked commit ${locked.slice(0, 12)} is not in its history any more: run \`lessons sources update\` and review the source's changes`)
          : status('behind', `\`${source.ref}\` is at ${remote!.slice(0, 12)}, the lock at ${locked.slice(0, 12)}: run \`lessons sources update\` to take it`),
      );
    } else {
      statuses.push(status('current', `at ${locked.slice(0, 12)}, as locked`));
    }
  }
  for (const entry of lock) {
    if (sources.some((source) => source.name === entry.name)) continue;
    statuses.push({ name: entry.name, state: 'not-in-policy', locked: entry.commit, checkout: null, remote: null, message: `in ${LOCK_FILE} but not in the policy: run \`lessons sources update\` to drop it` });
  }
  return { sources: statuses };
}
