/**
 * What a guard gate is: a name, its level in each stage when the policy does not say, and a
 * pure check of the input the command gathered. The registry (registry.ts) lists every gate;
 * scripts/build-gates.mjs writes the names and levels from it into the policy module
 * (src/policy/gates.ts), the policy schema and the shipped policy file.
 */
import type { CommitInfo } from '../../io/git/log.js';
import type { IndexDiff } from '../../index/diff.js';
import type { Finding } from '../../lesson/finding.js';
import type { Gate, GateLevel, Policy, Stage } from '../../policy/policy.js';
import type { RetrievalOutcome } from '../../eval/snapshot.js';
import type { SecretMatch } from '../../secrets/rules.js';
import type { IncidentPatterns } from '../commits.js';
import type { Issue } from '../finding.js';
import type { ReceiptState } from '../receipt.js';
import type { Snapshot } from '../snapshot.js';
import type { PolicyChange } from '../trusted-policy.js';

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

/**
 * A gate: its name, its level in each stage when the policy file leaves it out, what the policy
 * schema says of it (when more than its levels need saying) and its check. The name, levels and
 * description are written only in the gate's file: resolving a policy (hooks, preflight, doctor) must not load
 * the guard, so scripts/build-gates.mjs copies them into src/policy/gates.ts and the JSON files.
 */
export interface GateDeclaration {
  name: Gate;
  levels: Record<Stage, GateLevel>;
  description?: string;
  check: GateCheck;
}

/** A gate's level in each stage, given for the stages that can block (final only advises). */
export const defaultLevels = (preCommit: GateLevel, prePush: GateLevel, ci: GateLevel): Record<Stage, GateLevel> => ({
  'pre-commit': preCommit,
  'pre-push': prePush,
  ci,
  final: 'warn',
});
