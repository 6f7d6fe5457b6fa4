import fs from 'node:fs';
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { readTextIfExists, writeFileAtomic } from '../io/fs.js';
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
import type { Gate, GateLevel, Policy, Stage } from '../policy/policy.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { formatJson } from '../util/json.js';
import { compileIncidentPatterns } from './commits.js';
import type { GuardFinding } from './finding.js';
import { runGates, stageLevels, type GateInput, type QualityOutcome } from './gates.js';
import { resolveRange, type Range } from './range.js';
import { RECEIPT_FILE, judgeReceipt } from './receipt.js';
import { compileSecretRules, scanText, type SecretMatch } from './secrets.js';
import { commitSnapshot, emptySnapshot, gitPrefix, indexSnapshot, worktreeSnapshot, type BlobCache, type Snapshot } from './snapshot.js';

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

async function changedPaths(repo: GitRepo, root: string, files: ChangedFile[]): Promise<string[]> {
  const prefix = gitPrefix(repo, root);
  return files
    .filter((file) => file.status !== 'D' && file.path.startsWith(prefix))
    .map((file) => file.path.slice(prefix.length));
}

const MAX_SCAN_BYTES = 1024 * 1024;

async function scanSecrets(policy: Policy, head: Snapshot, changed: readonly string[]): Promise<SecretMatch[]> {
  const rules = compiled(compileSecretRules(policy.secrets));
  const allowlist = new Set(policy.secrets.allowlist);
  const texts = new Map<string, Uint8Array>(head.lessonBytes);
  if (policy.secrets.scope === 'change') {
    const others = changed.filter((rel) => !texts.has(rel));
    for (const [rel, bytes] of await head.readFiles(others)) texts.set(rel, bytes);
  }
  const matches: SecretMatch[] = [];
  for (const [rel, bytes] of texts) {
    if (bytes.length > MAX_SCAN_BYTES || bytes.includes(0)) continue;
    matches.push(...scanText(rel, Buffer.from(bytes).toString('utf8'), rules, allowlist));
  }
  return matches;
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
async function sides(repo: GitRepo, root: string, options: GuardOptions, wantBase: boolean, cache: BlobCache): Promise<Sides> {
  if (options.stage === 'pre-commit') {
    const headCommit = await resolveCommit(repo, 'HEAD');
    const base = !wantBase ? undefined : headCommit ? await commitSnapshot(repo, root, headCommit, cache) : emptySnapshot();
    return { head: await indexSnapshot(repo, root, cache), ...(base ? { base } : {}), changed: await stagedChanges(repo) };
  }
  const range = await resolveRange(repo, { stage: options.stage, base: options.base, head: options.head, env: options.env });
  if (!range && options.stage !== 'final') {
    throw new LessonsError('GIT', `no commits yet: nothing for the ${options.stage} guard to check; commit first`);
  }
  const base = !wantBase ? undefined : range?.base ? await commitSnapshot(repo, root, range.base, cache) : emptySnapshot();
  if (options.stage === 'final') {
    return { head: worktreeSnapshot(root), ...(base ? { base } : {}), ...(range ? { range } : {}), changed: await worktreeChanges(repo, range?.base) };
  }
  return {
    head: await commitSnapshot(repo, root, range!.head, cache),
    ...(base ? { base } : {}),
    range: range!,
    changed: await changesBetween(repo, range!.base, range!.head),
  };
}

/** Runs the guard for a stage and writes its report to .lessons/guard/<stage>-last.json. */
export async function runGuard(options: GuardOptions): Promise<GuardReport> {
  const root = findRepoRoot(options.cwd);
  const repo = await openRepo(root);
  const policy = loadPolicy(root);
  const levels = stageLevels(policy, options.stage);
  const on = (gate: Gate): boolean => levels[gate] !== 'off';
  const incidentPatterns = compiled(compileIncidentPatterns(policy.incident));
  const cache: BlobCache = new Map();
  const { head, base, range, changed } = await sides(repo, root, options, on('promotion'), cache);
  const paths = await changedPaths(repo, root, changed);
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
    schemaErrors: on('schema') ? (await import('../schema/validate.js')).validateAgainst.bind(null, 'lesson') : () => [],
  };
  if (on('preflight-evidence') && (options.stage === 'pre-commit' || options.stage === 'final')) {
    input.receipt = judgeReceipt(readTextIfExists(path.join(root, RECEIPT_FILE)), options.now, policy.preflight.receipt_max_age_minutes);
  }
  if (on('secrets')) input.secrets = await scanSecrets(policy, head, paths);
  if (on('quality')) input.quality = await runQuality(policy, root);
  const findings = runGates(input);
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
  const stateDir = path.join(root, STATE_DIR);
  const ignore = path.join(stateDir, '.gitignore');
  if (!fs.existsSync(ignore)) writeFileAtomic(ignore, '*\n');
  writeFileAtomic(path.join(root, GUARD_DIR, `${report.stage}-last.json`), formatJson({ ...report, created_at: now.toISOString() }));
}
