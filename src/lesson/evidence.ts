import { uniqueSorted } from '../util/compare.js';
import type { Lesson } from './model.js';

/** SPEC §8: thresholds for promotion. */
export const MIN_INDEPENDENT_CASES = 2;
export const MIN_DISTINCT_CONTEXTS = 3;

export type Evidence = { ok: true } | { ok: false; missing: string };

type Lookup = (id: string) => Lesson | undefined;

/**
 * Cases are independent when no chain of `duplicate_of` links one to another: two reports
 * of the same incident are one piece of evidence.
 */
export function independentCaseGroups(ids: readonly string[], lookup: Lookup): string[][] {
  const root = (id: string): string => {
    let current = id;
    const seen = new Set<string>();
    for (;;) {
      const next = lookup(current)?.duplicate_of;
      if (!next || seen.has(next)) return current;
      seen.add(current);
      current = next;
    }
  };
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const key = root(id);
    groups.set(key, [...(groups.get(key) ?? []), id]);
  }
  return [...groups.values()];
}

/**
 * A `<source>:<id>` the lookup does not know: where the sources are not at hand (the guard),
 * evidence that rests on one cannot be judged, and is not refused; lint judges it with the
 * fetched sources, and reports the reference itself when it does not resolve.
 */
function restsOnUnknownSource(ids: readonly string[], lookup: Lookup): boolean {
  return ids.some((id) => id.includes(':') && lookup(id) === undefined);
}

/** Two mentions of one lesson are one piece of evidence. */
function repeated(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = ids.filter((id) => seen.has(id) || !seen.add(id));
  return uniqueSorted(twice).map((id) => `\`${id}\` is listed twice`);
}

export function patternEvidence(caseIds: readonly string[], lookup: Lookup): Evidence {
  if (restsOnUnknownSource(caseIds, lookup)) return { ok: true };
  const problems: string[] = [];
  const usable: string[] = [];
  const distinct = uniqueSorted(caseIds);
  problems.push(...repeated(caseIds));
  for (const id of distinct) {
    const lesson = lookup(id);
    if (!lesson) problems.push(`case \`${id}\` does not exist`);
    else if (lesson.level !== 'case') problems.push(`\`${id}\` is a ${lesson.level}, not a case`);
    else if (lesson.status === 'retired') problems.push(`case \`${id}\` is retired`);
    else usable.push(id);
  }
  const groups = independentCaseGroups(usable, lookup);
  if (groups.length < MIN_INDEPENDENT_CASES) {
    const duplicates = groups.filter((group) => group.length > 1).map((group) => group.join(' and '));
    problems.push(
      `needs ${MIN_INDEPENDENT_CASES} independent cases, has ${groups.length}` +
        (duplicates.length > 0 ? ` (${duplicates.join('; ')} are duplicates of one incident)` : ''),
    );
    return { ok: false, missing: problems.join('; ') };
  }
  return problems.length > 0 ? { ok: false, missing: problems.join('; ') } : { ok: true };
}

export function principleEvidence(patternIds: readonly string[], lookup: Lookup): Evidence {
  if (restsOnUnknownSource(patternIds, lookup)) return { ok: true };
  const problems: string[] = [];
  const contexts = new Set<string>();
  let applications = 0;
  if (patternIds.length === 0) problems.push('source_pattern_ids is empty');
  problems.push(...repeated(patternIds));
  for (const id of uniqueSorted(patternIds)) {
    const lesson = lookup(id);
    if (!lesson) problems.push(`pattern \`${id}\` does not exist`);
    else if (lesson.level !== 'pattern') problems.push(`\`${id}\` is a ${lesson.level}, not a pattern`);
    else if (lesson.status === 'retired') problems.push(`pattern \`${id}\` is retired`);
    else {
      for (const application of lesson.applications) {
        if (application.validated_at === '') continue;
        applications++;
        contexts.add(application.context);
      }
    }
  }
  if (contexts.size < MIN_DISTINCT_CONTEXTS) {
    problems.push(
      `needs ${MIN_DISTINCT_CONTEXTS} validated applications in distinct contexts across its source patterns, has ${applications} in ${contexts.size} context${contexts.size === 1 ? '' : 's'}` +
        (contexts.size > 0 ? ` (${uniqueSorted(contexts).join(', ')})` : '') +
        ': record more with `lessons apply <pattern-id> --context <name> --ref <PR>`',
    );
  }
  return problems.length > 0 ? { ok: false, missing: problems.join('; ') } : { ok: true };
}

/** The evidence a pattern or principle stands on; undefined for a case, which needs none. */
export function evidenceOf(lesson: Lesson, lookup: Lookup): Evidence | undefined {
  if (lesson.level === 'pattern') return patternEvidence(lesson.source_case_ids, lookup);
  if (lesson.level === 'principle') return principleEvidence(lesson.source_pattern_ids, lookup);
  return undefined;
}
