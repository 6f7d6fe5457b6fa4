import { LEVELS, SEVERITIES, SOURCES, STATUSES } from '../lesson/model.js';
import type { Workspace } from './kernels.js';
import type { SearchIndex } from './search-index.js';
import { TABLE, type ScoreInput } from './score-signals.js';

/**
 * The values of the score's signals (score-signals.ts) that do not come from the task's text:
 * each signal's weight, and what the lesson-kind signals' lookup tables hold. A signal is
 * declared in score-signals.ts and given its value here, so adding one stays in this folder.
 */
export const SIGNAL_WEIGHTS = {
  level: { principle: 1.2, pattern: 1.1, case: 1 },
  severity: { low: 0.9, medium: 1, high: 1.1, critical: 1.25 },
  status: { candidate: 0.85, validated: 1, canonical: 1.1, retired: 0 },
  source: { curated: 1, auto: 0.8 },
  /**
   * Coordination (as in Lucene's classic coord factor): a lesson that accounts for more of
   * the task's concepts outranks one that matches a single word many times. The factor is the
   * square root of `floor` plus the share of the task's concepts the lesson matches.
   */
  coordination: { floor: 0.6 },
  tagOverlap: 0.1,
  keywordMatch: 0.1,
  /** A lesson of the project in play; one of another project is never ranked (inProject). */
  project: { same: 1.2 },
  /** A lesson last validated `stale_after_days` ago or longer scores this much less. */
  recency: 0.1,
} as const;

/** What the values depend on beyond the index: the project in play, the policy's stale_after_days, the day. */
export interface ScoreContext {
  project: string | null;
  staleAfterDays: number;
  now: Date;
}

/**
 * The factors of the part of the score that says what kind of lesson this is, independent of
 * the task: level, severity, status, source, confidence, transferability, occurrences, recency
 * of validation, project. Written into the workspace's tables by code; the score loop
 * (kernels.wat) multiplies a lesson's factors from its metadata row. With the weights of the
 * match signals, this is every ScoreInput field but the text plan's two.
 */
export function scoreValues(ws: Workspace, index: SearchIndex, context: ScoreContext): Omit<ScoreInput, 'information' | 'lessonFloor'> {
  const { tables } = ws;
  LEVELS.forEach((l, i) => (tables[TABLE.level + i] = SIGNAL_WEIGHTS.level[l]));
  STATUSES.forEach((s, i) => (tables[TABLE.status + i] = SIGNAL_WEIGHTS.status[s]));
  SEVERITIES.forEach((s, i) => (tables[TABLE.severity + i] = SIGNAL_WEIGHTS.severity[s]));
  SOURCES.forEach((s, i) => (tables[TABLE.source + i] = SIGNAL_WEIGHTS.source[s]));
  const clamp = (v: number): number => Math.min(5, Math.max(1, v));
  for (let v = 0; v < 256; v++) {
    tables[TABLE.confidence + v] = 0.8 + 0.05 * clamp(v);
    tables[TABLE.transferability + v] = 0.925 + 0.025 * clamp(v);
  }
  // Frequency is loud: a lesson seen 8 times counts 30% more than one seen once (and no more past 8).
  for (let occurrences = 0; occurrences <= 8; occurrences++) tables[TABLE.occurrences + occurrences] = 1 + 0.1 * Math.min(3, Math.log2(Math.max(1, occurrences)));
  return {
    coordinationFloor: SIGNAL_WEIGHTS.coordination.floor,
    tagWeight: SIGNAL_WEIGHTS.tagOverlap,
    keywordWeight: SIGNAL_WEIGHTS.keywordMatch,
    localLessons: index.docCount - index.sourceCount,
    today: Math.floor(context.now.getTime() / 86_400_000),
    staleDays: Math.max(1, context.staleAfterDays),
    recency: SIGNAL_WEIGHTS.recency,
    project: context.project === null || index.docCount === 0 ? undefined : index.projectCodes(context.project),
    sameProject: SIGNAL_WEIGHTS.project.same,
  };
}
