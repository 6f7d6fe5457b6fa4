import { LessonsError } from '../errors.js';
import type { Policy } from '../policy/policy.js';
import { asRelated, selectFromIndex, type Selection } from '../preflight/preflight.js';
import { estimateTokens, formatReport, type PreflightReport } from '../preflight/report.js';
import { placeLessons, type Placement } from '../preflight/placement.js';
import { isHookMode, type PreflightInput } from '../preflight/query.js';
import type { SearchIndex } from '../search/engine.js';
import type { EvalCase, EvalFile } from './file.js';
import { RECEIPT_FILE } from '../io/repo.js';

/**
 * Runs a team's retrieval regression tests through preflight's own selection (selectFromIndex,
 * the function `lessons preflight` prints) and scores them against the policy's thresholds.
 * Pure apart from the lazy reads behind `index`.
 */

export interface EvalThresholds {
  min_recall: number;
  max_false_positive_rate: number;
}

/** A selected lesson and the reasons preflight gave for it. */
export interface ChosenLesson {
  id: string;
  score: number;
  reasons: string[];
}

/** One case of lessons/evals.json, run: what preflight was asked (the case's PreflightInput) and how it did. */
export interface CaseResult extends PreflightInput {
  name: string;
  mode: 'task' | 'hook';
  passed: boolean;
  must: string[];
  must_not: string[];
  no_match: boolean;
  note: string | null;
  /** What preflight selected (the apply tier), in rank order. */
  selected: ChosenLesson[];
  /** The related tier preflight listed below it, in rank order. */
  related: ChosenLesson[];
  /** The tokens preflight's default text output takes for this case (about four characters each). */
  tokens: number;
  /** Each `must` lesson that was not selected, and where it stood. */
  misses: Placement[];
  /** Each `must_not` lesson that was selected; in a no_match case, everything selected. */
  false_positives: ChosenLesson[];
}

/** Must lessons expected and selected; recall is null when there were none. */
export interface RecallTally {
  expected: number;
  selected: number;
  recall: number | null;
}

export interface EvalResult {
  file: string;
  passed: boolean;
  thresholds: EvalThresholds;
  /** Share of all must lessons surfaced: selected, or listed as related (the reader opens it there). */
  recall: number | null;
  /** Must lessons in the apply tier alone. */
  applied: RecallTally;
  /** Related entries per no-match case (null without such cases). */
  related_on_no_match: number | null;
  /** The median tokens preflight prints on a no-match case (null without such cases). */
  tokens_on_no_match: number | null;
  /** Set with --rerank: how many cases the reviewer judged, and how many of those it failed on (the plain ranking stood). */
  rerank?: { cases: number; failed: number };
  /** Share of the cases with a must_not or no_match expectation in which preflight selected a lesson it must not. */
  false_positive_rate: number | null;
  must: RecallTally;
  negatives: { cases: number; false_positive: number };
  modes: { task: RecallTally; hook: RecallTally };
  cases: CaseResult[];
  /** Why the run did not pass: each threshold it missed. */
  failures: string[];
  /** Digest of the lessons index the run selected from. */
  index_digest: string;
}

/** Thresholds are compared with exact counts, not with the printed (rounded) ratios; this absorbs float error. */
const EPSILON = 1e-9;

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

function tally(cases: readonly CaseResult[]): RecallTally {
  const expected = cases.reduce((sum, c) => sum + c.must.length, 0);
  const selected = expected - cases.reduce((sum, c) => sum + c.misses.length, 0);
  return { expected, selected, recall: ratio(selected, expected) };
}

/** Every id in the file is a lesson preflight can select; otherwise a configuration error naming each. */
function checkIds(evals: EvalFile, index: SearchIndex): void {
  const known = new Set<string>();
  for (let doc = 0; doc < index.docCount; doc++) known.add(index.record(doc).id);
  const problems: string[] = [];
  for (const evalCase of evals.cases) {
    for (const key of ['must', 'must_not'] as const) {
      evalCase[key].forEach((id, i) => {
        if (!known.has(id)) problems.push(`  ${evalCase.field}.${key}[${i}]: no lesson "${id}" that preflight can select (no such id, or it is retired)`);
      });
    }
  }
  if (problems.length > 0) {
    throw new LessonsError('INVALID_CONFIG', `${evals.file} names unknown lessons:\n${problems.join('\n')}\nfix the ids (\`lessons list\` shows them) or remove them`);
  }
}

/** What preflight shows for a case: its own selection, or one a reviewer has judged (lessons eval --rerank). */
export type CaseSelection = (evalCase: EvalCase) => Pick<Selection, 'selected' | 'related'> & { records?: Selection['records']; handles?: Selection['handles'] };

