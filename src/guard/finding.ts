import type { Gate, GateLevel, Stage } from '../policy/policy.js';
import { STAGE_PROFILES } from './stages.js';
import { compareStrings } from '../util/compare.js';

/** What a gate reports before the policy decides its level: an error or a warning. */
export interface Issue {
  rule: string;
  severity: 'error' | 'warning';
  /** Repo-relative POSIX path, when the issue is about a file. */
  file?: string;
  line?: number;
  /** The commit it is about, for trailer checks. */
  commit?: string;
  /** What is wrong and how to fix it. */
  message: string;
}

/** An issue with its gate and the level the policy gives it in this stage. */
export interface GuardFinding extends Issue {
  /** A deterministic gate, or `semantic-review` for the advisory lane at the final stage. */
  gate: Gate | 'semantic-review';
  level: 'warn' | 'block';
}

/**
 * The policy decides: an error takes the gate's level for the stage, a warning is at most
 * `warn`, `off` drops both, and a stage that cannot block (final) never does.
 */
export function applyLevel(gate: Gate, stage: Stage, level: GateLevel, issue: Issue): GuardFinding | undefined {
  if (level === 'off') return undefined;
  const blocking = level === 'block' && issue.severity === 'error' && STAGE_PROFILES[stage].canBlock;
  return { gate, level: blocking ? 'block' : 'warn', ...issue };
}

export function compareGuardFindings(a: GuardFinding, b: GuardFinding): number {
  return (
    compareStrings(a.gate, b.gate) ||
    compareStrings(a.file ?? '', b.file ?? '') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareStrings(a.commit ?? '', b.commit ?? '') ||
    compareStrings(a.rule, b.rule) ||
    compareStrings(a.message, b.message)
  );
}
