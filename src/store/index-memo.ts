import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { LessonsError } from '../errors.js';
import { FILE_CACHE_DIR, statMark, statMarkOf } from './file-cache.js';
import { openRegularFile, readRecords, readRegularFile, writeInRepo } from '../io/fs.js';
import { pathInside } from '../io/inside.js';
import { INDEX_FILE } from '../io/repo.js';
import { ensureStateDir } from '../io/state.js';
import { INDEX_MEMO, listingPairs, treeDigest, type LessonFileCache, type WorktreeListing } from './worktree.js';
import { blobIdOf, type Chunks } from '../util/digest.js';
import { compareStrings } from '../util/compare.js';
import { TreeRecords } from './tree-records.js';
import { WINDOW, type IndexBytes, type IndexLines } from '../index/update.js';

/**
 * What the file cache remembers of the last index written or found fresh: the memo
 * `<tree digest> <blob id of lessons/index.json> <lesson count>`, and beside it the tree's
 * (path, blob id) pairs, so the next change is applied to that index instead of building it
 * again. The pairs file starts with the memo it belongs to: one that does not match the memo
 * (a save that failed, another run's) is not used.
 */
export const INDEX_TREE_FILE = `${FILE_CACHE_DIR}/index-tree`;

export type TreePairs = readonly { path: string; blob: string }[];

/** The index the cache remembers for exactly this tree: its blob id and lesson count. */
export function rememberedIndex(cache: LessonFileCache, pairs: TreePairs): { blob: string; count: number } | undefined {
  return rememberedIndexOf(cache, treeDigest(pairs));
}

/** The treeDigest() of the tree whose index the cache remembers. */
export function rememberedIndexDigest(cache: LessonFileCache): string | undefined {
  const memo = cache.memo(INDEX_MEMO)?.split(' ');
  return memo?.length === 3 ? memo[0] : undefined;
}

/** The index the cache remembers for the tree of this treeDigest(). */
export function rememberedIndexOf(cache: LessonFileCache, digest: string): { blob: string; count: number } | undefined {
  const memo = cache.memo(INDEX_MEMO)?.split(' ');
  if (memo?.length !== 3 || memo[0] !== digest) return undefined;
  return { blob: memo[1]!, count: Number(memo[2]) };
}

/** Whether lessons/index.json holds the blob `blob`, by its stat when the cache vouches for it, else by its bytes. */
export function indexFileIs(root: string, cache: LessonFileCache, blob: string): boolean {
  try {
    // Vouched for by its stat, the file is not opened.
    const trusted = cache.trustedBlob(INDEX_FILE, statMarkOf(`${root}/${INDEX_FILE}`));
    if (trusted !== undefined) return trusted === blob;
  } catch {
    return false;
  }
  const opened = openIndexIf(root, cache, blob);
  opened?.close();
  return opened !== undefined;
}

/** lessons/index.json, open, with its bytes read as they are asked for. */
export interface OpenIndex {
  bytes: IndexBytes;
  close(): void;
}

/** The first `length` bytes of the open file `fd`, read at their positions (the file's offset is not used). */
export function bytesOfFile(fd: number, length: number, windowSize = WINDOW): IndexBytes {
  const buffer = Buffer.allocUnsafe(windowSize);
  return {
    length,
    windowSize,
    window(start, end) {
      for (let done = 0; done < end - start; ) {
        const read = fs.readSync(fd, buffer, done, end - start - done, start + done);
        if (read === 0) throw new Error('the index file was cut short while it was read');
        done += read;
      }
      return buffer.subarray(0, end - start);
    },
  };
}

/**
 * lessons/index.json opened when it holds the blob `blob` (its stat vouched for by the cache, or
 * its bytes hashed as they are read through), else undefined. Its bytes are read from the open
 * file as they are asked for, never held whole; a read that finds the file changed since it was
 * opened (written in place: every writer of ours replaces it) throws. The caller closes it.
 */
