import type { Level } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { isHookMode, type PreflightInput } from './query.js';
import { aboveFloor, compareRanked, type RankedLesson } from './rank.js';

function isCriticalTriggered(ranked: RankedLesson): boolean {
  return ranked.trigger !== undefined && ranked.meta.severity === 'critical';
}

/**
 * What preflight shows, in rank order: lessons above the relevance floor, within the
 * policy's per-level quotas, then `limit`. Cases support the patterns and principles shown
 * (`quotas.case`); when none passes the floor, cases fill up to `quotas.cases_alone`. Hook
 * mode (context flags, no task) shows at most `hook_max`: the lessons whose own triggers match
 * the call, then the others, critical first within each. In both, a
 * critical lesson whose trigger matches is always shown.
 */
export function selectLessons(ranked: readonly RankedLesson[], input: PreflightInput, policy: Policy, limit?: number): RankedLesson[] {
  const passing = aboveFloor(ranked);
  if (isHookMode(input)) {
    // The call itself is the evidence in hook mode: a lesson whose own trigger names it comes
    // before one that only shares words with it (or is raised through lineage), however
    // severe; critical first within each.
    const ordered = [...passing].sort(
      (a, b) =>
        Number(b.trigger !== undefined) - Number(a.trigger !== undefined) ||
        Number(b.meta.severity === 'critical') - Number(a.meta.severity === 'critical') ||
        compareRanked(a, b),
    );
    const critical = ordered.filter(isCriticalTriggered);
    const max = Math.max(critical.length, Math.min(policy.preflight.hook_max, limit ?? Number.POSITIVE_INFINITY));
    return ordered.slice(0, max);
  }
  const { quotas } = policy.preflight;
  const casesAlone = passing.every((lesson) => lesson.meta.level === 'case');
  const quota: Record<Level, number> = { ...quotas, case: casesAlone ? Math.max(quotas.case, quotas.cases_alone) : quotas.case };
  const taken: Record<Level, number> = { principle: 0, pattern: 0, case: 0 };
  const chosen: RankedLesson[] = [];
  for (const lesson of passing) {
    if (taken[lesson.meta.level] >= quota[lesson.meta.level]) continue;
    taken[lesson.meta.level]++;
    chosen.push(lesson);
  }
  const limited = limit === undefined ? chosen : chosen.slice(0, limit);
  for (const lesson of ranked) if (isCriticalTriggered(lesson) && !limited.includes(lesson)) limited.push(lesson);
  return limited.sort(compareRanked);
}
