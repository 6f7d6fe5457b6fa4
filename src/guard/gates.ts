import { buildIndex, serializeIndex, type IndexEntry } from '../index/build.js';
import { diffIndexes } from '../index/diff.js';
import { INDEX_FILE } from '../io/repo.js';
import type { CommitInfo } from '../io/git.js';
import { transitionFindings } from '../lifecycle/transitions.js';
import { lintTree } from '../lint/lint.js';
import { GATES, type Gate, type GateLevel, type Policy, type Stage } from '../policy/policy.js';
import type { SchemaError } from '../schema/validate.js';
import { toIsoDate } from '../util/dates.js';
import { incidentIssues, preflightTrailerIssues } from './commits.js';
import { applyLevel, compareGuardFindings, type GuardFinding, type Issue } from './finding.js';
import type { ReceiptState } from './receipt.js';
import type { SecretMatch } from './secrets.js';
import type { Snapshot } from './snapshot.js';
import { policyChangeIssues, type PolicyChange } from './trusted-policy.js';

export interface QualityOutcome {
  name: string;
  argv: string[];
  ok: boolean;
  /** Why it failed: exit code, signal, timeout or a missing program, plus the output's tail. */
  detail: string;
}

/**
 * Everything the gates judge, gathered by the command beforehand. A field a gate needs is
 * only gathered when that gate is on for the stage; gates read nothing else.
 */
export interface GateInput {
  stage: Stage;
  policy: Policy;
  now: Date;
  head: Snapshot;
  /** The other side for the promotion gate: HEAD for pre-commit, the range's base otherwise. */
  base?: Snapshot;
  /** Commits of the range (pre-push, ci, final); undefined where there are none yet (pre-commit). */
  commits?: CommitInfo[];
  /** Lessons-root-relative paths the change adds or modifies. */
  changedPaths: string[];
  receipt?: ReceiptState;
  incidentPatterns: RegExp[];
  secrets?: SecretMatch[];
  quality?: QualityOutcome[];
  /** The head's change to the trusted policy (pre-push and ci). */
  policyChange?: PolicyChange;
  schemaErrors: (data: unknown) => SchemaError[];
}

export type GateCheck = (input: GateInput) => Issue[];

const fromLint = (findings: { rule: string; severity: 'error' | 'warning'; file: string; line?: number; message: string }[]): Issue[] =>
  findings.map(({ rule, severity, file, line, message }) => ({ rule, severity, file, ...(line === undefined ? {} : { line }), message }));

/** Every lesson valid, ids unique, references resolved: lint's errors (its warnings stay with `lessons lint`). */
export const schemaGate: GateCheck = (input) => {
  const result = lintTree({ tree: input.head.tree, policy: input.policy, today: toIsoDate(input.now), schemaErrors: input.schemaErrors });
  return fromLint(result.findings.filter((finding) => finding.severity === 'error'));
};

function indexEntries(text: string): IndexEntry[] {
  try {
    const data = JSON.parse(text) as { lessons?: unknown };
    return Array.isArray(data.lessons) ? (data.lessons as IndexEntry[]).filter((entry) => typeof entry?.id === 'string') : [];
  } catch {
    return [];
  }
}

/** The committed (or staged) index is exactly what `lessons index` would write for this tree. */
export const indexFreshGate: GateCheck = (input) => {
  const fresh = serializeIndex(buildIndex(input.head.tree.lessons));
  const current = input.head.indexText;
  const stageHint = input.stage === 'pre-commit' ? `run \`lessons index\` and \`git add ${INDEX_FILE}\`` : `run \`lessons index\` and commit ${INDEX_FILE}`;
  if (current === fresh) return [];
  if (current === undefined) {
    return [{ rule: 'index-missing', severity: 'error', file: INDEX_FILE, message: `${INDEX_FILE} is missing: ${stageHint}` }];
  }
  const diff = diffIndexes(indexEntries(current), buildIndex(input.head.tree.lessons).lessons);
  const parts = [
    diff.added.length > 0 ? `not in the index: ${diff.added.join(', ')}` : '',
    diff.removed.length > 0 ? `no longer in the tree: ${diff.removed.join(', ')}` : '',
    diff.changed.length > 0 ? `changed: ${diff.changed.join(', ')}` : '',
  ].filter(Boolean);
  const what = parts.length > 0 ? ` (${parts.join('; ')})` : ' (only its formatting differs)';
  return [{ rule: 'index-stale', severity: 'error', file: INDEX_FILE, message: `${INDEX_FILE} is stale${what}: ${stageHint}` }];
};