export function openIndexIf(root: string, cache: LessonFileCache, blob: string): OpenIndex | undefined {
  let fd: number | undefined;
  try {
    fd = openRegularFile(`${root}/${INDEX_FILE}`);
    const raw = fs.fstatSync(fd, { bigint: true });
    const stat = statMark(raw);
    const trusted = cache.trustedBlob(INDEX_FILE, stat);
    if (trusted !== undefined && trusted !== blob) throw new Error('another index');
    const file = bytesOfFile(fd, Number(raw.size));
    const opened = fd;
    // Its content as it was opened: a write in place changes its size or mtime (its ctime also
    // changes when our own rename replaces it, which leaves the open file's bytes as they were).
    const content = (stat: fs.BigIntStats): string => `${stat.size}:${stat.mtimeNs}:${stat.ino}`;
    const atOpen = content(raw);
    const bytes: IndexBytes = {
      length: file.length,
      windowSize: file.windowSize,
      window(start, end) {
        const piece = file.window(start, end);
        if (content(fs.fstatSync(opened, { bigint: true })) !== atOpen) throw new LessonsError('IO', `${INDEX_FILE} changed while it was read: run the command again`);
        return piece;
      },
    };
    if (trusted === undefined) {
      const hash = createHash('sha1').update(`blob ${bytes.length}\0`);
      for (let at = 0; at < bytes.length; at += bytes.windowSize) hash.update(bytes.window(at, Math.min(bytes.length, at + bytes.windowSize)));
      if (hash.digest('hex') !== blob) throw new Error('another index');
      cache.noteStat(INDEX_FILE, blob, stat);
    }
    return { bytes, close: () => fs.closeSync(opened) };
  } catch {
    if (fd !== undefined) fs.closeSync(fd);
    return undefined;
  }
}

/** The remembered index's bytes and the tree it was built from (`read` already, or read now), when lessons/index.json still holds it. */
export function rememberedBuild(root: string, cache: LessonFileCache, read?: RememberedTree): (OpenIndex & { blob: string; tree: RememberedTree }) | undefined {
  const tree = read ?? rememberedTree(root, cache);
  const blob = cache.memo(INDEX_MEMO)?.split(' ')[1];
  const opened = tree && blob !== undefined ? openIndexIf(root, cache, blob) : undefined;
  return opened === undefined ? undefined : { ...opened, blob: blob!, tree: tree! };
}

/**
 * The pairs file as a delta over INDEX_TREE_FILE: `<memo>`, `<the base file's memo>`, then
 * `<path>`, `<blob>` for each file added or of another blob and `<path>`, `` for each removed,
 * each ended by a NUL. A change of a few lessons writes this, not the whole tree (12 MB at 100,000
 * lessons); the base is written again once the delta passes a fiftieth of it.
 */
export const INDEX_TREE_DELTA = `${FILE_CACHE_DIR}/index-tree.delta`;

/** The fewest entries a delta may hold (or a fiftieth of the base) before the base is written again. */
const TREE_DELTA_MIN = 256;

/** The pairs file's base as this process last read it, for a delta over it. */
let lastBase: { root: string; memo: string; tree: TreeRecords } | undefined;

/**
 * The tree whose index the cache remembers (rememberedIndexDigest() is its digest): the pairs
 * file's records, with its delta over them. Looked up by path, and digested with a few edits,
 * without splitting it into pairs.
 */
export class RememberedTree {
  /** How many pairs the tree has. */
  readonly count: number;

  constructor(
    readonly base: TreeRecords,
    readonly baseMemo: string,
    /** Each path the delta changes: its blob, or '' where it is gone. */
    readonly delta: ReadonlyMap<string, string>,
  ) {
    let count = base.size;
    for (const [path, blob] of delta) count += (blob !== '' ? 1 : 0) - (base.blobOf(path) !== undefined ? 1 : 0);
    this.count = count;
  }

  blobOf(path: string): string | undefined {
    const changed = this.delta.get(path);
    return changed === undefined ? this.base.blobOf(path) : changed === '' ? undefined : changed;
  }

  /** Every pair, in path order. */
  pairs(): Map<string, string> {
    const pairs = this.base.pairs();
    if (this.delta.size === 0) return pairs;
    let added = false;
    for (const [path, blob] of this.delta) {
      if (blob === '') pairs.delete(path);
      else {
        added ||= !pairs.has(path);
        pairs.set(path, blob);
      }
    }
    return added ? new Map([...pairs].sort((a, b) => compareStrings(a[0], b[0]))) : pairs;
  }

  /** The delta and its edits over it (a path to its new blob), as changes to the base. */
  changesWith(edits: ReadonlyMap<string, string>): Map<string, string> {
    const changes = new Map(this.delta);
    for (const [path, blob] of edits) {
      if (this.base.blobOf(path) === blob) changes.delete(path);
      else changes.set(path, blob);
    }
    return changes;
  }
}

