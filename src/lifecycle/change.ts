import path from 'node:path';
import { LessonsError } from '../errors.js';
import { indexTextOf } from '../store/index-write.js';
import { readTextIfExists, readMarkdownEntry } from '../io/fs.js';
import { LESSONS_LOCK, withLock } from '../io/lock.js';
import { INDEX_FILE, LESSONS_DIR, findRepoRoot } from '../io/repo.js';
import { commitChanges, recoverChanges, type CommitHooks, type FileChange } from '../io/transaction.js';
import { setFileTimes } from '../io/paths.js';
import { loadWorktreeFacts, openLessonCache, rememberWrittenListing, treeDigest, type LessonFileCache } from '../store/worktree.js';
import { rememberEditedIndex, rememberIndex, rememberedTree, type TreePairs } from '../store/index-memo.js';
import { statMarkOf } from '../store/file-cache.js';
import { blobIdOf, type Chunks } from '../util/digest.js';
import { compareStrings } from '../util/compare.js';
import { parseRead, type LoadedLesson, type LoadedTree, groupById } from '../lesson/load.js';
import { LEVEL_FOLDERS, type Lesson, type Level } from '../lesson/model.js';
import { lessonFoldersMtime } from '../search/engine.js';
import { parseLessonText } from '../lesson/parse.js';
import { lessonNotFound } from '../store/query.js';
import { serializeLesson } from '../lesson/serialize.js';
import { LESSON_RULES } from '../lint/rules.js';
import type { Finding } from '../lesson/finding.js';
import { loadPolicy } from '../policy/validate-policy.js';
import type { Policy } from '../policy/policy.js';
import { validateAgainst } from '../schema/validate.js';
import { toIsoDate } from '../util/dates.js';

export { LESSONS_LOCK };

/** The tree as a lifecycle command sees it, read under the lock. */
export interface TreeState {
  root: string;
  policy: Policy;
  /** Today as YYYY-MM-DD, from the clock passed in. */
  today: string;
  /**
   * Every lesson as the file cache's summary: its fields, checklist and derivations, with an
   * empty body and no unknown keys (only files changed since the last run are parsed).
   */
  lessons: LoadedLesson[];
  /** The whole lesson of an item of `lessons`, body and all, its file parsed again: what a plan changes and writes back. */
  whole: (item: LoadedLesson) => Lesson;
}

export interface LessonWrite {
  lesson: Lesson;
  /** A new lesson: its file must not exist. */
  create?: boolean;
}

export interface Plan<R> {
  writes: LessonWrite[];
  result: R;
}

export interface ChangeOptions {
  cwd: string;
  now: Date;
  hooks?: CommitHooks | undefined;
}

/**
 * Read-modify-write of the lessons tree as one change: under the lessons lock, an unfinished
 * earlier change is rolled back, the tree is loaded through the file cache, `plan` (pure)
 * decides what to write (each lesson it changes taken whole through `state.whole`), and the
 * lessons it returns are written with lessons/index.json all or nothing.
 */
export async function changeLessons<R>(
  options: ChangeOptions & {
    /** Tried first under the lock (after recovery): a change that needs less than the whole tree, or undefined when it cannot be made that way. */
    shortcut?: (root: string) => Promise<R | undefined>;
  },
  plan: (state: TreeState) => Plan<R>,
): Promise<R> {
  const root = findRepoRoot(options.cwd);
  return withLock(root, LESSONS_LOCK, async () => {
    recoverChanges(root);
    const quick = options.shortcut ? await options.shortcut(root) : undefined;
    if (quick !== undefined) return quick;
    // The lessons as the file cache summarises them: only files changed since the last run are parsed.
    const cache = openLessonCache(root);
    try {
      const loaded = await loadWorktreeFacts(root, cache, {});
      const tree = loaded.tree;
      const state: TreeState = { root, policy: loadPolicy(root), today: toIsoDate(options.now), lessons: tree.lessons, whole: (item) => wholeLesson(root, item) };
      const { writes, result } = plan(state);
      if (writes.length === 0) return result;
      const written = writes.map((write) => ({ write, item: loadedFrom(write.lesson, pathOf(state, write.lesson)) }));
      const paths = new Set(written.map(({ item }) => item.path));
      const lessons = [...tree.lessons.filter((item) => !paths.has(item.path)), ...written.map(({ item }) => item)];
      const { text: indexText, count } = indexTextOf({ lessons, problems: tree.problems });
      const changes: FileChange[] = written.map(({ write, item }) => ({
        path: item.path,
        content: serializeLesson(write.lesson),
        ...(write.create ? { create: true } : {}),
      }));
      if (readTextIfExists(path.join(root, INDEX_FILE)) !== indexText) changes.push({ path: INDEX_FILE, content: indexText });
      commitChanges(root, changes, options.hooks);
      if (changes.some((change) => change.path === INDEX_FILE)) newerThanLessons(root);
      // The next change finds this index vouched for (changeIndexedLessons) instead of reading the tree again.
      if (!loaded.irregular) rememberWritten(root, cache, loaded.files, changes.filter((change) => change.path !== INDEX_FILE), indexText, count);
      return result;
    } finally {
      await cache.save();
    }
  });
}

/**
 * Remembers the index of the tree a change left: the tree's (path, blob) pairs with the
 * written files' new blobs, and their stats, so the next run trusts them without reading.
 * Gives the index's blob id (undefined when there are no pairs to remember it by).
 */