/** Locally a fresh preflight receipt; for commits, the `Lessons-Preflight:` trailer on each. */
export const preflightEvidenceGate: GateCheck = (input) => {
  if (input.commits !== undefined && input.stage !== 'final') return preflightTrailerIssues(input.commits);
  const receipt = input.receipt ?? { state: 'missing' };
  const run = 'run `lessons preflight "<task>"` at the start of the task';
  const max = input.policy.preflight.receipt_max_age_minutes;
  switch (receipt.state) {
    case 'fresh':
      return [];
    case 'missing':
      return [{ rule: 'preflight-receipt', severity: 'error', message: `no preflight receipt: ${run}` }];
    case 'invalid':
      return [{ rule: 'preflight-receipt', severity: 'error', message: `the preflight receipt is unreadable (${receipt.reason}): ${run} again` }];
    case 'stale':
      return [
        {
          rule: 'preflight-receipt',
          severity: 'error',
          message: `the last preflight ran ${receipt.ageMinutes} minutes ago (policy limit ${max}): ${run} again`,
        },
      ];
  }
};

export const incidentLessonGate: GateCheck = (input) => {
  if (input.commits === undefined) return [];
  return incidentIssues({
    commits: input.commits,
    patterns: input.incidentPatterns,
    trailerKeys: input.policy.incident.trailers,
    caseChanged: input.changedPaths.some((rel) => rel.startsWith('lessons/cases/') && rel.endsWith('.md')),
    lessonIds: new Set(input.head.tree.lessons.map((item) => item.lesson.id)),
  });
};

/** Level and status changes between base and head follow the lifecycle rules. */
export const promotionGate: GateCheck = (input) => {
  const side = (snapshot: Snapshot | undefined) => (snapshot?.tree.lessons ?? []).map(({ lesson, path }) => ({ lesson, path }));
  return fromLint(transitionFindings(side(input.base), side(input.head)));
};

export const secretsGate: GateCheck = (input) =>
  (input.secrets ?? []).map((match) => ({
    rule: match.rule,
    severity: 'error' as const,
    file: match.file,
    line: match.line,
    message:
      `looks like a ${match.rule} credential (${match.masked}): remove it, rotate the credential if it was real, ` +
      `and rewrite it out of unpushed history; if it is harmless, add "${match.fingerprint}" to secrets.allowlist in the policy`,
  }));

export const qualityGate: GateCheck = (input) =>
  (input.quality ?? [])
    .filter((outcome) => !outcome.ok)
    .map((outcome) => ({
      rule: `quality-${outcome.name}`,
      severity: 'error' as const,
      message: `quality command \`${outcome.name}\` (${outcome.argv.join(' ')}) failed: ${outcome.detail}; fix it and run the guard again`,
    }));

/** The checker: each gate by name. */
export const GATE_CHECKS: Record<Gate, GateCheck> = {
  schema: schemaGate,
  'index-fresh': indexFreshGate,
  'preflight-evidence': preflightEvidenceGate,
  'incident-lesson': incidentLessonGate,
  promotion: promotionGate,
  secrets: secretsGate,
  quality: qualityGate,
  policy: (input) => policyChangeIssues(input.policyChange),
};

/** The level of each gate in a stage, as the policy sets it. */
export function stageLevels(policy: Policy, stage: Stage): Record<Gate, GateLevel> {
  return Object.fromEntries(GATES.map((gate) => [gate, policy.gates[gate][stage]])) as Record<Gate, GateLevel>;
}

/** Runs every gate that is on and applies the policy's levels; pure. */
export function runGates(input: GateInput): GuardFinding[] {
  const levels = stageLevels(input.policy, input.stage);
  const findings: GuardFinding[] = [];
  for (const gate of GATES) {
    if (levels[gate] === 'off') continue;
    for (const issue of GATE_CHECKS[gate](input)) {
      const finding = applyLevel(gate, input.stage, levels[gate], issue);
      if (finding) findings.push(finding);
    }
  }
  return findings.sort(compareGuardFindings);
}
