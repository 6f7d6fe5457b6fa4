/**
 * Which policy a guard stage may trust. Locally (pre-commit, final) the policy on disk is the
 * user's own. A push and a pull request are judged by the policy of the revision they build on:
 * otherwise one commit could set `gates.secrets.ci` to `off` or add a `quality.commands` entry
 * that runs its own code in CI. A change to the policy is itself a finding (the `policy` gate,
 * block by default in ci), until a maintainer accepts that exact file (LESSONS_ACCEPT_POLICY).
 */
import { LessonsError } from '../errors.js';
import type { GitRepo } from '../io/git/repo.js';
import { readBlobs, treeFiles } from '../io/git/tree.js';
import { POLICY_FILE } from '../io/repo.js';
import { resolvePolicy, type Policy } from '../policy/policy.js';
import { sha256 } from '../util/digest.js';
import type { Issue } from './finding.js';
import { resolveRange, type RangeOptions } from './range.js';
import { gitPrefix } from './snapshot.js';

/** The environment variable a maintainer sets (outside the change) to the digest of a reviewed policy. */
export const ACCEPT_POLICY_ENV = 'LESSONS_ACCEPT_POLICY';

export interface PolicyChange {
  /** `sha256:` of the changed policy file's bytes at the head, or `deleted`. */
  digest: string;
  accepted: boolean;
  /** The base has no policy file: the change adds the first one, which is accepted (policyChangeIssues). */
  first?: boolean;
}

export interface StagePolicy {
  policy: Policy;
  /** Set when the head's policy file differs from the trusted one (ci and pre-push only). */
  change?: PolicyChange;
}

/** The policy file's bytes at `commit`, undefined when it has none. */
async function policyAt(repo: GitRepo, prefix: string, commit: string): Promise<Buffer | undefined> {
  const [file] = await treeFiles(repo, commit, [`${prefix}${POLICY_FILE}`]);
  if (!file) return undefined;
  return (await readBlobs(repo, [file.blob])).get(file.blob);
}

/** The policy a file's bytes stand for, validated like the one on disk; undefined bytes give the defaults. */
async function policyOf(bytes: Buffer | undefined, where: string): Promise<Policy> {
  if (bytes === undefined) return resolvePolicy({});
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new LessonsError('INVALID_POLICY', `${POLICY_FILE} at ${where} is not valid JSON (${(error as Error).message}): the guard takes this stage's policy from there; fix it on that branch`);
  }
  const [{ validateAgainst }, { policyPatternErrors }] = await Promise.all([import('../schema/validate.js'), import('../policy/patterns.js')]);
  const schemaErrors = validateAgainst('policy', data);
  const errors = schemaErrors.length > 0 ? schemaErrors : policyPatternErrors(data);
  if (errors.length > 0) {
    const lines = errors.map((error) => `  ${error.field}: ${error.message}`).join('\n');
    throw new LessonsError('INVALID_POLICY', `${POLICY_FILE} at ${where} is invalid:\n${lines}\nthe guard takes this stage's policy from there; fix it on that branch`);
  }
  return resolvePolicy(data);
}

const normalised = (bytes: Buffer | undefined): string | undefined => {
  if (bytes === undefined) return undefined;
  try {
    return JSON.stringify(JSON.parse(bytes.toString('utf8')));
  } catch {
    return bytes.toString('utf8');
  }
};

/**
 * The policy for a pushed or proposed range: the base revision's (the defaults before the first
 * commit), and whether the head changes it. `prefix` places the lessons root in the git tree.
 */
export async function basePolicy(repo: GitRepo, prefix: string, base: string | undefined, head: string, env: Record<string, string | undefined>): Promise<StagePolicy> {
  const [before, after] = await Promise.all([base ? policyAt(repo, prefix, base) : undefined, policyAt(repo, prefix, head)]);
  const policy = await policyOf(before, base ? `the base ${base.slice(0, 12)}` : 'the defaults');
  if (normalised(before) === normalised(after)) return { policy };
  const digest = after === undefined ? 'deleted' : `sha256:${sha256(after)}`;
  // Adopting lessons adds the policy: with nothing to relax, the run keeps the defaults and the
  // pull request that adopts it passes its own checks. Every later change needs acceptance.
  if (before === undefined) return { policy, change: { digest, accepted: true, first: true } };
  return { policy, change: { digest, accepted: (env[ACCEPT_POLICY_ENV] ?? '').trim() === digest } };
}

/** The `policy` gate's issue for a change, if any. */
export function policyChangeIssues(change: PolicyChange | undefined): Issue[] {
  if (!change) return [];
  const what = change.digest === 'deleted' ? 'deletes' : 'changes';
  if (change.first) {
    return [
      {
        rule: 'policy-first',
        severity: 'warning',
        file: POLICY_FILE,
        message: `the change adds ${POLICY_FILE} and the base has none: the first policy is accepted (this run used the defaults); a later change to it needs a maintainer to accept it (${ACCEPT_POLICY_ENV})`,
      },
    ];
  }
  if (change.accepted) {
    return [{ rule: 'policy-accepted', severity: 'warning', file: POLICY_FILE, message: `the change ${what} ${POLICY_FILE}; a maintainer accepted it (${ACCEPT_POLICY_ENV}=${change.digest})` }];
  }
  return [
    {
      rule: 'policy-changed',
      severity: 'error',
      file: POLICY_FILE,
      message:
        `the change ${what} ${POLICY_FILE}, which sets the gates and the commands CI runs; this run used the base revision's policy. ` +
        `A maintainer reviews the policy change and accepts it by setting ${ACCEPT_POLICY_ENV}=${change.digest} outside the change (a protected CI variable), or lands it on its own first`,
    },
  ];
}

/**
 * The policy of a pre-push or ci run: the base revision's, with the head's change to it;
 * undefined before the first commit (the stage then fails on its own, with its own message).
 */
export async function rangePolicy(repo: GitRepo, root: string, options: RangeOptions): Promise<StagePolicy | undefined> {
  const range = await resolveRange(repo, options);
  if (!range) return undefined;
  return basePolicy(repo, gitPrefix(repo, root), range.base, range.head, options.env);
}
