import { fingerprint, similarGroups } from '../capture/similarity.js';
import { textFingerprint, textSimilarity } from '../capture/text-model.js';
import type { IndexEntry } from '../index/build.js';
import type { PreflightTrailer } from '../io/git-log.js';
import { patternEvidence, principleEvidence } from '../lifecycle/evidence.js';
import { LEVELS, STATUSES, type Lesson, type Level, type Status } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { byKey, compareStrings } from '../util/compare.js';
import { daysBetween, isIsoDate } from '../util/dates.js';

export interface ReportInput {
  lessons: readonly Lesson[];
  /** The index entries of the same lessons: summary, checklist, promoted_into. */
  index: readonly IndexEntry[];
  policy: Policy;
  today: string;
  /** Undefined when there is no git history to read. */
  trailers: readonly PreflightTrailer[] | undefined;
  /** Lessons the agent hooks showed, per session, with the day of the session's last record. */
  sessions?: readonly ShownInSession[];
}

export interface ShownInSession {
  date: string;
  ids: readonly string[];
}

/** A lesson captured again after it had been shown: the lesson is not working. */
export interface RecurringLesson {
  id: string;
  path: string;
  occurrences: number;
  last_seen: string;
  /** The first day it was shown, by a commit's Lessons-Preflight trailer or an agent hook. */
  first_shown: string;
  shown_by: ('trailer' | 'hook')[];
}

export interface DuplicateCluster {
  level: Level;
  ids: string[];
  /** The lowest similarity among the links that joined the cluster. */
  similarity: number;
}

export interface StaleLesson {
  id: string;
  path: string;
  status: Status;
  last_validated_at: string | null;
  /** Days since last_validated_at; null when it was never validated. */
  days: number | null;
}

export interface Candidate {
  id: string;
  path: string;
  source: Lesson['source'];
  created_at: string | null;
  occurrences: number;
}

export interface PromotionSuggestion {
  to: 'pattern' | 'principle';
  ids: string[];
  /** Pattern: the weakest similarity linking the cases. Principle: null. */
  similarity: number | null;
  /** Principle: the distinct contexts the pattern was applied in. */
  contexts: string[];
  command: string;
}

export interface LessonUsage {
  id: string;
  selected: number;
  last_selected: string | null;
}

export interface Report {
  total: number;
  counts: Record<Level, Record<Status, number>>;
  stale_after_days: number;
  stale: StaleLesson[];
  candidates: Candidate[];
  auto_candidates: number;
  max_auto_candidates: number;
  ready_to_promote: PromotionSuggestion[];
  /** Lessons whose occurrences were bumped on or after a day they were shown, most often recurring first. */
  recurring: RecurringLesson[];
  /** Live lessons of one level that read alike (preflight's text model): merge them, or mark duplicate_of. */
  near_duplicates: DuplicateCluster[];
  usage: {
    /** false outside git or before the first commit. */
    available: boolean;
    commits_with_trailer: number;
    lessons: LessonUsage[];
    never_used: string[];
  };
}

/** The state of the lessons for a steward; pure. */
export function buildReport(input: ReportInput): Report {
  const { lessons, index, policy, today } = input;
  const entries = new Map(index.map((entry) => [entry.id, entry]));
  const path = (id: string): string => entries.get(id)?.path ?? '';
  const counts = Object.fromEntries(LEVELS.map((level) => [level, Object.fromEntries(STATUSES.map((status) => [status, 0]))])) as Report['counts'];
  for (const lesson of lessons) counts[lesson.level][lesson.status]++;
  const limit = policy.lessons.stale_after_days;
  const stale: StaleLesson[] = lessons
    .filter((lesson) => lesson.status === 'validated' || lesson.status === 'canonical')
    .map((lesson) => {
      const validated = lesson.last_validated_at;
      const days = validated !== null && isIsoDate(validated) ? daysBetween(validated, today) : null;
      return { id: lesson.id, path: path(lesson.id), status: lesson.status, last_validated_at: validated, days };
    })
    .filter((item) => item.days === null || item.days > limit)
    .sort((a, b) => (b.days ?? Infinity) - (a.days ?? Infinity) || compareStrings(a.id, b.id));
  const candidates: Candidate[] = lessons
    .filter((lesson) => lesson.status === 'candidate')
    .map((lesson) => ({ id: lesson.id, path: path(lesson.id), source: lesson.source, created_at: lesson.created_at, occurrences: lesson.occurrences }))
    .sort((a, b) => compareStrings(a.created_at ?? '', b.created_at ?? '') || compareStrings(a.id, b.id));
  return {
    total: lessons.length,
    counts,
    stale_after_days: limit,
    stale,
    candidates,
    auto_candidates: candidates.filter((candidate) => candidate.source === 'auto').length,
    max_auto_candidates: policy.lessons.max_auto_candidates,
    ready_to_promote: [...casesReady(lessons, entries, policy.report.promote_similarity), ...patternsReady(lessons, entries)],
    recurring: recurringAfterShown(lessons, path, input.trailers ?? [], input.sessions ?? []),
    near_duplicates: nearDuplicates(lessons, entries, policy.report.duplicate_similarity),
    usage: usageOf(lessons, input.trailers),
  };
}

/**
 * Groups of live cases that no pattern covers yet and that read alike (single-linkage over
 * pairwise similarity), kept when they are independent enough to pass promotion.
 */
