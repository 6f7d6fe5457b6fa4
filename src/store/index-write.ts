import fs from 'node:fs';
import { LessonsError } from '../errors.js';
import { readMarkdownEntry, writeFileAtomic, writeInRepo } from '../io/fs.js';
import { readIndexText } from '../io/index-file.js';
import { LESSONS_LOCK, withLock } from '../io/lock.js';
import { INDEX_FILE, findRepoRoot } from '../io/repo.js';
import { recoverChanges } from '../io/transaction.js';
import { silentProgress, type Progress } from '../io/progress.js';
import { GIT_VOUCH_MIN, treeDigest, listWorktree, listedLevel, loadWorktreeFacts, openLessonCache, listingPairs, readAtBlob, rememberEdit, startUnchangedWorktree, unchangedWorktree, type LessonFileCache, type WorktreeEdit, type WorktreeListing } from './worktree.js';
import { lessonTree } from '../lesson/facts.js';
import type { LoadedLesson, LoadedTree } from '../lesson/load.js';
import {
  carryIndexScan,
  indexFileIs,
  rememberEditedIndex,
  rememberIndex,
  rememberedBuild,
  rememberedIndex,
  rememberedIndexDigest,
  rememberedIndexOf,
  rememberedTree,
  type OpenIndex,
  type RememberedTree,
  type TreePairs,
} from './index-memo.js';
import { updateIndex, type IndexBytes, type IndexLines } from '../index/update.js';
import { blobIdOf, gitBlobId, type Chunks } from '../util/digest.js';
import { groupById } from '../lesson/load.js';
import { compareFindings, type Finding } from '../lesson/finding.js';
import { ID_MAX_LENGTH, ID_PATTERN, LEVELS, STATUSES } from '../lesson/model.js';
import { buildIndex, serializeIndex, type IndexEntry } from '../index/build.js';
import { diffIndexes, type IndexDiff } from '../index/diff.js';
import { parseIndexEntries } from '../index/read.js';

export interface IndexResult {
  path: string;
  lessons: number;
  /** false when the file already had exactly these bytes. */
  written: boolean;
}

/**
 * The tree of lesson files an index was built from (or found to be the index of): its
 * treeDigest(), and the git blob id of each file, by its path from the repository's top.
 */
export interface IndexedTree {
  digest: string;
  blobOf(path: string): string | undefined;
  /**
   * When the index was built as an update of the index of another tree: that tree's digest, and
   * the ids of the entries the update built again or dropped (every other line is as it was).
   */
  change?: { from: string; touched: readonly string[] };
}

/** A tree given as its pairs, looked up through a map made the first time it is asked. */
function treeOfPairs(pairs: TreePairs): IndexedTree {
  let byPath: Map<string, string> | undefined;
  return {
    digest: treeDigest(pairs),
    blobOf: (path) => (byPath ??= new Map(pairs.map((pair) => [pair.path, pair.blob]))).get(path),
  };
}

export interface IndexCheckResult {
  path: string;
  fresh: boolean;
  missing: boolean;
  diff: IndexDiff;
}

/** What an index entry cannot be built without; every other field falls back to its default. */
function indexabilityIssues(data: Record<string, unknown>): string[] {
  const issues: string[] = [];
  const id = data.id;
  if (typeof id !== 'string' || !ID_PATTERN.test(id) || id.length > ID_MAX_LENGTH) {
    issues.push('id must be kebab-case: lower-case letters, digits and single hyphens (like `case-2026-05-12-missed-manifest`)');
  }
  if (typeof data.title !== 'string' || data.title.trim() === '') issues.push('title is required');
  if (!(LEVELS as readonly unknown[]).includes(data.level)) issues.push(`level must be one of: ${LEVELS.join(', ')}`);
  if (!(STATUSES as readonly unknown[]).includes(data.status)) issues.push(`status must be one of: ${STATUSES.join(', ')}`);
  return issues;
}

