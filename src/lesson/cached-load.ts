import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { FileCache, RACY_MS, statMark, type StatMark } from '../io/file-cache.js';
import { fileSteps, silentProgress, type Progress } from '../io/progress.js';
import { entryKind, listMarkdownFiles, readMarkdownEntry, statIdentity, toPosixRelative, type FileRead, type MarkdownEntry } from '../io/fs.js';
import { resolvesInside } from '../io/inside.js';
import { packageFile } from '../package-root.js';
import { POLICY_FILE, lessonDirs } from '../io/repo.js';
import { gitAnswersCheaply, gitIndexFile, gitVouchedBlobs, startGitListing, type GitListing } from '../io/git/vouched.js';
import { compareStrings } from '../util/compare.js';
import { gitBlobId, sha256 } from '../util/digest.js';
import { FACTS_VERSION, addFacts, factsCover, factsOf, type FactsWanted, type LessonFacts } from './facts.js';
import { parseRead, type LoadedTree } from './load.js';
import type { Level } from './model.js';

export type LessonFileCache = FileCache<LessonFacts>;

/** Reads lesson files of a side (the working tree, the git index, a commit) by lessons-root-relative path; absent files are left out. */
export type ReadFiles = (paths: readonly string[]) => Promise<Map<string, Uint8Array>>;


let codeVersion: string | undefined;

/** The code and the formats the facts depend on: package.json (its version) and the schemas. */
function codeKey(): string {
  codeVersion ??= sha256(
    [fs.readFileSync(packageFile('package.json'), 'utf8'), ...['lesson', 'policy'].map((name) => fs.readFileSync(packageFile('schemas', `${name}.schema.json`), 'utf8'))].join('\0'),
  );
  return codeVersion;
}

/**
 * The repository's file cache, keyed by the code's version, the schemas and the policy file's
 * bytes. (Facts that depend on the policy carry their own digest too: the secrets rules.)
 */
export function openLessonCache(root: string): LessonFileCache {
  let policy = '';
  try {
    policy = fs.readFileSync(`${root}/${POLICY_FILE}`, 'utf8');
  } catch {
    // No policy file: the defaults.
  }
  return new FileCache<LessonFacts>(root, sha256(`${codeKey()}\0${FACTS_VERSION}\0${policy}`));
}

/** One lesson file of the working tree, with its stat and, when the cache vouches for it, its blob id. */
interface Listed {
  path: string;
  level: Level;
  entry: MarkdownEntry;
  stat?: StatMark;
  blob?: string;
  /** The bytes, when listingPairs read them already (the stat was taken before). */
  read?: Buffer;
  /** Listed through git (gitVouchedBlobs), not stat'ed: the blob is git's, or (when git does not vouch for the file) the file is read. */
  byGit?: boolean;
}

/** The working tree's lesson files, stat'ed, before anything is read. */
export interface WorktreeListing {
  files: Listed[];
  /** Links, folders and other entries that are not regular files: always read, never cached. */
  irregular: boolean;
  /** The listingIdentity() to remember the listing's tree under (LISTING_MEMO), when git vouched for all of it. */
  remember?: string | undefined;
}

/**
 * How many lesson files a listing has before git is asked which of them it vouches for
 * (gitVouchedBlobs): below it a stat of each file and the stat table cost less than starting git.
 */
export const GIT_VOUCH_MIN = 2_000;

/**
 * The working tree's lesson files and, where known without reading a file, its blob id: git's
 * for the files git vouches for (from `gitFrom` files on), else the stat table's for a file whose
 * stat it recorded. A file with no blob is read by whoever needs its content.
 */
