import fs from 'node:fs';
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { readTextIfExists, writeInRepo } from '../io/fs.js';
import {
  changesBetween,
  commitsInRange,
  openRepo,
  resolveCommit,
  stagedChanges,
  worktreeChanges,
  type ChangedFile,
  type GitRepo,
} from '../io/git.js';
import { STATE_DIR, findRepoRoot } from '../io/repo.js';
import { packageFile } from '../package-root.js';
import { readPolicyFile, resolvePolicy, type Gate, type GateLevel, type Policy, type Stage } from '../policy/policy.js';
import type { SchemaError } from '../schema/validate.js';
import { sha256 } from '../util/digest.js';
import { formatJson } from '../util/json.js';
import { compileIncidentPatterns } from './commits.js';
import type { GuardFinding } from './finding.js';
import { runGates, stageLevels, type GateInput, type QualityOutcome } from './gates.js';
import { resolveRange, type Range } from './range.js';
import { RECEIPT_FILE, judgeReceipt } from './receipt.js';
import { semanticFinding } from './semantic.js';
import { ensureStateDir } from '../io/state.js';
import { LessonCache } from './lesson-cache.js';
import { compileSecretRules } from './secrets.js';
import { scanSecrets } from './secrets-scan.js';
import { rangePolicy, trustsBase } from './trusted-policy.js';
import { commitSnapshot, emptySnapshot, gitPrefix, indexSnapshot, worktreeSnapshot, type Snapshot } from './snapshot.js';

export interface GuardOptions {
  cwd: string;
  stage: Stage;
  now: Date;
  /** The environment (GITHUB_BASE_REF, PRE_COMMIT_FROM_REF...): a parameter, like the clock. */
  env: Record<string, string | undefined>;
  base?: string | undefined;
  head?: string | undefined;
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
}

export const GUARD_DIR = `${STATE_DIR}/guard`;

function policyError(message: string): LessonsError {
  return new LessonsError('INVALID_POLICY', `policy/workflow-policy.json is invalid: ${message}`);
}

function compiled<T>(value: T | { error: string }): T {
  if (value && typeof value === 'object' && 'error' in value) throw policyError((value as { error: string }).error);
  return value as T;
}

/** Lessons-root-relative paths the change adds or modifies. */
function changedPaths(repo: GitRepo, root: string, files: ChangedFile[]): string[] {
  const prefix = gitPrefix(repo, root);
  return files
    .filter((file) => file.status !== 'D' && file.path.startsWith(prefix))
    .map((file) => file.path.slice(prefix.length));
}

/**
 * The policy, validated with ajv the first time its text is seen; later runs with the same
 * text skip the validator (and its load time) on the commit path.
 */
async function policyFor(root: string, cache: LessonCache): Promise<Policy> {
  const raw = readPolicyFile(root);
  const digest = sha256(JSON.stringify(raw.data));
  if (cache.policyValidated(digest)) return resolvePolicy(raw.data);
  const { loadPolicy } = await import('../policy/validate-policy.js');
  const policy = loadPolicy(root);
  cache.rememberPolicy(digest);
  return policy;
}

/** Schema errors of each lesson, from the cache or from ajv (loaded only when one is new). */
async function schemaErrorsOf(snapshot: Snapshot, cache: LessonCache): Promise<(data: unknown) => SchemaError[]> {
  const byData = new Map<unknown, SchemaError[]>();
  const missing = snapshot.lessonFiles.filter((file) => file.entry.loaded && file.entry.schemaErrors === undefined);
  if (missing.length > 0) {
    const { validateAgainst } = await import('../schema/validate.js');
    for (const file of missing) file.entry.schemaErrors = validateAgainst('lesson', file.entry.loaded!.data);
    cache.touch();
  }
  for (const file of snapshot.lessonFiles) if (file.entry.loaded) byData.set(file.entry.loaded.data, file.entry.schemaErrors ?? []);
  return (data) => byData.get(data) ?? [];
}

function cacheVersion(): string {
  const manifest = fs.readFileSync(packageFile('package.json'), 'utf8');
  const schemas = ['lesson', 'policy'].map((name) => fs.readFileSync(packageFile('schemas', `${name}.schema.json`), 'utf8'));
  return sha256([manifest, ...schemas].join('\0'));
}

async function runQuality(policy: Policy, root: string): Promise<QualityOutcome[]> {
  const { runArgv } = await import('../io/run-command.js');
  const outcomes: QualityOutcome[] = [];
  for (const command of policy.quality.commands) {
    const outcome = await runArgv(command.run, root, policy.quality.timeout_seconds);
    outcomes.push({ name: command.name, argv: command.run, ...outcome });
  }
  return outcomes;
}

interface Sides {
  head: Snapshot;
  base?: Snapshot;
  range?: Range;
  changed: ChangedFile[];
}