/** The tree whose index the cache remembers, from the pairs file and its delta; undefined when there is none to trust. */
export function rememberedTree(root: string, cache: LessonFileCache): RememberedTree | undefined {
  const memo = cache.memo(INDEX_MEMO);
  if (memo === undefined) return undefined;
  let bytes: Buffer;
  try {
    bytes = readRegularFile(pathInside(root, INDEX_TREE_FILE));
  } catch {
    return undefined;
  }
  const headEnd = bytes.indexOf(0);
  const base = headEnd === -1 ? undefined : TreeRecords.of(bytes, headEnd + 1);
  if (base === undefined) return undefined;
  const baseMemo = bytes.toString('utf8', 0, headEnd);
  lastBase = { root, memo: baseMemo, tree: base };
  if (baseMemo === memo) return new RememberedTree(base, baseMemo, new Map());
  const delta = pairRecords(root, INDEX_TREE_DELTA, 2);
  if (delta?.head[0] !== memo || delta.head[1] !== baseMemo) return undefined;
  return new RememberedTree(base, baseMemo, delta.pairs);
}

/** The (path, blob id) pairs of the tree whose index the cache remembers (rememberedIndexDigest() is its digest), in path order. */
export function rememberedPairs(root: string, cache: LessonFileCache): Map<string, string> | undefined {
  return rememberedTree(root, cache)?.pairs();
}

/** A pairs file: its `heads` leading records, then (path, blob) pairs; undefined when it cannot be read or is not one. */
function pairRecords(root: string, file: string, heads: number): { head: string[]; pairs: Map<string, string> } | undefined {
  let records: string[];
  try {
    records = readRecords(pathInside(root, file), '\0');
  } catch {
    return undefined;
  }
  if (records.length < heads + 1 || (records.length - heads) % 2 !== 1 || records.at(-1) !== '') return undefined;
  const pairs = new Map<string, string>();
  for (let i = heads; i < records.length - 1; i += 2) pairs.set(records[i]!, records[i + 1]!);
  return { head: records.slice(0, heads), pairs };
}