/**
 * The index is only as good as the lessons: files that cannot be parsed, clashing ids and
 * lessons without a usable id, title, level or status stop it, so a committed index never
 * silently leaves a lesson out. The rest of the schema is lint's job (and the guard's): a field
 * with a wrong value is indexed at its default, and `lessons lint` reports it. This keeps ajv,
 * and its compile time, out of a command that runs after every change.
 */
function indexBlockers(tree: LoadedTree): Finding[] {
  const blockers: Finding[] = tree.problems.filter((problem) => problem.severity === 'error' && problem.rule !== 'format');
  for (const [id, items] of groupById(tree.lessons)) {
    if (items.length > 1) blockers.push({ rule: 'unique-id', severity: 'error', file: items[1]!.path, message: `id \`${id}\` is used by ${items.length} files` });
  }
  for (const item of tree.lessons) {
    for (const message of indexabilityIssues(item.parsed.data)) blockers.push({ rule: 'schema', severity: 'error', file: item.path, message });
  }
  return blockers.sort(compareFindings);
}

/** The index of a loaded tree, or an error naming what keeps the tree from having one. */
export function indexTextOf(tree: LoadedTree): { text: string; count: number; entries: IndexEntry[] } {
  const blockers = indexBlockers(tree);
  if (blockers.length > 0) {
    const shown = blockers.slice(0, 10).map((finding) => `  ${finding.file}: ${finding.message}`);
    if (blockers.length > 10) shown.push(`  … and ${blockers.length - 10} more`);
    throw new LessonsError('INVALID_LESSON', `cannot build ${INDEX_FILE}: ${blockers.length} problem${blockers.length === 1 ? '' : 's'} in the lessons:\n${shown.join('\n')}\nrun \`lessons lint\` and fix them first`, 1);
  }
  const index = buildIndex(tree.lessons);
  return { text: serializeIndex(index), count: index.lessons.length, entries: index.lessons };
}

/**
 * Under the lessons lock, like every other writer of lessons or the index: an index built from a
 * tree read before a concurrent capture, and written after it, would leave the capture out.
 * `afterwards` runs under the same lock once the index is written or found fresh, with the tree
 * the index is of (undefined when the tree has irregular files, or was not read), so what it
 * builds on that tree cannot interleave with another writer.
 */
export async function writeIndex(options: { cwd: string; progress?: Progress; afterwards?: (result: IndexResult, tree: IndexedTree | undefined) => Promise<void> }): Promise<IndexResult> {
  const root = findRepoRoot(options.cwd);
  return withLock(root, LESSONS_LOCK, async () => {
    const { result, tree } = await indexUnderLock(root, options.progress ?? silentProgress);
    await options.afterwards?.(result, tree);
    return result;
  });
}

