import fs from 'node:fs';
import path from 'node:path';
import { buildIndex, INDEX_HEAD, indexFromLines, type IndexEntry } from '../index/build.js';
import { INDEX_FILE, LESSONS_DIR } from '../io/repo.js';
import { statMark } from '../io/file-cache.js';
import { commitChanges, type FileChange } from '../io/transaction.js';
import { rememberIndex, vouchedIndex } from '../index/memo.js';
import { listWorktree, openLessonCache } from '../lesson/cached-load.js';
import { LEVEL_FOLDERS, LEVELS, type Lesson } from '../lesson/model.js';
import { serializeLesson } from '../lesson/serialize.js';
import type { Policy } from '../policy/policy.js';
import { indexLines, type IndexLine } from '../preflight/search-delta.js';
import type { SearchIndex } from '../preflight/search-index.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { toIsoDate } from '../util/dates.js';
import { gitBlobId } from '../util/digest.js';
import { lessonAt, loadedFrom, newerThanLessons, type LessonWrite, type Plan } from './change.js';

/**
 * A change of a few lessons that reads neither the other lessons nor the whole index: when the
 * file cache vouches that lessons/index.json is the index of the working tree as it is, the
 * plan finds the lessons it needs through preflight's search cache (which describes that
 * index), and the index is rewritten line by line: the changed lessons' lines replaced or
 * inserted, every other line as it was. The same bytes as a rebuild as long as the change adds
 * or removes no link between lessons: a new lesson that names none and that no other names
 * (checked), an existing one whose sources stay (checked) and whose promoted_to stays (what
 * capture's bumps keep). Otherwise, or when nothing vouches for the index, the caller reads the tree.
 */

/** What a plan sees of the tree. */
export interface IndexedState {
  root: string;
  policy: Policy;
  today: string;
  /** The search index of lessons/index.json when preflight's cache describes it as it is (a change leaves it stale until the next preflight). */
  search: SearchIndex | undefined;
  /** lessons/index.json's entries as lines. */
  lines: readonly IndexLine[];
  /** Whether a lesson uses `id`. */
  taken: (id: string) => boolean;
  /** The index's entries that match `test` on their JSON line (a literal key and value, say), counted. */
  count: (test: (json: string) => boolean) => number;
  /** The whole lesson at `file` (repo-relative), body and all, as written. */
  whole: (file: string) => Lesson | undefined;
}

/** A write and the file it goes to. */
export interface PlacedWrite extends LessonWrite {
  path: string;
}

export interface IndexedPlan<R> extends Plan<R> {
  writes: PlacedWrite[];
}

/**
 * Runs `plan` over the vouched-for index and writes what it returns; undefined (nothing written)
 * when the index is not vouched for, is not in the layout `lessons index` writes, or a write
 * would change links between lessons. The caller holds the lessons lock.
 */
export async function changeIndexedLessons<R>(root: string, now: Date, plan: (state: IndexedState) => IndexedPlan<R>): Promise<R | undefined> {
  const cache = openLessonCache(root);
  try {
    const vouched = vouchedIndex(root, cache, listWorktree(root, cache));
    const lines = vouched && indexLines(vouched.text);
    if (!vouched || !lines || !vouched.text.startsWith(INDEX_HEAD)) return undefined;
    const { isFresh, openCached, statIndex } = await import('../preflight/search-open.js');
    const cached = openCached(root);
    const stat = statIndex(root);
    const search = stat && isFresh(cached.index, stat, root) ? cached.index : undefined;
    let planned: IndexedPlan<R>;
    try {
      const ids = new Set(lines.map((line) => line.id));
      planned = plan({
        root,
        policy: loadPolicy(root),
        today: toIsoDate(now),
        search,
        lines,
        taken: (id) => ids.has(id),
        count: (test) => lines.reduce((sum, line) => sum + Number(test(line.json)), 0),
        whole: (file) => {
          const level = LEVELS.find((candidate) => file.startsWith(`${LESSONS_DIR}/${LEVEL_FOLDERS[candidate]}/`));
          return level === undefined ? undefined : lessonAt(root, file, level);
        },
      });
    } finally {
      cached.close();
    }
    if (planned.writes.length === 0) return planned.result;
    const changed = changedLines(lines, vouched.text, planned.writes);
    if (!changed) return undefined;
    const text = Buffer.from(indexFromLines(changed.map((line) => `    ${line.json}`)));
    const files: FileChange[] = planned.writes.map((write) => ({ path: write.path, content: Buffer.from(serializeLesson(write.lesson)), ...(write.create ? { create: true } : {}) }));
    files.push({ path: INDEX_FILE, content: text });
    commitChanges(root, files);
    newerThanLessons(root);
    const blobs = new Map(files.slice(0, -1).map((file) => [file.path, gitBlobId(file.content as Buffer)]));
    for (const [file, blob] of blobs) {
      try {
        cache.noteStat(file, blob, statMark(fs.statSync(path.join(root, file), { bigint: true })));
      } catch {
        // Gone again: the next run reads it.
      }
    }
    const pairs = vouched.pairs.filter((pair) => !blobs.has(pair.path));
    for (const [file, blob] of blobs) pairs.push({ path: file, blob });
    rememberIndex(root, cache, pairs, text, changed.length, true);
    return planned.result;
  } finally {
    await cache.save();
  }
}

/**
 * The index's lines with the written lessons' entries in place, in id order; undefined when a
 * write would change another lesson's entry (a link), or its path is not its entry's.
 */
function changedLines(lines: readonly IndexLine[], text: string, writes: readonly PlacedWrite[]): IndexLine[] | undefined {
  const byId = new Map(lines.map((line) => [line.id, line]));
  const result = new Map(byId);
  for (const write of writes) {
    const { lesson } = write;
    const entry = buildIndex([loadedFrom(lesson, write.path)]).lessons[0]!;
    const old = byId.get(lesson.id);
    if (old === undefined) {
      // A new lesson: no other names it, and it names none (else other entries change too).
      if (!write.create || text.includes(JSON.stringify(lesson.id)) || entry.promoted_from.length + lesson.promoted_to.length > 0) return undefined;
    } else {
      const before = JSON.parse(old.json) as IndexEntry;
      const kept = (a: readonly string[], b: readonly string[]): boolean => JSON.stringify(a) === JSON.stringify(b);
      if (write.create || before.path !== write.path || !kept(before.promoted_from, entry.promoted_from) || !entry.promoted_into.every((id) => before.promoted_into.includes(id))) return undefined;
      // promoted_into also holds the lessons that name this one as a source: those are unchanged.
      entry.promoted_into = before.promoted_into;
    }
    result.set(lesson.id, { id: lesson.id, json: JSON.stringify(entry) });
  }
  // Ids are kebab-case ASCII: code-unit order is the index's code-point order.
  return [...result.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Where a new lesson of `lesson`'s level goes. */
export function newLessonPath(lesson: Lesson): string {
  return `${LESSONS_DIR}/${LEVEL_FOLDERS[lesson.level]}/${lesson.id}.md`;
}
