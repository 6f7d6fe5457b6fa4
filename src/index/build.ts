import { checklistItems, firstParagraph } from '../lesson/body.js';
import type { LoadedLesson } from '../lesson/load.js';
import type { LessonMeta } from '../lesson/model.js';
import { compareStrings, uniqueSorted } from '../util/compare.js';
import { formatJson } from '../util/json.js';

/**
 * 2: each entry names the entry before it (`after`), so an index git's union merge made of two
 * sides' lines is told from the index of the merged tree (docs/index-merge.md). 1 had no `after`.
 */
export const INDEX_VERSION = 2;

/**
 * Everything preflight and the hooks need about a lesson, so they never read its body.
 * `promoted_to` is not repeated: it is folded into `promoted_into`.
 */
export interface IndexEntry extends Omit<LessonMeta, 'summary' | 'promoted_to'> {
  path: string;
  /** The frontmatter summary, or the body's first paragraph. */
  summary: string;
  checklist: string[];
  /** The lessons this one was distilled from (its source cases or patterns). */
  promoted_from: string[];
  /** The patterns and principles that name this lesson as a source, and those its `promoted_to` names. */
  promoted_into: string[];
  /**
   * The id of the entry before this one in the file (null for the first), as read from it:
   * serializeIndex() writes it from the order, so an entry built from a lesson has none.
   */
  after?: string | null;
}

export interface LessonIndex {
  version: typeof INDEX_VERSION;
  lessons: IndexEntry[];
}

/**
 * One lesson's entry; pure. `referrers` are the ids of the lessons that name it as a source
 * (in any order, repeats allowed).
 */
export function entryOf({ lesson, path, precomputed }: LoadedLesson, referrers: readonly string[]): IndexEntry {
  return {
    id: lesson.id,
    path,
    title: lesson.title,
    level: lesson.level,
    status: lesson.status,
    severity: lesson.severity,
    tags: lesson.tags,
    confidence: lesson.confidence,
    transferability: lesson.transferability,
    source: lesson.source,
    occurrences: lesson.occurrences,
    created_at: lesson.created_at,
    last_seen: lesson.last_seen,
    last_validated_at: lesson.last_validated_at,
    summary: lesson.summary ?? firstParagraph(lesson.body),
    project: lesson.project,
    kind: lesson.kind,
    insight: lesson.insight,
    checklist: precomputed?.checklist ?? checklistItems(lesson.body),
    triggers: lesson.triggers,
    source_case_ids: lesson.source_case_ids,
    source_pattern_ids: lesson.source_pattern_ids,
    applications: lesson.applications,
    duplicate_of: lesson.duplicate_of,
    superseded_by: lesson.superseded_by,
    retired_reason: lesson.retired_reason,
    promoted_from: uniqueSorted(sourcesOf(lesson)),
    promoted_into: uniqueSorted([...referrers, ...lesson.promoted_to]),
  };
}

/** The lessons a lesson was distilled from: its source cases and patterns. */
export function sourcesOf(lesson: Pick<LessonMeta, 'source_case_ids' | 'source_pattern_ids'>): string[] {
  return [...lesson.source_case_ids, ...lesson.source_pattern_ids];
}

/** Builds the index from loaded lessons; pure. The first of two lessons with one id wins (lint reports the clash). */
export function buildIndex(lessons: readonly LoadedLesson[]): LessonIndex {
  const chosen = new Map<string, LoadedLesson>();
  for (const item of lessons) if (item.lesson.id !== '' && !chosen.has(item.lesson.id)) chosen.set(item.lesson.id, item);
  const promotedInto = new Map<string, string[]>();
  for (const { lesson } of chosen.values()) {
    for (const source of sourcesOf(lesson)) {
      promotedInto.set(source, [...(promotedInto.get(source) ?? []), lesson.id]);
    }
  }
  const entries = [...chosen.values()].map((item) => entryOf(item, promotedInto.get(item.lesson.id) ?? []));
  entries.sort((a, b) => compareStrings(a.id, b.id));
  return { version: INDEX_VERSION, lessons: entries };
}

/**
 * The index as committed: one line per lesson, sorted by id, each naming the id of the line
 * before it, and nothing that every change touches (no counts, no digests). Two branches that
 * add or change lessons with a lesson between them change different lines, and git merges them
 * exactly; where they touch neighbouring lines, git's union merge keeps both sides' lines and
 * some line's `after` no longer names the line before it, which every reader checks (chained()
 * in read.ts, docs/index-merge.md). Still plain JSON, the same bytes for the same lessons.
 */
export function serializeIndex(index: LessonIndex): string {
  if (index.lessons.length === 0) return formatJson(index);
  return indexFromLines(index.lessons.map((entry, n) => entryLine(entry, n === 0 ? null : index.lessons[n - 1]!.id)));
}

/** An entry as its line of the committed index, after the entry `after` (without the comma that separates it from the next). */
export function entryLine(entry: IndexEntry, after: string | null): string {
  // `after` second, after the id: a reader finds both at the line's start. A key assigned again keeps its first place.
  return `    ${JSON.stringify(Object.assign({ id: entry.id, after }, entry, { after }))}`;
}

/** What comes before the first entry's line and after the last one, in an index of at least one entry. */
export const INDEX_HEAD = `{\n  "version": ${JSON.stringify(INDEX_VERSION)},\n  "lessons": [\n`;
export const INDEX_TAIL = '\n  ]\n}\n';
/** Between two entries' lines: a newline inside an entry is always escaped, so this separates lines and nothing else. */
export const ENTRY_SEPARATOR = ',\n';

/** The committed index from its entries' lines, in id order (at least one). */
export function indexFromLines(lines: readonly string[]): string {
  return `${INDEX_HEAD}${lines.join(ENTRY_SEPARATOR)}${INDEX_TAIL}`;
}