async function indexUnderLock(root: string, progress: Progress): Promise<{ result: IndexResult; tree: IndexedTree | undefined }> {
  recoverChanges(root);
  const cache = openLessonCache(root);
  // The remembered index an update reads from, open until the update is written.
  let opened: OpenIndex | undefined;
  try {
    // Nothing changed since a listing git vouched for: the tree's digest says whether the index is its index.
    const pending = startUnchangedWorktree(root, cache);
    // The remembered tree is read while git looks at the files (an edit needs it).
    const baseTree = pending && rememberedTree(root, cache);
    const quick = (await pending?.result()) ?? {};
    // Files rewritten with the bytes they had (saved unchanged, touched) leave the remembered tree as it was.
    const unedited = quick.edit && baseTree && quick.edit.files.every((file) => baseTree.blobOf(file.path) === file.blob) ? quick.edit : undefined;
    const same = quick.tree ?? unedited?.base;
    const fresh = same && rememberedIndexOf(cache, same.digest);
    if (fresh && indexFileIs(root, cache, fresh.blob)) {
      if (unedited) rememberEdit(cache, unedited, unedited.base);
      const tree = baseTree && { digest: same.digest, blobOf: (path: string) => baseTree.blobOf(path) };
      return { result: { path: INDEX_FILE, lessons: fresh.count, written: false }, tree };
    }
    // A few files edited since: the remembered index, updated for them.
    const edited = quick.edit && editedIndex(root, cache, quick.edit, baseTree);
    if (edited) {
      opened = edited.before;
      progress.say(`writing ${INDEX_FILE}`);
      // The secrets scan is carried over from the index being replaced while it is still the file's.
      await carryIndexScan(root, cache, edited.before, edited.blob, edited.lines);
      if (edited.written) writeInRepo(root, INDEX_FILE, edited.chunks);
      const tree = rememberEditedIndex(root, cache, edited.before.tree, edited.edits, edited.blob, edited.count);
      rememberEdit(cache, quick.edit!, tree);
      const before = edited.before.tree;
      const blobOf = (path: string): string | undefined => edited.edits.get(path) ?? before.blobOf(path);
      const change = { from: quick.edit!.base.digest, touched: edited.touched };
      return { result: { path: INDEX_FILE, lessons: edited.count, written: edited.written }, tree: { digest: tree.digest, blobOf, change } };
    }
    const listing = await listWorktree(root, cache, GIT_VOUCH_MIN, quick.started);
    const pairs = listingPairs(root, cache, listing);
    const known = pairs && rememberedIndex(cache, pairs);
    if (known && indexFileIs(root, cache, known.blob)) return { result: { path: INDEX_FILE, lessons: known.count, written: false }, tree: treeOfPairs(pairs) };
    // The tree whose index an update starts from (rememberIndex() below remembers the new one).
    const from = rememberedIndexDigest(cache);
    const updated = pairs && updatedIndex(root, cache, listing, pairs);
    opened = updated?.before;
    let built: { index: string | Chunks; blob?: string; count: number; written: boolean; pairs: TreePairs | undefined };
    if (updated) built = { index: updated.chunks, blob: updated.blob, count: updated.count, written: updated.blob !== updated.before.blob, pairs };
    else {
      const loaded = await loadWorktreeFacts(root, cache, {}, listing, progress);
      const { text, count } = indexTextOf(loaded.tree);
      built = { index: text, count, written: readIndexText(root) !== text, pairs: loaded.irregular ? undefined : loaded.files };
    }
    progress.say(`writing ${INDEX_FILE}`);
    if (updated) await carryIndexScan(root, cache, updated.before, updated.blob, updated.lines);
    if (built.written) writeInRepo(root, INDEX_FILE, built.index);
    rememberIndex(root, cache, built.pairs, built.blob !== undefined ? { blob: built.blob } : built.index, built.count, true);
    const tree = built.pairs && treeOfPairs(built.pairs);
    if (tree && updated && from !== undefined) tree.change = { from, touched: updated.touched };
    return { result: { path: INDEX_FILE, lessons: built.count, written: built.written }, tree };
  } finally {
    opened?.close();
    progress.end();
    await cache.save();
  }
}

/** How many files may differ from the remembered index's tree for the index to be updated rather than built whole. */
export const UPDATE_MAX = 256;

/**
 * The index of the working tree as an update of the remembered one (update.ts), reading only
 * the files that differ from its tree and the lessons whose `promoted_into` they change; undefined
 * when there is none to update, too much changed, or a changed file stops the index (the whole
 * build then reports it).
 */
