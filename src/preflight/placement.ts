import type { Policy } from '../policy/policy.js';
import { explain } from './explain.js';
import { buildQuery, isHookMode, type PreflightInput } from './query.js';
import { aboveFloor, rankLessons } from './rank.js';
import { type SearchIndex, VOCABULARY } from '../search/engine.js';
import { selectLessons } from './select.js';

/**
 * Where a lesson stood in one preflight run: what `lessons eval` reports about a lesson that
 * was expected and not selected. The ranking is preflight's own (rankLessons, selectLessons).
 */
export interface Placement {
  id: string;
  /**
   * 1-based place in the order preflight takes lessons in (by score; in hook mode critical
   * ones first), before the floor and the quotas; null when it was not ranked.
   */
  rank: number | null;
  /** How many lessons the ranking scored for this input. */
  ranked: number;
  score: number | null;
  /**
   * Why it is not in the selection: `not-ranked` (no word of the task, nor a trigger in hook
   * mode, reached it), `floor` (below the relevance floor), `quota` (its level's quota was
   * full of better-ranked lessons), `hook-max` (past the hook-mode maximum); null when selected.
   */
  dropped: 'not-ranked' | 'floor' | 'quota' | 'hook-max' | null;
  /** What it matched, as preflight words its reasons. */
  reasons: string[];
}

/** The place of each of `ids` in the preflight run for `input`. */
export function placeLessons(index: SearchIndex, input: PreflightInput, policy: Policy, now: Date, ids: readonly string[]): Placement[] {
  const hook = isHookMode(input);
  const byScore = rankLessons(index, buildQuery(input, VOCABULARY), policy, now);
  // Hook mode takes lessons in its own order: selecting with no maximum gives all of them in it.
  const ranked = hook ? selectLessons(byScore, input, { ...policy, preflight: { ...policy.preflight, hook_max: byScore.length } }) : byScore;
  const selected = new Set(selectLessons(byScore, input, policy));
  const passed = new Set(aboveFloor(byScore));
  const records = ranked.map((lesson) => index.record(lesson.doc));
  return ids.map((id): Placement => {
    const at = records.findIndex((record) => record.id === id);
    if (at < 0) return { id, rank: null, ranked: ranked.length, score: null, dropped: 'not-ranked', reasons: [] };
    const lesson = ranked[at]!;
    const dropped = selected.has(lesson) ? null : hook ? 'hook-max' : passed.has(lesson) ? 'quota' : 'floor';
    const reasons = explain(lesson, records[at]!, (doc) => index.record(doc).id);
    return { id, rank: at + 1, ranked: ranked.length, score: Math.round(lesson.score * 1000) / 1000, dropped, reasons };
  });
}
