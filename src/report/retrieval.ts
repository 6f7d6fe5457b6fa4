/**
 * Retrieval health: what the report shows of a `lessons eval` run over lessons/evals.json.
 * The command computes the run and passes it in (src/report/report-lessons.ts, `retrievalHealth`).
 */
import { byKey } from '../util/compare.js';

/** The part of an eval run the report needs. Rates are fractions, 0..1. */
export interface RetrievalHealth {
  /** Labelled tasks evaluated. */
  cases: number;
  recall: number;
  false_positive_rate: number;
  thresholds: { min_recall: number; max_false_positive_rate: number };
  /** Tasks whose expected lessons were not selected: the task's id and the lesson ids missed. */
  misses: { id: string; missing: string[] }[];
}

export interface Retrieval {
  /** Whether lessons/evals.json exists. */
  evals_file: boolean;
  /** The eval run, when one was made. */
  result: RetrievalHealth | null;
  /** Recall and false positives within the thresholds; null without a run. */
  passing: boolean | null;
}

export function retrievalOf(evalsFile: boolean, result: RetrievalHealth | undefined): Retrieval {
  if (result === undefined) return { evals_file: evalsFile, result: null, passing: null };
  const passing = result.recall >= result.thresholds.min_recall && result.false_positive_rate <= result.thresholds.max_false_positive_rate;
  const misses = [...result.misses].sort(byKey((miss) => miss.id));
  return { evals_file: evalsFile, result: { ...result, misses }, passing };
}