export function rememberWritten(root: string, cache: LessonFileCache, before: TreePairs, written: readonly FileChange[], index: string | Chunks | { blob: string }, count: number): string | undefined {
  const blobs = noteWritten(root, cache, written);
  const pairs = before.filter((pair) => !blobs.has(pair.path)).map((pair) => ({ path: pair.path, blob: pair.blob }));
  for (const [file, blob] of blobs) pairs.push({ path: file, blob });
  pairs.sort((a, b) => compareStrings(a.path, b.path));
  const remembered = rememberIndex(root, cache, pairs, index, count, true);
  rememberWrittenListing(root, cache, treeDigest(before), { digest: treeDigest(pairs), count: pairs.length }, blobs);
  return remembered;
}

/**
 * rememberWritten() for a change of the index the cache remembers, the tree `before` being its
 * tree (changeIndexedLessons()): the pairs file is edited (a delta of the written files' blobs)
 * instead of written whole again, when it can be read.
 */
export function rememberEdited(root: string, cache: LessonFileCache, before: TreePairs, written: readonly FileChange[], blob: string, count: number): void {
  const tree = rememberedTree(root, cache);
  if (tree === undefined || tree.count !== before.length) rememberWritten(root, cache, before, written, { blob }, count);
  else {
    const blobs = noteWritten(root, cache, written);
    const after = rememberEditedIndex(root, cache, tree, blobs, blob, count);
    rememberWrittenListing(root, cache, treeDigest(before), after, blobs);
  }
}

/** Each written file's blob id, its stat noted in the cache so the next run trusts it unread. */
function noteWritten(root: string, cache: LessonFileCache, written: readonly FileChange[]): Map<string, string> {
  const blobs = new Map(written.map((file) => [file.path, blobIdOf(file.content)]));
  for (const [file, blob] of blobs) {
    try {
      cache.noteStat(file, blob, statMarkOf(path.join(root, file)));
    } catch {
      // Gone again: the next run reads it.
    }
  }
  return blobs;
}

/**
 * Dates lessons/index.json after the lesson files written with it. A change writes every file's
 * content before it moves any into place, so the index would otherwise look older than the
 * lesson folders, and preflight's search cache would scan every lesson to check it.
 */
export function newerThanLessons(root: string): void {
  const file = path.join(root, INDEX_FILE);
  try {
    // A millisecond past the newest folder: mtimes are compared in milliseconds, and set through a float of seconds.
    const seconds = Math.max(Date.now(), Math.ceil(lessonFoldersMtime(root)) + 1) / 1000;
    setFileTimes(file, seconds);
  } catch {
    // Not ours to date (another owner): preflight checks the content instead.
  }
}

function wholeLesson(root: string, item: LoadedLesson): Lesson {
  if (item.precomputed === undefined) return item.lesson;
  const whole = lessonAt(root, item.path, item.folderLevel);
  if (whole === undefined) throw new LessonsError('IO', `${item.path} changed while it was read: run the command again`);
  return whole;
}

/** The lesson in the file `file` (repo-relative) of a `level` folder, parsed whole; undefined when it does not parse. */
export function lessonAt(root: string, file: string, level: Level): Lesson | undefined {
  const tree: LoadedTree = { lessons: [], problems: [] };
  parseRead(readMarkdownEntry(root, { file: path.join(root, file), kind: 'file' }), level, tree);
  return tree.lessons[0]?.lesson;
}

/** Where a lesson lives: its current file, or the folder of its level for a new one. */
export function pathOf(state: TreeState, lesson: Lesson): string {
  const existing = state.lessons.find((item) => item.lesson.id === lesson.id);
  return existing?.path ?? `${LESSONS_DIR}/${LEVEL_FOLDERS[lesson.level]}/${lesson.id}.md`;
}

/** A lesson as lint sees it, from the exact text the serializer writes. */
export function loadedFrom(lesson: Lesson, path: string): LoadedLesson {
  const parsed = parseLessonText(serializeLesson(lesson));
  if (!parsed.ok) throw new LessonsError('INTERNAL', `the serializer wrote an unreadable lesson ${lesson.id}: ${parsed.problem.message}`);
  return { lesson, path, folderLevel: lesson.level, parsed: parsed.file };
}

export function lookupIn(state: TreeState): (id: string) => Lesson | undefined {
  const byId = new Map<string, Lesson>();
  for (const item of state.lessons) if (!byId.has(item.lesson.id)) byId.set(item.lesson.id, item.lesson);
  return (id) => byId.get(id);
}

export function findLesson(state: TreeState, id: string): LoadedLesson {
  const item = state.lessons.find((candidate) => candidate.lesson.id === id);
  if (item) return item;
  throw lessonNotFound(id, state.lessons.map((candidate) => candidate.lesson.id));
}

/** The first of `base`, `base-2`, `base-3`… that no lesson uses, nor any id in `alsoTaken`. */
export function freeId(state: TreeState, base: string, alsoTaken: ReadonlySet<string> = new Set()): string {
  const taken = new Set(state.lessons.map((item) => item.lesson.id));
  return firstFreeId(base, (id) => taken.has(id) || alsoTaken.has(id));
}

/** The first of `base`, `base-2`, `base-3`… that is not `taken`. */
export function firstFreeId(base: string, taken: (id: string) => boolean): string {
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (!taken(id)) return id;
  }
}

/** The lint errors `lesson` would have in the tree: the same rules `lessons lint` runs, for one lesson. */
export function lessonErrors(state: TreeState, lesson: Lesson): Finding[] {
  const item = loadedFrom(lesson, pathOf(state, lesson));
  const others = state.lessons.filter((other) => other.lesson.id !== lesson.id);
  const context = { policy: state.policy, today: state.today, byId: groupById([...others, item]), schemaErrors: (data: unknown) => validateAgainst('lesson', data) };
  return LESSON_RULES.flatMap((rule) => rule(item, context)).filter((finding) => finding.severity === 'error');
}

/** A refusal the user fixes in content: exit 1, with what is missing. */
export function refuse(message: string): LessonsError {
  return new LessonsError('REFUSED', message, 1);
}