export async function listWorktree(root: string, cache: LessonFileCache, gitFrom = GIT_VOUCH_MIN, started?: GitListing): Promise<WorktreeListing> {
  const dirs = lessonDirs(root);
  const folderOf = (dir: string): string => `${toPosixRelative(root, dir)}/`;
  // Taken before anything is listed: a change made during the listing makes the next run's differ.
  const identity = listingIdentity(root, Date.now());
  // A repository that had enough lessons at the last index has git asked first: git stats the
  // files on the other core while this one reads the folders.
  const lastCount = Number(cache.memo(INDEX_MEMO)?.split(' ')[2] ?? 0);
  const early =
    started || (lastCount >= gitFrom && gitAnswersCheaply(root, lastCount))
      ? gitVouchedBlobs(root, insideFolders(root), started)
      : undefined;
  const files: Listed[] = [];
  let irregular = false;
  const folders: string[] = [];
  for (const { level, dir } of dirs) {
    // Every entry is directly inside `dir` (listMarkdownFiles): its relative path is the folder's and its name.
    const folder = folderOf(dir);
    const nameAt = dir.length + (dir.endsWith(path.sep) ? 0 : 1);
    // With git asked already, the folders are read by name alone: git's answer says which entries are regular files.
    const entries = listMarkdownFiles(root, dir, { untyped: early !== undefined });
    if (entries.some((entry) => entry.kind !== 'outside')) folders.push(folder);
    for (const entry of entries) {
      files.push({ path: entry.kind === 'outside' ? toPosixRelative(root, entry.file) : `${folder}${entry.file.slice(nameAt)}`, level, entry });
    }
  }
  const vouched = await (early ?? (files.length >= gitFrom && gitAnswersCheaply(root, files.length) ? gitVouchedBlobs(root, folders) : undefined));
  for (const { path: relPath, entry } of files) {
    // A file git vouches for is a regular file (diff-files names one that became a link or a folder); any other is looked at.
    if (entry.untyped) {
      if (!vouched?.has(relPath)) entry.kind = entryKind(entry.file);
      delete entry.untyped;
    }
    if (entry.kind !== 'file') irregular = true;
  }
  // Every file regular and vouched for by git: the next run may find the same tree without listing it (unchangedWorktree()).
  const remember = identity !== undefined && vouched !== undefined && !irregular && files.every((item) => vouched.has(item.path)) ? identity : undefined;
  // The few files git does not vouch for (edited, new) are read rather than stat'ed: looking one
  // up in the stat table would parse all of it (18 MB at 100,000 lessons). Many are stat'ed.
  const unvouched = vouched === undefined ? Infinity : files.filter((item) => item.entry.kind === 'file' && !vouched.has(item.path)).length;
  for (const item of files) {
    if (item.entry.kind !== 'file') continue;
    const blob = vouched?.get(item.path);
    if (blob !== undefined || unvouched <= PAIRS_READ_MAX) {
      if (blob !== undefined) item.blob = blob;
      item.byGit = true;
      continue;
    }
    try {
      item.stat = statMark(fs.statSync(item.entry.file, { bigint: true }));
      const trusted = cache.trustedBlob(item.path, item.stat);
      if (trusted !== undefined) item.blob = trusted;
    } catch {
      // Gone or unreadable since the listing: the read below reports it.
    }
  }
  return { files, irregular, remember };
}

/** The level folders that resolve inside the repository, relative to it, each ending in `/`. */
function insideFolders(root: string): string[] {
  return lessonDirs(root)
    .filter(({ dir }) => resolvesInside(root, dir))
    .map(({ dir }) => `${toPosixRelative(root, dir)}/`);
}

/**
 * The memo of a working tree that git vouched for whole (every lesson file tracked, regular and
 * as the git index holds it): `<listingIdentity()> <lesson file count> <tree digest>`.
 */
export const LISTING_MEMO = 'listing';

/**
 * What says that the level folders hold the names they held and that git's index is the one it
 * was: the stat identity (size, mtime, ctime, inode) of each level folder (a file added, removed
 * or renamed in a folder changes its mtime and ctime) and of the git index file (git replaces it
 * whole on every change). Undefined without a git index file, or when one of them changed less
 * than RACY_MS before `nowMs` or has a time in the future: another change within the same clock
 * tick could leave its stat as it is.
 */
