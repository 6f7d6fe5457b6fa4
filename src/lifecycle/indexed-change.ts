import { bytesAt, updateIndex } from '../index/update.js';
import { LessonsError } from '../errors.js';
import { INDEX_FILE, LESSONS_DIR } from '../io/repo.js';
import { commitChanges, type FileChange } from '../io/transaction.js';
import { carryIndexScan, vouchedIndex } from '../store/index-memo.js';
import { listWorktree, openLessonCache } from '../store/worktree.js';
import { LEVEL_FOLDERS, LEVELS, type Lesson } from '../lesson/model.js';
import { blobIdOf } from '../util/digest.js';
import { serializeLesson } from '../lesson/serialize.js';
import type { Policy } from '../policy/policy.js';
import { type IndexLine, indexLines, type SearchIndex } from '../search/engine.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { toIsoDate } from '../util/dates.js';
import { lessonAt, loadedFrom, newerThanLessons, rememberEdited, type LessonWrite, type Plan } from './change.js';

/**
 * A change of a few lessons that reads neither the other lessons nor the whole index: when the
 * file cache vouches that lessons/index.json is the index of the working tree as it is, the
 * plan finds the lessons it needs through preflight's search cache (which describes that
 * index), and the index is updated as bytes read from the open file a window at a time
 * (updateIndex(): the changed lessons' entries, and those whose `promoted_into` they join or
 * leave, built again; every other line as it was), the same bytes as a rebuild. The whole index
 * is read only when the plan asks for it (a stale search cache, a new lesson's id). Otherwise,
 * or when nothing vouches for the index, the caller reads the tree.
 */

/** What a plan sees of the tree. */
export interface IndexedState {
  root: string;
  policy: Policy;
  today: string;
  /** The search index of lessons/index.json when preflight's cache describes it as it is (a change leaves it stale until the next preflight). */
  search: SearchIndex | undefined;
  /** lessons/index.json's entries as lines, decoded when first asked for (a plan with a fresh search cache never asks). */
  lines: () => readonly IndexLine[];
  /** Whether a lesson uses `id`. */
  taken: (id: string) => boolean;
  /** How many of the index's entries hold every one of `literals` on their JSON line (a key and its value, say). */
  count: (literals: readonly string[]) => number;
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
 * when the index is not vouched for, is not in the layout `lessons index` writes, or the change
 * is not one updateIndex() applies (an id another lesson has). The caller holds the lessons lock.
 */
export async function changeIndexedLessons<R>(root: string, now: Date, plan: (state: IndexedState) => IndexedPlan<R>): Promise<R | undefined> {
  const cache = openLessonCache(root);
  let vouched: ReturnType<typeof vouchedIndex>;
  try {
    vouched = vouchedIndex(root, cache, await listWorktree(root, cache));
    if (!vouched) return undefined;
    const { index } = vouched;
    // Read whole only when the plan asks (a stale search cache, a new lesson's id): a bump reads the lines it updates.
    let whole: Buffer | undefined;
    const bytes = (): Buffer => (whole ??= bytesAt(index.bytes, [0, index.bytes.length]));
    let lines: readonly IndexLine[] | undefined;
    const { isFresh, openCached, statIndex } = await import('../search/engine.js');
    const cached = openCached(root);
    const stat = statIndex(root);
    const search = stat && isFresh(cached.index, stat, root) ? cached.index : undefined;
    const lessonIn = (file: string): Lesson | undefined => {
      const level = LEVELS.find((candidate) => file.startsWith(`${LESSONS_DIR}/${LEVEL_FOLDERS[candidate]}/`));
      return level === undefined ? undefined : lessonAt(root, file, level);
    };
    let planned: IndexedPlan<R>;
    try {
      planned = plan({
        root,
        policy: loadPolicy(root),
        today: toIsoDate(now),
        search,
        lines: () => {
          lines ??= indexLines(bytes());
          if (lines === undefined) throw new LessonsError('IO', `${INDEX_FILE} is not in the layout \`lessons index\` writes: run \`lessons index\`, then the command again`);
          return lines;
        },
        taken: (id) => bytes().includes(`\n    {"id":${JSON.stringify(id)},`),
        count: (literals) => countLines(bytes(), literals),
        whole: lessonIn,
      });
    } finally {
      cached.close();
    }
    if (planned.writes.length === 0) return planned.result;
    const written = new Set(planned.writes.map((write) => write.path));
    const updated = updateIndex(
      index.bytes,
      { removed: new Set(planned.writes.filter((write) => !write.create).map((write) => write.path)), added: planned.writes.map((write) => loadedFrom(write.lesson, write.path)) },
      // A lesson whose promoted_into the change moves, from its file (a written one is among `added`).
      (file) => {
        const lesson = written.has(file) ? undefined : lessonIn(file);
        return lesson && loadedFrom(lesson, file);
      },
    );
    if (!updated) return undefined;
    const blob = blobIdOf(updated.chunks);
    // The secrets scan is carried over from the index being replaced while it is still the file's.
    await carryIndexScan(root, cache, { blob: vouched.blob, bytes: index.bytes }, blob, updated.lines);
    const files: FileChange[] = planned.writes.map((write) => ({ path: write.path, content: serializeLesson(write.lesson), ...(write.create ? { create: true } : {}) }));
    commitChanges(root, [...files, { path: INDEX_FILE, content: updated.chunks }]);
    newerThanLessons(root);
    rememberEdited(root, cache, vouched.pairs, files, blob, updated.count);
    return planned.result;
  } finally {
    vouched?.index.close();
    await cache.save();
  }
}

/**
 * How many lines of `bytes` hold every one of `literals`: each line that holds the first is
 * found by a native search, and only those are looked into. A literal of JSON keys and values
 * is never part of a string on the line (a string's quotes are escaped).
 */
function countLines(bytes: Buffer, literals: readonly string[]): number {
  const [first, ...rest] = literals.map((literal) => Buffer.from(literal));
  if (first === undefined) return 0;
  let count = 0;
  for (let at = bytes.indexOf(first); at !== -1; ) {
    const start = bytes.lastIndexOf(10, at) + 1;
    let end = bytes.indexOf(10, at);
    if (end === -1) end = bytes.length;
    const holds = rest.every((literal) => {
      const found = bytes.indexOf(literal, start);
      return found !== -1 && found + literal.length <= end;
    });
    if (holds) count++;
    at = bytes.indexOf(first, end);
  }
  return count;
}

/** Where a new lesson of `lesson`'s level goes. */
export function newLessonPath(lesson: Lesson): string {
  return `${LESSONS_DIR}/${LEVEL_FOLDERS[lesson.level]}/${lesson.id}.md`;
}