function updatedIndex(
  root: string,
  cache: LessonFileCache,
  listing: WorktreeListing,
  pairs: TreePairs,
): { chunks: Chunks; blob: string; count: number; lines: IndexLines; touched: string[]; before: OpenIndex & { blob: string } } | undefined {
  const remembered = rememberedBuild(root, cache);
  if (remembered === undefined) return undefined;
  const { changed, removed } = changeFrom(remembered.tree.pairs(), pairs);
  if (changed.length + removed.size > UPDATE_MAX) {
    remembered.close();
    return undefined;
  }
  const byPath = new Map(listing.files.map((file) => [file.path, file]));
  /** A file's lesson, from bytes that are still the blob the listing has for it. */
  const lessonOf = (path: string) => {
    const file = byPath.get(path);
    const read = file && (file.read ? { kind: 'file' as const, bytes: file.read } : readMarkdownEntry(root, file.entry));
    if (read?.kind !== 'file' || gitBlobId(read.bytes) !== file!.blob) return undefined;
    return lessonTree(path, read.bytes, file!.level);
  };
  return closedUnless(remembered, () => indexAfter(remembered.bytes, changed, removed, lessonOf));
}

/** The update `make` gives, with its blob id and the remembered index it reads from, which stays open; without an update (or on an error), the remembered index closed. */
function closedUnless<R extends OpenIndex, U extends { chunks: Chunks }>(remembered: R, make: () => U | undefined): (U & { blob: string; before: R }) | undefined {
  try {
    const update = make();
    if (update !== undefined) return { ...update, blob: blobIdOf(update.chunks), before: remembered };
  } catch (error) {
    remembered.close();
    throw error;
  }
  remembered.close();
  return undefined;
}

/**
 * The index of a working tree that is an edit of the remembered index's tree (unchangedWorktree()):
 * the remembered index updated for the edited files, reading no other file but the lessons whose
 * `promoted_into` they change. Undefined when the remembered index is of another tree, or the
 * update cannot apply.
 */
function editedIndex(
  root: string,
  cache: LessonFileCache,
  edit: WorktreeEdit,
  baseTree: RememberedTree | undefined,
): { chunks: Chunks; blob: string; count: number; written: boolean; edits: Map<string, string>; lines: IndexLines; touched: string[]; before: OpenIndex & { blob: string; tree: RememberedTree } } | undefined {
  if (rememberedIndexDigest(cache) !== edit.base.digest) return undefined;
  const remembered = rememberedBuild(root, cache, baseTree);
  if (remembered === undefined) return undefined;
  const { tree } = remembered;
  // An edit changes the blobs of the remembered tree's files: the same files, as many.
  if (tree.count !== edit.base.count || !edit.files.every((file) => tree.blobOf(file.path) !== undefined)) {
    remembered.close();
    return undefined;
  }
  const changed = edit.files.filter((file) => file.blob !== tree.blobOf(file.path));
  const byPath = new Map(edit.files.map((file) => [file.path, file]));
  /** A file's lesson: an edited one from the bytes read, any other when its bytes are still the remembered blob. */
  const lessonOf = (path: string): LoadedTree | undefined => {
    const file = byPath.get(path);
    const level = file?.level ?? listedLevel(root, path);
    const bytes = file?.bytes ?? readAtBlob(root, path, tree.blobOf(path));
    return level === undefined || bytes === undefined ? undefined : lessonTree(path, bytes, level);
  };
  const paths = changed.map((file) => file.path);
  const done = closedUnless(remembered, () => indexAfter(remembered.bytes, paths, new Set(paths), lessonOf));
  return done && { ...done, written: done.blob !== remembered.blob, edits: new Map(edit.files.map((file) => [file.path, file.blob])) };
}

/** What turns the remembered tree into `pairs`: the paths added or of another blob, and the remembered paths gone or replaced. */
export function changeFrom(remembered: ReadonlyMap<string, string>, pairs: TreePairs): { changed: string[]; removed: Set<string> } {
  const now = new Set(pairs.map((pair) => pair.path));
  const changed = pairs.filter((pair) => remembered.get(pair.path) !== pair.blob).map((pair) => pair.path);
  const removed = new Set([...remembered.keys()].filter((path) => !now.has(path)));
  for (const path of changed) if (remembered.has(path)) removed.add(path);
  return { changed, removed };
}

