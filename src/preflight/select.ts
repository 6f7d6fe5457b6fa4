import type { Level } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { isHookMode, type PreflightInput } from './query.js';
import { aboveFloor, aboveWeakFloor, compareRanked, type RankedLesson } from './rank.js';

/** One answer in two tiers: the lessons that apply, shown in full, and one-line related entries for the reader to judge. */
export interface Tiers {
  apply: RankedLesson[];
  related: RankedLesson[];
}

function isCriticalTriggered(ranked: RankedLesson): boolean {
  return ranked.trigger !== undefined && ranked.meta.severity === 'critical';
}

/**
 * What preflight shows, in rank order, in two tiers. The apply tier: confident lessons
 * (aboveFloor), within the policy's per-level quotas, then `limit`. Cases support the patterns
 * and principles shown (`quotas.case`); when none applies, cases fill up to
 * `quotas.cases_alone`. Hook mode (context flags, no task) applies at most `hook_max`: the
 * lessons whose own triggers match the call, then the others, critical first within each. In
 * both, a critical lesson whose trigger matches always applies. The related tier: up to
 * `related_max` of the lessons above the weak floor (aboveWeakFloor) that do not apply, best first.
 */
export function selectTiers(ranked: readonly RankedLesson[], input: PreflightInput, policy: Policy, limit?: number): Tiers {
  const call = input.paths.length > 0 || input.command !== null;
  const apply = isHookMode(input) ? hookApply(aboveFloor(ranked, true), policy, limit) : taskApply(aboveFloor(ranked, call), ranked, policy, limit);
  const applied = new Set(apply);
  const related = aboveWeakFloor(ranked, call)
    .filter((lesson) => !applied.has(lesson))
    .slice(0, policy.preflight.related_max);
  return { apply, related };
}

/** The apply tier alone (selectTiers). */
export function selectLessons(ranked: readonly RankedLesson[], input: PreflightInput, policy: Policy, limit?: number): RankedLesson[] {
  return selectTiers(ranked, input, policy, limit).apply;
}

function hookApply(passing: readonly RankedLesson[], policy: Policy, limit: number | undefined): RankedLesson[] {
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

function taskApply(passing: readonly RankedLesson[], ranked: readonly RankedLesson[], policy: Policy, limit: number | undefined): RankedLesson[] {
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