function listingIdentity(root: string, nowMs: number): string | undefined {
  const index = gitIndexFile(root);
  if (index === undefined) return undefined;
  const latest = BigInt(nowMs - RACY_MS) * 1_000_000n;
  const parts: string[] = [];
  for (const file of [index, ...lessonDirs(root).map(({ dir }) => dir)]) {
    const stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
    if (stat === undefined) {
      // No git index: nothing is tracked. No folder: its absence is what is remembered.
      if (file === index) return undefined;
      parts.push('-');
      continue;
    }
    if (stat.mtimeNs > latest || stat.ctimeNs > latest) return undefined;
    parts.push(statIdentity(stat));
  }
  return parts.join(',');
}

/**
 * The working tree's tree digest and lesson file count without listing it, when it is the tree
 * of a listing git vouched for whole (LISTING_MEMO): the folders and git's index have the stat
 * they had then, so the folders hold the same names, all tracked, at the blobs that index gives;
 * and git's diff-files finds every one of them as that index holds it. Otherwise no digest, and
 * the git calls (when they were started) for listWorktree() to read.
 */
export async function unchangedWorktree(root: string, cache: LessonFileCache): Promise<{ tree?: { digest: string; count: number }; started?: GitListing }> {
  const memo = cache.memo(LISTING_MEMO)?.split(' ');
  if (memo?.length !== 3) return {};
  const identity = listingIdentity(root, Date.now());
  if (identity === undefined || identity !== memo[0]) return {};
  const folders = insideFolders(root);
  if (folders.length !== lessonDirs(root).length) return {};
  const started = startGitListing(root, folders);
  try {
    const changed = await started.changed;
    if (changed.exitCode !== 0 || changed.stdout.length > 0) return { started };
  } catch {
    return { started };
  }
  return { tree: { digest: memo[2]!, count: Number(memo[1]) }, started };
}

/** The memo of the index: `<tree digest> <blob id of lessons/index.json> <lesson count>`, set when the index was written or found fresh. */
export const INDEX_MEMO = 'index';

/** A digest of a tree's (path, blob id) pairs: whole-tree results are memoised under it. */
export function treeDigest(files: readonly { path: string; blob: string }[]): string {
  // One tree is often digested twice in a run (its memo looked up, then set): 100,000 lines to join and hash.
  const known = digests.get(files);
  if (known !== undefined) return known;
  const digest = digestOf(files);
  digests.set(files, digest);
  return digest;
}

/** Digests by the array they were made of: callers never change a tree's pairs once digested. */
const digests = new WeakMap<readonly { path: string; blob: string }[], string>();

function digestOf(files: readonly { path: string; blob: string }[]): string {
  // A listing comes in path order already: hashed line by line as it comes (no 10 MB join at
  // 100,000 lessons), and sorted first (100,000 comparisons in JavaScript) only when it is not.
  const hash = createHash('sha256');
  let previous = '';
  for (const file of files) {
    const line = `${file.path}\0${file.blob}\n`;
    if (line < previous) return sha256(files.map((each) => `${each.path}\0${each.blob}\n`).sort(compareStrings).join(''));
    hash.update(line);
    previous = line;
  }
  return hash.digest('hex');
}

/** How many files listingPairs reads and hashes, past which the caller's reading of the whole tree is the cheaper way. */
export const PAIRS_READ_MAX = 256;

/**
 * The (path, blob id) pairs of a listing: the blob the cache vouches for by its stat, else the
 * file read and hashed now (one edited in the last seconds, or since the last run), as the
 * listing's own. Undefined for a listing with links or other irregular entries, or with more
 * than PAIRS_READ_MAX files to read.
 */