/** The memo the pairs file's base starts with, read from its head alone. */
function baseMemoOnDisk(root: string): string | undefined {
  try {
    const fd = openRegularFile(pathInside(root, INDEX_TREE_FILE));
    try {
      const head = Buffer.alloc(512);
      const read = fs.readSync(fd, head, 0, head.length, 0);
      const end = head.indexOf(0);
      return end === -1 || end >= read ? undefined : head.toString('utf8', 0, end);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Remembers the index of a tree of regular files (the caller passes no pairs for one with links or other irregular entries). */
export function rememberIndex(
  root: string,
  cache: LessonFileCache,
  pairs: TreePairs | undefined,
  index: string | Uint8Array | Chunks | { blob: string },
  count: number,
  onDisk: boolean,
): string | undefined {
  if (pairs === undefined) return undefined;
  const blob = typeof index === 'object' && 'blob' in index ? index.blob : blobIdOf(index);
  const memo = `${treeDigest(pairs)} ${blob} ${count}`;
  cache.setMemo(INDEX_MEMO, memo);
  writePairs(root, () => writeTreeDelta(root, memo, pairs), () => pairs.map((pair) => `${pair.path}\0${pair.blob}\0`).join(''), memo);
  if (onDisk) noteIndexStat(root, cache, blob);
  return blob;
}

/**
 * Remembers the index `lessons/index.json` now holds (`blob`, of `count` lessons) as the index of
 * the remembered tree with `edits` made (a path of the tree to its new blob): its digest made
 * from the pairs file's records as they stand, and the pairs file as a delta, the old delta with
 * the edits over it. Gives the edited tree's digest and count.
 */
export function rememberEditedIndex(root: string, cache: LessonFileCache, tree: RememberedTree, edits: ReadonlyMap<string, string>, blob: string, count: number): { digest: string; count: number } {
  const changes = tree.changesWith(edits);
  const edited = tree.base.digestWith(changes);
  const memo = `${edited.digest} ${blob} ${count}`;
  cache.setMemo(INDEX_MEMO, memo);
  const limit = Math.max(TREE_DELTA_MIN, tree.base.size / 50);
  const delta = (): boolean => {
    if (changes.size > limit || baseMemoOnDisk(root) !== tree.baseMemo) return false;
    const entries = [...changes].sort((a, b) => compareStrings(a[0], b[0])).map(([path, changed]) => `${path}\0${changed}\0`);
    writeInRepo(root, INDEX_TREE_DELTA, `${memo}\0${tree.baseMemo}\0${entries.join('')}`, { durable: false });
    return true;
  };
  const whole = (): string => {
    const pairs = tree.pairs();
    for (const [path, changed] of edits) pairs.set(path, changed);
    return [...pairs].map(([path, changed]) => `${path}\0${changed}\0`).join('');
  };
  writePairs(root, delta, whole, memo);
  noteIndexStat(root, cache, blob);
  return edited;
}

/** Writes the pairs file: the delta when `delta` writes one, else the base whole (`records`) and no delta. Never throws: without it the next change builds the whole index. */
function writePairs(root: string, delta: () => boolean, records: () => string, memo: string): void {
  try {
    ensureStateDir(root);
    if (!delta()) {
      writeInRepo(root, INDEX_TREE_FILE, `${memo}\0${records()}`, { durable: false });
      fs.rmSync(pathInside(root, INDEX_TREE_DELTA), { force: true });
    }
  } catch {
    // Not writable: the next change builds the whole index.
  }
}

/** Pins lessons/index.json's stat to `blob`, the bytes just written or found there. */
function noteIndexStat(root: string, cache: LessonFileCache, blob: string): void {
  try {
    cache.noteStat(INDEX_FILE, blob, statMarkOf(`${root}/${INDEX_FILE}`));
  } catch {
    // Gone again: the next run reads it.
  }
}

/** Writes `pairs` as a delta over the base this process read, when that base is still on disk and the delta is small; whether it did. */
function writeTreeDelta(root: string, memo: string, pairs: TreePairs): boolean {
  const base = lastBase;
  if (base?.root !== root || baseMemoOnDisk(root) !== base.memo) return false;
  const limit = Math.max(TREE_DELTA_MIN, base.tree.size / 50);
  const basePairs = base.tree.pairs();
  const entries: string[] = [];
  let kept = 0;
  for (const { path, blob } of pairs) {
    const before = basePairs.get(path);
    if (before === blob) kept++;
    else entries.push(`${path}\0${blob}\0`);
    if (entries.length > limit) return false;
  }
  // Every base path not among the kept ones or the changed ones is gone.
  if (kept < basePairs.size) {
    const now = new Set(pairs.map((pair) => pair.path));
    for (const path of basePairs.keys()) if (!now.has(path)) entries.push(`${path}\0\0`);
  }
  if (entries.length > limit) return false;
  writeInRepo(root, INDEX_TREE_DELTA, `${memo}\0${base.memo}\0${entries.join('')}`, { durable: false });
  return true;
}

/**
 * The working tree's (path, blob id) pairs and lessons/index.json, open, when the cache vouches
 * that this index is the one the tree gives (its memo names this tree and the file holds that
 * blob); undefined otherwise, and the caller reads the tree. What `lessons index` finds when
 * nothing changed, for a writer that changes a few lessons of the index (capture). The caller
 * closes the index.
 */
export function vouchedIndex(root: string, cache: LessonFileCache, listing: WorktreeListing): { pairs: { path: string; blob: string }[]; index: OpenIndex; blob: string } | undefined {
  const pairs = listingPairs(root, cache, listing);
  const remembered = pairs && rememberedIndex(cache, pairs);
  const index = remembered && openIndexIf(root, cache, remembered.blob);
  return index && { pairs: pairs!, index, blob: remembered!.blob };
}

/**
 * Keeps the secrets scan of an index updateIndex() made (blob `after`) when the file cache holds
 * the scan of the index it updated (`before`): the guard then finds the new index scanned, and
 * reads none of it (100 MB at 100,000 lessons). Only the lines built again are scanned. Nothing
 * when the guard never scanned `before`.
 */
export async function carryIndexScan(root: string, cache: LessonFileCache, before: { blob: string; bytes: IndexBytes }, after: string | undefined, lines: IndexLines): Promise<void> {
  if (after === undefined || after === before.blob || cache.get(INDEX_FILE, before.blob)?.secrets?.index === undefined) return;
  // Loaded here: only a repository whose guard scanned the index comes this way.
  const { carryIndexSecrets } = await import('../secrets/scan.js');
  carryIndexSecrets(root, cache, before, after, lines);
}
