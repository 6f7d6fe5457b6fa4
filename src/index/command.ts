import fs from 'node:fs';
import { LessonsError } from '../errors.js';
import { writeFileAtomic, writeInRepo } from '../io/fs.js';
import { readIndexText } from '../io/index-file.js';
import { LESSONS_LOCK, withLock } from '../io/lock.js';
import { INDEX_FILE, findRepoRoot } from '../io/repo.js';
import { recoverChanges } from '../io/transaction.js';
import { statMark } from '../io/file-cache.js';
import { silentProgress, type Progress } from '../io/progress.js';
import { INDEX_MEMO, listWorktree, loadWorktreeFacts, openLessonCache, treeDigest, listingPairs, type FactsTree, type LessonFileCache, type WorktreeListing } from '../lesson/cached-load.js';
import type { LoadedTree } from '../lesson/load.js';
import { gitBlobId } from '../util/digest.js';
import { groupById } from '../lint/lint.js';
import { compareFindings, type Finding } from '../lint/finding.js';
import { ID_MAX_LENGTH, ID_PATTERN, LEVELS, STATUSES } from '../lesson/model.js';
import { buildIndex, serializeIndex, type IndexEntry } from './build.js';
import { diffIndexes, type IndexDiff } from './diff.js';
import { parseIndexEntries } from './read.js';

export interface IndexResult {
  path: string;
  lessons: number;
  /** false when the file already had exactly these bytes. */
  written: boolean;
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

/**
 * The index the cache remembers for this tree (each lesson file known by its stat, or read and
 * hashed when only a few are not): its blob id and lesson count. Undefined otherwise.
 */
function rememberedIndex(root: string, cache: LessonFileCache, listing: WorktreeListing): { blob: string; count: number } | undefined {
  const pairs = listingPairs(root, cache, listing);
  const memo = cache.memo(INDEX_MEMO)?.split(' ');
  if (pairs === undefined || memo?.length !== 3 || memo[0] !== treeDigest(pairs)) return undefined;
  return { blob: memo[1]!, count: Number(memo[2]) };
}

/** Whether lessons/index.json holds the blob `blob`, by its stat when the cache vouches for it, else by its bytes. */
function indexFileIs(root: string, cache: LessonFileCache, blob: string): boolean {
  try {
    const stat = statMark(fs.statSync(`${root}/${INDEX_FILE}`, { bigint: true }));
    const trusted = cache.trustedBlob(INDEX_FILE, stat);
    if (trusted !== undefined) return trusted === blob;
    const text = readIndexText(root);
    if (text === undefined || gitBlobId(Buffer.from(text)) !== blob) return false;
    cache.noteStat(INDEX_FILE, blob, stat);
    return true;
  } catch {
    return false;
  }
}

/** Remembers the index of a tree read in full (never of one with links or other irregular entries). */
function rememberIndex(root: string, cache: LessonFileCache, loaded: FactsTree, text: string, count: number, onDisk: boolean): void {
  if (loaded.irregular) return;
  const blob = gitBlobId(Buffer.from(text));
  cache.setMemo(INDEX_MEMO, `${treeDigest(loaded.files)} ${blob} ${count}`);
  if (!onDisk) return;
  try {
    cache.noteStat(INDEX_FILE, blob, statMark(fs.statSync(`${root}/${INDEX_FILE}`, { bigint: true })));
  } catch {
    // Gone again: the next run reads it.
  }
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
 */
export async function writeIndex(options: { cwd: string; progress?: Progress }): Promise<IndexResult> {
  const progress = options.progress ?? silentProgress;
  const root = findRepoRoot(options.cwd);
  return withLock(root, LESSONS_LOCK, async () => {
    recoverChanges(root);
    const cache = openLessonCache(root);
    try {
      const listing = listWorktree(root, cache);
      const known = rememberedIndex(root, cache, listing);
      if (known && indexFileIs(root, cache, known.blob)) return { path: INDEX_FILE, lessons: known.count, written: false };
      const loaded = loadWorktreeFacts(root, cache, {}, listing, progress);
      progress.say(`writing ${INDEX_FILE}`);
      const { text, count } = indexTextOf(loaded.tree);
      const written = readIndexText(root) !== text;
      if (written) writeInRepo(root, INDEX_FILE, text);
      rememberIndex(root, cache, loaded, text, count, true);
      return { path: INDEX_FILE, lessons: count, written };
    } finally {
      progress.end();
      await cache.save();
    }
  });
}

const NO_CHANGES: IndexDiff = { added: [], removed: [], changed: [] };

/** `lessons index --check`: the committed index against the cached entries; what differs is read and compared only when it does. */
export async function checkIndex(options: { cwd: string; progress?: Progress }): Promise<IndexCheckResult> {
  const root = findRepoRoot(options.cwd);
  const progress = options.progress ?? silentProgress;
  const cache = openLessonCache(root);
  try {
    const listing = listWorktree(root, cache);
    const known = rememberedIndex(root, cache, listing);
    if (known && indexFileIs(root, cache, known.blob)) return { path: INDEX_FILE, fresh: true, missing: false, diff: NO_CHANGES };
    const loaded = loadWorktreeFacts(root, cache, {}, listing, progress);
    const { text, count, entries } = indexTextOf(loaded.tree);
    const current = readIndexText(root);
    rememberIndex(root, cache, loaded, text, count, current === text);
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
  const { mergeIndexTexts } = await import('./merge.js');
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