export function listingPairs(root: string, cache: LessonFileCache, listing: WorktreeListing): { path: string; blob: string }[] | undefined {
  if (listing.irregular) return undefined;
  const unknown = listing.files.filter((file) => file.blob === undefined);
  if (unknown.length > PAIRS_READ_MAX) return undefined;
  for (const file of unknown) {
    const read = readMarkdownEntry(root, file.entry);
    if (read.kind === 'problem' || (file.stat === undefined && !file.byGit)) return undefined;
    file.blob = gitBlobId(read.bytes);
    file.read = read.bytes;
    if (file.stat) cache.noteStat(file.path, file.blob, file.stat);
  }
  const pairs = listing.files.map((file) => ({ path: file.path, blob: file.blob! }));
  if (listing.remember !== undefined) cache.setMemo(LISTING_MEMO, `${listing.remember} ${pairs.length} ${treeDigest(pairs)}`);
  return pairs;
}

export interface FactsTree {
  tree: LoadedTree;
  /** Regular lesson files with their content's identity and facts, in path order. */
  files: { path: string; blob: string; facts: LessonFacts }[];
  /** The bytes this run read (the files the cache could not vouch for). */
  bytes: Map<string, Uint8Array>;
  irregular: boolean;
}

/**
 * The working tree's lessons through the cache: a file whose stat the cache vouches for is not
 * read; one it cannot vouch for is read and hashed, and parsed only when no facts for that
 * content are cached. Facts are recorded with the stat taken before the read, so a file that
 * changes during the run is hashed again next time.
 */
export async function loadWorktreeFacts(root: string, cache: LessonFileCache, wanted: FactsWanted, listed?: WorktreeListing, progress: Progress = silentProgress): Promise<FactsTree> {
  const listing = listed ?? (await listWorktree(root, cache));
  const tree: LoadedTree = { lessons: [], problems: [] };
  const files: FactsTree['files'] = [];
  const bytes = new Map<string, Uint8Array>();
  const step = fileSteps(progress, listing.files.length);
  for (const [i, item] of listing.files.entries()) {
    step(i + 1, item.path);
    let blob = item.blob;
    let facts = blob === undefined ? undefined : cache.get(item.path, blob);
    if (facts === undefined || !factsCover(facts, wanted)) {
      const read: FileRead = item.read ? { kind: 'file', path: item.path, bytes: item.read } : readMarkdownEntry(root, item.entry);
      if (read.kind === 'problem' || (item.stat === undefined && !item.byGit)) {
        parseRead(read, item.level, tree);
        continue;
      }
      bytes.set(item.path, read.bytes);
      blob = gitBlobId(read.bytes);
      facts = cache.get(item.path, blob);
      if (facts === undefined || !factsCover(facts, wanted)) {
        facts = factsOf(item.path, read.bytes, item.level, wanted);
        cache.set(item.path, blob, facts);
      }
    }
    if (item.stat) cache.noteStat(item.path, blob!, item.stat);
    files.push({ path: item.path, blob: blob!, facts });
    addFacts(tree, item.path, facts);
  }
  return { tree, files, bytes, irregular: listing.irregular };
}

/** A lesson file of a side: its path, the level its folder gives, its blob id. */
export interface ListedFile {
  path: string;
  level: Level;
  blob: string;
}

/** The facts of `items` (path, level, blob): from the cache, else computed from the files `read` gives (and cached). */
export async function loadFacts(items: readonly ListedFile[], read: ReadFiles, cache: LessonFileCache, wanted: FactsWanted): Promise<Map<string, LessonFacts>> {
  const known = new Map<string, LessonFacts>();
  for (const item of items) {
    const facts = cache.get(item.path, item.blob);
    if (facts !== undefined && factsCover(facts, wanted)) known.set(item.path, facts);
  }
  const misses = items.filter((item) => !known.has(item.path));
  if (misses.length > 0) {
    const contents = await read(misses.map((item) => item.path));
    for (const item of misses) {
      const facts = factsOf(item.path, contents.get(item.path) ?? new Uint8Array(), item.level, wanted);
      cache.set(item.path, item.blob, facts);
      known.set(item.path, facts);
    }
  }
  return known;
}