/** The tokens preflight's text output takes for this selection. */
export function printedTokens(input: PreflightInput, selection: ReturnType<CaseSelection>): number {
  const report: PreflightReport = {
    ...input,
    paths: [...input.paths],
    mode: isHookMode(input) ? 'hook' : 'task',
    selected: selection.selected,
    related: selection.related.map((lesson) => asRelated(lesson, selection.handles)),
    omitted_by_budget: 0,
    message: selection.selected.length + selection.related.length > 0 ? null : 'No lesson is relevant enough to this task (nothing passed the relevance floor).',
    index_digest: '',
    receipt: RECEIPT_FILE,
  };
  return estimateTokens(formatReport(report, 'text', (id) => selection.records?.get(id)?.summary ?? ''));
}

function runCase(evalCase: EvalCase, index: SearchIndex, policy: Policy, now: Date, select: CaseSelection): CaseResult {
  const { input } = evalCase;
  const selection = select(evalCase);
  const pick = ({ id, score, reasons }: { id: string; score: number; reasons: string[] }): ChosenLesson => ({ id, score, reasons });
  const picks = selection.selected.map(pick);
  const related = selection.related.map(pick);
  // A must lesson counts when it is shown in either tier; a false positive only when it applies.
  const chosen = new Set([...picks, ...related].map((p) => p.id));
  const missing = evalCase.must.filter((id) => !chosen.has(id));
  const misses = missing.length === 0 ? [] : placeLessons(index, input, policy, now, missing);
  const false_positives = evalCase.no_match ? picks : picks.filter((p) => evalCase.must_not.includes(p.id));
  return {
    name: evalCase.name,
    mode: isHookMode(input) ? 'hook' : 'task',
    ...input,
    passed: misses.length === 0 && false_positives.length === 0,
    must: evalCase.must,
    must_not: evalCase.must_not,
    no_match: evalCase.no_match,
    note: evalCase.note,
    selected: picks,
    related,
    tokens: printedTokens(input, selection),
    misses,
    false_positives,
  };
}

export const median = (values: readonly number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Must lessons in the apply tier. */
function appliedTally(cases: readonly CaseResult[]): RecallTally {
  const expected = cases.reduce((sum, c) => sum + c.must.length, 0);
  const applied = cases.reduce((sum, c) => {
    const ids = new Set(c.selected.map((lesson) => lesson.id));
    return sum + c.must.filter((id) => ids.has(id)).length;
  }, 0);
  return { expected, selected: applied, recall: ratio(applied, expected) };
}

export function evaluate(evals: EvalFile, index: SearchIndex, digest: string, policy: Policy, now: Date, select?: CaseSelection): EvalResult {
  checkIds(evals, index);
  const own: CaseSelection = (evalCase) => selectFromIndex(index, evalCase.input, policy, now);
  const cases = evals.cases.map((evalCase) => runCase(evalCase, index, policy, now, select ?? own));
  const noMatch = cases.filter((c) => c.no_match);
  const must = tally(cases);
  const negativeCases = cases.filter((c) => c.no_match || c.must_not.length > 0);
  const negatives = { cases: negativeCases.length, false_positive: negativeCases.filter((c) => c.false_positives.length > 0).length };
  const falsePositiveRate = ratio(negatives.false_positive, negatives.cases);
  const thresholds = policy.eval;
  const failures: string[] = [];
  if (must.expected > 0 && must.selected / must.expected < thresholds.min_recall - EPSILON) {
    failures.push(`recall ${must.recall} (${must.selected} of ${must.expected} must lessons selected or listed as related) is below the policy's eval.min_recall ${thresholds.min_recall}`);
  }
  if (negatives.cases > 0 && negatives.false_positive / negatives.cases > thresholds.max_false_positive_rate + EPSILON) {
    failures.push(
      `false-positive rate ${falsePositiveRate} (${negatives.false_positive} of ${negatives.cases} must-not and no-match cases) is above the policy's eval.max_false_positive_rate ${thresholds.max_false_positive_rate}`,
    );
  }
  return {
    file: evals.file,
    passed: failures.length === 0,
    thresholds,
    recall: must.recall,
    applied: appliedTally(cases),
    related_on_no_match: noMatch.length === 0 ? null : Math.round((noMatch.reduce((sum, c) => sum + c.related.length, 0) / noMatch.length) * 100) / 100,
    tokens_on_no_match: median(noMatch.map((c) => c.tokens)),
    false_positive_rate: falsePositiveRate,
    must,
    negatives,
    modes: { task: tally(cases.filter((c) => c.mode === 'task')), hook: tally(cases.filter((c) => c.mode === 'hook')) },
    cases,
    failures,
    index_digest: digest,
  };
}