function casesReady(lessons: readonly Lesson[], entries: Map<string, IndexEntry>, threshold: number): PromotionSuggestion[] {
  const cases = lessons
    .filter((lesson) => lesson.level === 'case' && lesson.status !== 'retired' && (entries.get(lesson.id)?.promoted_into.length ?? 0) === 0)
    .sort(byKey((lesson) => lesson.id));
  const prints = cases.map((lesson) => {
    const entry = entries.get(lesson.id);
    return fingerprint({ title: lesson.title, summary: entry?.summary ?? '', checklist: entry?.checklist ?? [] });
  });
  const byId = new Map(lessons.map((lesson) => [lesson.id, lesson]));
  const suggestions: PromotionSuggestion[] = [];
  for (const group of similarGroups(prints, threshold)) {
    const ids = group.members.map((n) => cases[n]!.id);
    if (ids.length < 2 || !patternEvidence(ids, (id) => byId.get(id)).ok) continue;
    suggestions.push({
      to: 'pattern',
      ids,
      similarity: group.weakest,
      contexts: [],
      command: `lessons promote ${ids.join(' ')} --to pattern --title "<what they have in common>"`,
    });
  }
  return suggestions.sort(byKey((suggestion) => suggestion.ids[0]!));
}

/** Live patterns that no principle covers yet and whose applications already satisfy one. */
function patternsReady(lessons: readonly Lesson[], entries: Map<string, IndexEntry>): PromotionSuggestion[] {
  const byId = new Map(lessons.map((lesson) => [lesson.id, lesson]));
  const principles = new Set(lessons.filter((lesson) => lesson.level === 'principle').map((lesson) => lesson.id));
  return lessons
    .filter((lesson) => lesson.level === 'pattern' && lesson.status !== 'retired')
    .filter((lesson) => !(entries.get(lesson.id)?.promoted_into ?? []).some((id) => principles.has(id)))
    .filter((lesson) => principleEvidence([lesson.id], (id) => byId.get(id)).ok)
    .sort(byKey((lesson) => lesson.id))
    .map((lesson) => ({
      to: 'principle' as const,
      ids: [lesson.id],
      similarity: null,
      contexts: [...new Set(lesson.applications.map((application) => application.context))].sort(compareStrings),
      command: `lessons promote ${lesson.id} --to principle --title "<the rule that holds everywhere>"`,
    }));
}

/**
 * Lessons bumped (captured again: occurrences > 1, last_seen the day of the last bump) on or
 * after the first day a trailer or a hook session showed them. Days are the finest grain the
 * records keep, so a lesson shown and captured on one day counts.
 */
function recurringAfterShown(
  lessons: readonly Lesson[],
  path: (id: string) => string,
  trailers: readonly PreflightTrailer[],
  sessions: readonly ShownInSession[],
): RecurringLesson[] {
  const shown = new Map<string, { first: string; by: Set<'trailer' | 'hook'> }>();
  const note = (id: string, date: string, by: 'trailer' | 'hook'): void => {
    const current = shown.get(id);
    if (!current) shown.set(id, { first: date, by: new Set([by]) });
    else {
      if (date < current.first) current.first = date;
      current.by.add(by);
    }
  };
  for (const trailer of trailers) for (const id of trailer.ids) note(id, trailer.date, 'trailer');
  for (const session of sessions) for (const id of session.ids) note(id, session.date, 'hook');
  return lessons
    .filter((lesson) => lesson.status !== 'retired' && lesson.occurrences > 1 && lesson.last_seen !== null)
    .flatMap((lesson) => {
      const seen = shown.get(lesson.id);
      if (!seen || seen.first > lesson.last_seen!) return [];
      const by = (['trailer', 'hook'] as const).filter((kind) => seen.by.has(kind));
      return [{ id: lesson.id, path: path(lesson.id), occurrences: lesson.occurrences, last_seen: lesson.last_seen!, first_shown: seen.first, shown_by: by }];
    })
    .sort((a, b) => b.occurrences - a.occurrences || compareStrings(a.id, b.id));
}

/** Clusters of live lessons of one level linked by text-model similarity at least `threshold`. */
function nearDuplicates(lessons: readonly Lesson[], entries: Map<string, IndexEntry>, threshold: number): DuplicateCluster[] {
  const clusters: DuplicateCluster[] = [];
  for (const level of LEVELS) {
    const live = lessons.filter((lesson) => lesson.level === level && lesson.status !== 'retired').sort(byKey((lesson) => lesson.id));
    const prints = live.map((lesson) => {
      const entry = entries.get(lesson.id);
      return textFingerprint({ title: lesson.title, summary: entry?.summary ?? '', tags: lesson.tags, checklist: entry?.checklist ?? [], keywords: lesson.triggers.keywords });
    });
    for (const group of similarGroups(prints, threshold, textSimilarity)) {
      clusters.push({ level, ids: group.members.map((n) => live[n]!.id), similarity: group.weakest });
    }
  }
  return clusters;
}

function usageOf(lessons: readonly Lesson[], trailers: readonly PreflightTrailer[] | undefined): Report['usage'] {
  if (trailers === undefined) return { available: false, commits_with_trailer: 0, lessons: [], never_used: [] };
  const selected = new Map<string, { count: number; last: string }>();
  for (const trailer of trailers) {
    for (const id of trailer.ids) {
      const current = selected.get(id);
      selected.set(id, { count: (current?.count ?? 0) + 1, last: current && current.last > trailer.date ? current.last : trailer.date });
    }
  }
  const known = lessons.filter((lesson) => lesson.status !== 'retired').map((lesson) => lesson.id).sort(compareStrings);
  const used: LessonUsage[] = known
    .filter((id) => selected.has(id))
    .map((id) => ({ id, selected: selected.get(id)!.count, last_selected: selected.get(id)!.last }))
    .sort((a, b) => b.selected - a.selected || compareStrings(a.id, b.id));
  return {
    available: true,
    commits_with_trailer: trailers.length,
    lessons: used,
    never_used: trailers.length === 0 ? [] : known.filter((id) => !selected.has(id)),
  };
}