/**
 * The index after `changed` (paths the tree adds or whose blob differs) and `removed` (paths it
 * no longer has at the remembered blob) from the remembered index bytes: undefined when a
 * changed file holds no single lesson the index can take, or the update cannot apply (the whole
 * build then reports what stops it). `lessonOf` reads a lesson of the tree by path.
 */
export function indexAfter(
  remembered: IndexBytes,
  changed: readonly string[],
  removed: ReadonlySet<string>,
  lessonOf: (path: string) => LoadedTree | undefined,
): { chunks: Chunks; count: number; lines: IndexLines; touched: string[] } | undefined {
  const added: LoadedLesson[] = [];
  for (const path of changed) {
    const tree = lessonOf(path);
    if (tree === undefined || tree.lessons.length !== 1 || indexBlockers(tree).length > 0) return undefined;
    added.push(tree.lessons[0]!);
  }
  return updateIndex(remembered, { removed, added }, (path) => {
    const tree = lessonOf(path);
    return tree?.lessons.length === 1 ? tree.lessons[0] : undefined;
  });
}

const NO_CHANGES: IndexDiff = { added: [], removed: [], changed: [] };

/** `lessons index --check`: the committed index against the cached entries; what differs is read and compared only when it does. */
export async function checkIndex(options: { cwd: string; progress?: Progress }): Promise<IndexCheckResult> {
  const root = findRepoRoot(options.cwd);
  const progress = options.progress ?? silentProgress;
  const cache = openLessonCache(root);
  try {
    const quick = await unchangedWorktree(root, cache);
    const fresh = quick.tree && rememberedIndexOf(cache, quick.tree.digest);
    if (fresh && indexFileIs(root, cache, fresh.blob)) return { path: INDEX_FILE, fresh: true, missing: false, diff: NO_CHANGES };
    const listing = await listWorktree(root, cache, GIT_VOUCH_MIN, quick.started);
    const pairs = listingPairs(root, cache, listing);
    const known = pairs && rememberedIndex(cache, pairs);
    if (known && indexFileIs(root, cache, known.blob)) return { path: INDEX_FILE, fresh: true, missing: false, diff: NO_CHANGES };
    const loaded = await loadWorktreeFacts(root, cache, {}, listing, progress);
    const { text, count, entries } = indexTextOf(loaded.tree);
    const current = readIndexText(root);
    rememberIndex(root, cache, loaded.irregular ? undefined : loaded.files, text, count, current === text);
    if (current === undefined) return { path: INDEX_FILE, fresh: false, missing: true, diff: diffIndexes([], entries) };
    if (current === text) return { path: INDEX_FILE, fresh: true, missing: false, diff: NO_CHANGES };
    return { path: INDEX_FILE, fresh: false, missing: false, diff: diffIndexes(parseIndexEntries(current) ?? [], entries) };
  } finally {
    progress.end();
    await cache.save();
  }
}

export interface IndexMergeOutcome {
  merged: boolean;
  conflicts: string[];
}

/**
 * `lessons index --merge <base> <ours> <theirs>`, as git's merge driver calls it: the merged
 * index replaces `ours` (git's %A); on a conflict `ours` is left as it was and git reports the
 * file as conflicted.
 */
export async function mergeIndexFiles(files: { base: string; ours: string; theirs: string }): Promise<IndexMergeOutcome> {
  const { mergeIndexTexts } = await import('../index/merge.js');
  const read = (file: string): string => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (error) {
      throw new LessonsError('USAGE', `cannot read ${file}: ${(error as Error).message} (git passes the three versions as %O %A %B)`);
    }
  };
  const result = mergeIndexTexts(read(files.base), read(files.ours), read(files.theirs));
  if (result.text === undefined) return { merged: false, conflicts: result.conflicts };
  writeFileAtomic(files.ours, result.text);
  return { merged: true, conflicts: [] };
}
