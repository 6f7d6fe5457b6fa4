import { buildIndex, serializeIndex } from '../index/build.js';
import { parseIndexEntries } from '../index/read.js';
import { diffIndexes, indexStaleness, type IndexDiff } from '../index/diff.js';
import { INDEX_FILE } from '../io/repo.js';
import type { CommitInfo } from '../io/git/log.js';
import { transitionFindings } from '../lesson/transitions.js';
import { lintTree } from '../lint/lint.js';
import { GATES, type Gate, type GateLevel, type Policy, type Stage } from '../policy/policy.js';
import type { SchemaError } from '../schema/validate.js';
import { toIsoDate } from '../util/dates.js';
import { describePlacement } from '../eval/format.js';
import type { RetrievalOutcome } from '../eval/snapshot.js';
import { incidentIssues, preflightTrailerIssues, type IncidentPatterns } from './commits.js';
import type { Finding } from '../lesson/finding.js';
import { applyLevel, compareGuardFindings, type GuardFinding, type Issue } from './finding.js';
import type { ReceiptState } from './receipt.js';
import type { SecretMatch } from '../secrets/rules.js';
import type { Snapshot } from './snapshot.js';
import { STAGE_PROFILES } from './stages.js';
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
  /** Commits of the range (stages whose base is a range); undefined where there is none (pre-commit). */
  commits?: CommitInfo[];
  /** Lessons-root-relative paths the change adds or modifies. */
  changedPaths: string[];
  receipt?: ReceiptState;
  incidentPatterns: IncidentPatterns;
  secrets?: SecretMatch[];
  quality?: QualityOutcome[];
  /** lessons/evals.json run against the head's lessons; absent when the file is. */
  retrieval?: RetrievalOutcome;
  /** The head's change to the trusted policy (pre-push and ci). */
  policyChange?: PolicyChange;
  /**
   * The side's lessons/index.json for the index-fresh gate: known to be what this tree's index
   * is (the file cache remembers the pair), or its text to compare (undefined when absent).
   */
  index?: { known: true } | { known: false; text: string | undefined } | { known: false; stale: IndexDiff };
  /**
   * What the staged check (staged.ts) found on the head's tree in proportion to the change:
   * lint's findings and the lifecycle rules' from the base; the gates take these instead of
   * reading the whole trees.
   */
  checked?: { lint?: Finding[] | undefined; transitions?: Finding[] | undefined; ids?: ReadonlySet<string> };
}

export type GateCheck = (input: GateInput) => Issue[];

const noSchema = (): SchemaError[] => {
  throw new Error('the schema gate runs on summarised lessons only');
};

const fromLint = (findings: { rule: string; severity: 'error' | 'warning'; file: string; line?: number; message: string }[]): Issue[] =>
  findings.map(({ rule, severity, file, line, message }) => ({ rule, severity, file, ...(line === undefined ? {} : { line }), message }));

/** Every lesson valid, ids unique, references resolved: lint's errors (its warnings stay with `lessons lint`). */
export const schemaGate: GateCheck = (input) => {
  // The head's lessons carry their file findings (gather asked for them): no schema is run here.
  const findings = input.checked?.lint ?? lintTree({ tree: input.head.tree, policy: input.policy, today: toIsoDate(input.now), schemaErrors: noSchema }).findings;
  return fromLint(findings.filter((finding) => finding.severity === 'error'));
};

const NO_DIFF = { added: [], removed: [], changed: [] };

/** The committed (or staged) index is exactly what `lessons index` would write for this tree. */
export const indexFreshGate: GateCheck = (input) => {
  const index = input.index;
  if (index === undefined || index.known) return [];
  const stageHint = STAGE_PROFILES[input.stage].indexFix(INDEX_FILE);
  const staleBy = (diff: IndexDiff): Finding[] => {
    const { headline, details } = indexStaleness(false, diff);
    return [{ rule: 'index-stale', severity: 'error', file: INDEX_FILE, message: `${headline} (${details.join('; ')}): ${stageHint}` }];
  };
  // Known stale, and how, from the staged check's update of the remembered index (gather.ts).
  if ('stale' in index) return staleBy(index.stale);
  const fresh = buildIndex(input.head.tree.lessons);
  if (index.text === serializeIndex(fresh)) return [];
  if (index.text === undefined) {
    return [{ rule: 'index-missing', severity: 'error', file: INDEX_FILE, message: `${indexStaleness(true, NO_DIFF).headline}: ${stageHint}` }];
  }
  return staleBy(diffIndexes(parseIndexEntries(index.text) ?? [], fresh.lessons));
};

/** Locally a fresh preflight receipt; for commits, the `Lessons-Preflight:` trailer on each. */
export const preflightEvidenceGate: GateCheck = (input) => {
  if (STAGE_PROFILES[input.stage].evidence === 'trailers') return preflightTrailerIssues(input.commits ?? []);
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
    patterns: input.incidentPatterns.block,
    warnPatterns: input.incidentPatterns.warn,
    trailerKeys: input.policy.incident.trailers,
    caseChanged: input.changedPaths.some((rel) => rel.startsWith('lessons/cases/') && rel.endsWith('.md')),
    lessonIds: input.checked?.ids ?? new Set(input.head.tree.lessons.map((item) => item.lesson.id)),
  });
};

/** Level and status changes between base and head follow the lifecycle rules. */
export const promotionGate: GateCheck = (input) => {
  if (input.checked?.transitions) return fromLint(input.checked.transitions);
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

/**
 * The team's retrieval evals: a threshold missed is an error; each miss and false positive
 * is a warning that says where the lesson went, so a rename that breaks retrieval is visible.
 */
export const retrievalGate: GateCheck = (input) => {
  const outcome = input.retrieval;
  if (outcome === undefined) return [];
  if ('error' in outcome) return [{ rule: 'retrieval-evals', severity: 'error', file: outcome.file, message: outcome.error }];
  const { file, result } = outcome;
  const issues: Issue[] = result.failures.map((failure) => ({ rule: 'retrieval-threshold', severity: 'error', file, message: `${failure}: run \`lessons eval\` for the reasons` }));
  for (const c of result.cases) {
    for (const miss of c.misses) {
      issues.push({ rule: 'retrieval-miss', severity: 'warning', file, message: `"${c.name}": preflight does not select ${miss.id} (${describePlacement(miss, c.mode)})` });
    }
    for (const lesson of c.false_positives) {
      issues.push({ rule: 'retrieval-false-positive', severity: 'warning', file, message: `"${c.name}": preflight selects ${lesson.id}, which it must not` });
    }
  }
  return issues;
};

/** The checker: each gate by name. */
export const GATE_CHECKS: Record<Gate, GateCheck> = {
  schema: schemaGate,
  'index-fresh': indexFreshGate,
  'preflight-evidence': preflightEvidenceGate,
  'incident-lesson': incidentLessonGate,
  promotion: promotionGate,
  secrets: secretsGate,
  quality: qualityGate,
  retrieval: retrievalGate,
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
