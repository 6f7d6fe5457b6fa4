import { writeInRepo } from '../io/fs.js';
import { openRepo, type GitRepo } from '../io/git/repo.js';
import { STATE_DIR, findRepoRoot } from '../io/repo.js';
import { ensureStateDir } from '../io/state.js';
import { readPolicyFile } from '../io/policy-file.js';
import { resolvePolicy, type Gate, type GateLevel, type Policy, type Stage } from '../policy/policy.js';
import { sha256 } from '../util/digest.js';
import type { ChangeLessons } from '../preflight/change.js';
import { formatJson } from '../util/json.js';
import { compileIncidentPatterns } from './commits.js';
import { staleExportFindings } from './exports.js';
import type { GuardFinding } from './finding.js';
import { runGates, stageLevels } from './gates/run-gates.js';
import { compiled, gatherGateInput, type GuardPlan, type JudgedChange } from './gate-input.js';
import { openLessonCache, type LessonFileCache } from '../store/worktree.js';
import { semanticFinding } from './semantic.js';
import { stageProfile } from './stages.js';
import { rangePolicy } from './trusted-policy.js';

export interface GuardOptions {
  cwd: string;
  stage: Stage;
  now: Date;
  /** The environment (GITHUB_BASE_REF, PRE_COMMIT_FROM_REF...): a parameter, like the clock. */
  env: Record<string, string | undefined>;
  base?: string | undefined;
  head?: string | undefined;
  /** The repository of cwd, when the caller opened it already (one `git rev-parse` less). */
  repo?: Promise<GitRepo>;
}

export interface GuardReport {
  version: 1;
  stage: Stage;
  blocked: boolean;
  /** What was checked: `index`, `worktree` or a commit sha. */
  head: string;
  /** The commit compared against, null when there is none (before the first commit). */
  base: string | null;
  base_from: string | null;
  levels: Record<Gate, GateLevel>;
  counts: { block: number; warn: number };
  findings: GuardFinding[];
  /** The section "Lessons for this change" (ci): the lessons for the range's paths, commands and commit subjects. */
  change_lessons?: ChangeLessons;
}

export const GUARD_DIR = `${STATE_DIR}/guard`;

/**
 * The policy, validated with ajv the first time its text is seen; later runs with the same
 * text skip the validator (and its load time) on the commit path.
 */
async function policyFor(root: string, cache: LessonFileCache): Promise<Policy> {
  const raw = readPolicyFile(root);
  const digest = sha256(JSON.stringify(raw.data));
  if (cache.memo(POLICY_MEMO) === digest) return resolvePolicy(raw.data);
  const { loadPolicy } = await import('../policy/validate-policy.js');
  const policy = loadPolicy(root);
  cache.setMemo(POLICY_MEMO, digest);
  return policy;
}

/** The digest of the last policy the validator accepted. */
const POLICY_MEMO = 'valid-policy';

/** Where and what: the repository, the stage's profile, the policy and the level of each gate. */
async function plan(options: GuardOptions): Promise<GuardPlan> {
  const root = findRepoRoot(options.cwd);
  const repo = await (options.repo ?? openRepo(root));
  const cache = openLessonCache(root);
  const profile = stageProfile(options.stage);
  const trusted = profile.trustsBasePolicy ? await rangePolicy(repo, root, { profile, base: options.base, head: options.head, env: options.env }) : undefined;
  const policy = trusted?.policy ?? (await policyFor(root, cache));
  return {
    root,
    repo,
    cache,
    ...(trusted?.change ? { policyChange: trusted.change } : {}),
    policy,
    profile,
    levels: stageLevels(policy, options.stage),
    incidentPatterns: compiled(compileIncidentPatterns(policy.incident)),
    now: options.now,
    env: options.env,
    base: options.base,
    head: options.head,
  };
}

/** The semantic lane after the deterministic one; it never throws (its problems are findings). */
async function semanticReview(plan: GuardPlan, change: JudgedChange): Promise<GuardFinding[]> {
  if (!plan.profile.semanticReview || !plan.policy.review.enabled) return [];
  const { runSemanticLane } = await import('../review/review.js');
  const lane = await runSemanticLane({ cwd: plan.root, policy: plan.policy, base: change.range?.base, now: plan.now });
  return lane.findings.map((finding) => semanticFinding(finding, plan.policy));
}

/** The section's lessons, from the head's lessons (preflight/change.ts). */
async function changeLessons(plan: GuardPlan, gathered: JudgedChange): Promise<ChangeLessons | undefined> {
  if (gathered.change === undefined) return undefined;
  const [{ selectForChange }, { index }] = await Promise.all([import('../preflight/change.js'), gathered.search.open()]);
  return selectForChange(index, gathered.change, plan.policy, plan.now);
}

function guardReport(plan: GuardPlan, { input, range }: JudgedChange, findings: GuardFinding[], change: ChangeLessons | undefined): GuardReport {
  const block = findings.filter((finding) => finding.level === 'block').length;
  const headBase = plan.profile.base === 'HEAD';
  return {
    version: 1,
    stage: plan.profile.stage,
    blocked: block > 0,
    head: input.head.label,
    base: range?.base ?? (headBase && input.base && input.base.label !== 'empty' ? input.base.label : null),
    base_from: range?.baseFrom ?? (headBase ? 'HEAD' : null),
    levels: plan.levels,
    counts: { block, warn: findings.length - block },
    findings,
    ...(change ? { change_lessons: change } : {}),
  };
}

/**
 * Runs the guard for a stage: plan (profile, policy) -> gatherGateInput (every git and file read) ->
 * the gates (pure) and, in ci, the lessons for the change -> the report, also written to
 * .lessons/guard/<stage>-last.json.
 */
export async function runGuard(options: GuardOptions): Promise<GuardReport> {
  const guard = await plan(options);
  const gathered = await gatherGateInput(guard);
  const findings = runGates(gathered.input);
  // The head's search index (the retrieval gate's, or built for the section) is done with after the section.
  const change = await changeLessons(guard, gathered).finally(() => gathered.search.close());
  if (guard.profile.checksExports) findings.push(...(await staleExportFindings(guard.root, guard.levels['index-fresh'])));
  await guard.cache.save();
  findings.push(...(await semanticReview(guard, gathered)));
  const report = guardReport(guard, gathered, findings, change);
  writeAudit(guard.root, report, options.now);
  return report;
}

/** The audit trail: the last report of each stage, under the git-ignored state folder. */
function writeAudit(root: string, report: GuardReport, now: Date): void {
  ensureStateDir(root);
  writeInRepo(root, `${GUARD_DIR}/${report.stage}-last.json`, formatJson({ ...report, created_at: now.toISOString() }));
}