/** Which trees the stage compares: the staged tree against HEAD, a pushed range, or the working tree. */
async function sides(repo: GitRepo, root: string, options: GuardOptions, wantBase: boolean, cache: LessonCache): Promise<Sides> {
  if (options.stage === 'pre-commit') {
    // Independent git reads, run side by side.
    const [head, base, changed] = await Promise.all([
      indexSnapshot(repo, root, cache),
      !wantBase ? undefined : resolveCommit(repo, 'HEAD').then((commit) => (commit ? commitSnapshot(repo, root, commit, cache, false) : emptySnapshot())),
      stagedChanges(repo),
    ]);
    return { head, ...(base ? { base } : {}), changed };
  }
  const range = await resolveRange(repo, { stage: options.stage, base: options.base, head: options.head, env: options.env });
  if (!range && options.stage !== 'final') {
    throw new LessonsError('GIT', `no commits yet: nothing for the ${options.stage} guard to check; commit first`);
  }
  const base = !wantBase ? undefined : range?.base ? await commitSnapshot(repo, root, range.base, cache, false) : emptySnapshot();
  if (options.stage === 'final') {
    return { head: await worktreeSnapshot(root, cache), ...(base ? { base } : {}), ...(range ? { range } : {}), changed: await worktreeChanges(repo, range?.base) };
  }
  return {
    head: await commitSnapshot(repo, root, range!.head, cache, true),
    ...(base ? { base } : {}),
    range: range!,
    changed: await changesBetween(repo, range!.base, range!.head),
  };
}

/** Runs the guard for a stage and writes its report to .lessons/guard/<stage>-last.json. */
export async function runGuard(options: GuardOptions): Promise<GuardReport> {
  const root = findRepoRoot(options.cwd);
  const repo = await openRepo(root);
  const cache = new LessonCache(root, cacheVersion());
  const trusted = trustsBase(options.stage) ? await rangePolicy(repo, root, options) : undefined;
  const policy = trusted?.policy ?? (await policyFor(root, cache));
  const levels = stageLevels(policy, options.stage);
  const on = (gate: Gate): boolean => levels[gate] !== 'off';
  const incidentPatterns = compiled(compileIncidentPatterns(policy.incident));
  const { head, base, range, changed } = await sides(repo, root, options, on('promotion'), cache);
  const paths = changedPaths(repo, root, changed);
  const needCommits = on('incident-lesson') || (on('preflight-evidence') && options.stage !== 'final');
  const commits = range && needCommits && options.stage !== 'pre-commit' ? await commitsInRange(repo, range.base, range.head) : undefined;
  const input: GateInput = {
    stage: options.stage,
    policy,
    now: options.now,
    head,
    ...(base ? { base } : {}),
    ...(commits ? { commits } : options.stage === 'pre-commit' ? {} : { commits: [] }),
    changedPaths: paths,
    incidentPatterns,
    schemaErrors: on('schema') ? await schemaErrorsOf(head, cache) : () => [],
  };
  if (on('preflight-evidence') && (options.stage === 'pre-commit' || options.stage === 'final')) {
    input.receipt = judgeReceipt(readTextIfExists(path.join(root, RECEIPT_FILE)), options.now, policy.preflight.receipt_max_age_minutes);
  }
  if (on('secrets')) {
    const allowlist = new Set(policy.secrets.allowlist);
    const matches = await scanSecrets(policy, compiled(compileSecretRules(policy.secrets)), head, paths, cache);
    input.secrets = matches.filter((match) => !allowlist.has(match.fingerprint));
  }
  if (on('quality')) input.quality = await runQuality(policy, root);
  if (trusted?.change) input.policyChange = trusted.change;
  const findings = runGates(input);
  cache.save();
  if (options.stage === 'final' && policy.review.enabled) {
    // The semantic lane after the deterministic one; it never throws (its problems are findings).
    const { runSemanticLane } = await import('../review/command.js');
    const lane = await runSemanticLane({ cwd: root, policy, base: range?.base, now: options.now });
    findings.push(...lane.findings.map((finding) => semanticFinding(finding, policy)));
  }
  const block = findings.filter((finding) => finding.level === 'block').length;
  const report: GuardReport = {
    version: 1,
    stage: options.stage,
    blocked: block > 0,
    head: head.label,
    base: range?.base ?? (options.stage === 'pre-commit' && base && base.label !== 'empty' ? base.label : null),
    base_from: range?.baseFrom ?? (options.stage === 'pre-commit' ? 'HEAD' : null),
    levels,
    counts: { block, warn: findings.length - block },
    findings,
  };
  writeAudit(root, report, options.now);
  return report;
}

/** The audit trail: the last report of each stage, under the git-ignored state folder. */
function writeAudit(root: string, report: GuardReport, now: Date): void {
  ensureStateDir(root);
  writeInRepo(root, `${GUARD_DIR}/${report.stage}-last.json`, formatJson({ ...report, created_at: now.toISOString() }));
}
