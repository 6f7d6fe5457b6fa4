import { LessonsError } from '../errors.js';
import { defaultBranch, mergeBase, resolveCommit, upstreamOf, type GitRepo } from '../io/git/repo.js';
import { pullRequestEvent } from '../io/github-event.js';
import type { StageProfile } from './stages.js';

/** The commits a push or a pull request brings: reachable from `head`, not from `base`. */
export interface Range {
  /** undefined: everything reachable from head (nothing to compare against). */
  base?: string;
  head: string;
  /** How the base was chosen, for the report (`origin/main`, `upstream origin/topic`, `--base`). */
  baseFrom: string;
}

export interface RangeOptions {
  profile: StageProfile;
  base?: string | undefined;
  head?: string | undefined;
  env: Record<string, string | undefined>;
}

function missingHistory(repo: GitRepo, what: string, fetch: string): LessonsError {
  if (repo.shallow) {
    return new LessonsError(
      'GIT',
      `this is a shallow clone and ${what} is not in it: fetch the history with \`git fetch --unshallow\` ` +
        '(or `git fetch --deepen=<n>` until the base is in); in GitHub Actions set `fetch-depth: 0` on actions/checkout',
    );
  }
  return new LessonsError('GIT', `${what} is not in this repository: ${fetch}, or pass --base <ref>`);
}

async function baseFrom(repo: GitRepo, ref: string, head: string, label: string): Promise<Range> {
  const commit = await resolveCommit(repo, ref);
  if (!commit) throw missingHistory(repo, `the base ${ref}`, `run \`git fetch origin\``);
  const base = await mergeBase(repo, commit, head);
  if (!base) throw missingHistory(repo, `the common ancestor of ${ref} and ${head.slice(0, 12)}`, `check that ${ref} and HEAD share history`);
  return { base, head, baseFrom: label };
}

/**
 * Chooses the range: `--base` (or pre-commit's PRE_COMMIT_FROM_REF), then in CI the pull
 * request's base commit from the event payload (GITHUB_EVENT_PATH) or else GITHUB_BASE_REF, then the branch's upstream, then the default branch; with none, all of history.
 * Returns undefined before the first commit.
 */
export async function resolveRange(repo: GitRepo, options: RangeOptions): Promise<Range | undefined> {
  const { profile, env } = options;
  const headRef = options.head ?? (profile.refsFromEnv ? env[profile.refsFromEnv.head] : undefined) ?? 'HEAD';
  const head = await resolveCommit(repo, headRef);
  if (!head) {
    if (headRef === 'HEAD') return undefined;
    throw missingHistory(repo, `the head ${headRef}`, 'run `git fetch`');
  }
  const explicit = options.base ?? (profile.refsFromEnv ? env[profile.refsFromEnv.base] : undefined);
  if (explicit) return baseFrom(repo, explicit, head, explicit);
  const pullRequest = profile.pullRequestBase ? pullRequestEvent(env) : undefined;
  if (pullRequest) return baseFrom(repo, pullRequest.base.sha, head, `pull request #${pullRequest.number}'s base ${pullRequest.base.ref}`);
  const pullBase = env.GITHUB_BASE_REF;
  if (profile.pullRequestBase && pullBase) return baseFrom(repo, `origin/${pullBase}`, head, `origin/${pullBase}`);
  const upstream = headRef === 'HEAD' ? await upstreamOf(repo) : undefined;
  if (upstream) return baseFrom(repo, upstream, head, `upstream ${upstream}`);
  const fallback = await defaultBranch(repo, profile.localDefaultBranch);
  if (fallback) {
    const base = await mergeBase(repo, fallback, head);
    if (base) return { base, head, baseFrom: fallback };
    if (repo.shallow) throw missingHistory(repo, `the common ancestor of ${fallback} and HEAD`, '');
  }
  return { head, baseFrom: 'the first commit' };
}
