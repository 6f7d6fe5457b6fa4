import type { Level } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { isHookMode, type PreflightInput } from './query.js';
import { aboveFloor, compareRanked, type RankedLesson } from './rank.js';

/** At most this many cases support the principles and patterns in one answer. */
export const MAX_CASES = 2;

function isCriticalTriggered(ranked: RankedLesson): boolean {
  return ranked.trigger !== undefined && ranked.meta.severity === 'critical';
}

/**
 * What preflight shows, in rank order. Task mode: lessons above the relevance floor, within
 * the policy's per-level quotas (cases never more than two), then `limit`. Hook mode (context
 * flags, no task): trigger matches only, critical first, at most `hook_max`. In both, a
 * critical lesson whose trigger matches is always shown.
 */
export function selectLessons(ranked: readonly RankedLesson[], input: PreflightInput, policy: Policy, limit?: number): RankedLesson[] {
  if (isHookMode(input)) {
    const ordered = [...ranked].sort((a, b) => Number(b.meta.severity === 'critical') - Number(a.meta.severity === 'critical') || compareRanked(a, b));
    const critical = ordered.filter(isCriticalTriggered);
    const max = Math.max(critical.length, Math.min(policy.preflight.hook_max, limit ?? Number.POSITIVE_INFINITY));
    return ordered.slice(0, max);
  }
  const quotas: Record<Level, number> = { ...policy.preflight.quotas, case: Math.min(MAX_CASES, policy.preflight.quotas.case) };
  const taken: Record<Level, number> = { principle: 0, pattern: 0, case: 0 };
  const chosen: RankedLesson[] = [];
  for (const lesson of aboveFloor(ranked)) {
    if (taken[lesson.meta.level] >= quotas[lesson.meta.level]) continue;
    taken[lesson.meta.level]++;
    chosen.push(lesson);
  }
  const limited = limit === undefined ? chosen : chosen.slice(0, limit);
  for (const lesson of ranked) if (isCriticalTriggered(lesson) && !limited.includes(lesson)) limited.push(lesson);
  return limited.sort(compareRanked);
}
