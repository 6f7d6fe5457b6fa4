import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { FileCache, RACY_MS, statMark, type StatMark } from './file-cache.js';
import { fileSteps, silentProgress, type Progress } from '../io/progress.js';
import { entryKind, listMarkdownFiles, readMarkdownEntry, readRegularFile, readText, statIdentity, toPosixRelative, type FileRead, type MarkdownEntry } from '../io/fs.js';
import { pathInside, resolvesInside } from '../io/inside.js';
import { packageFile } from '../io/package-root.js';
import { POLICY_FILE } from '../io/repo.js';
import { lessonDirs } from '../lesson/model.js';
import { gitAnswersCheaply, gitIndexFile, gitVouchedBlobs, startGitListing, type GitListing } from '../io/git/vouched.js';
import { compareStrings } from '../util/compare.js';
import { gitBlobId, sha256 } from '../util/digest.js';
import { FACTS_VERSION, addFacts, factsCover, factsOf, type FactsWanted, type LessonFacts } from '../lesson/facts.js';
import { parseRead, type LoadedTree } from '../lesson/load.js';
import type { Level } from '../lesson/model.js';

export type LessonFileCache = FileCache<LessonFacts>;

/** Reads lesson files of a side (the working tree, the git index, a commit) by lessons-root-relative path; absent files are left out. */
export type ReadFiles = (paths: readonly string[]) => Promise<Map<string, Uint8Array>>;


let codeVersion: string | undefined;

/** The code and the formats the facts depend on: package.json (its version) and the schemas. */
function codeKey(): string {
  codeVersion ??= sha256(
    [readText(packageFile('package.json')), ...['lesson', 'policy'].map((name) => readText(packageFile('schemas', `${name}.schema.json`)))].join('\0'),
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
    policy = readRegularFile(`${root}/${POLICY_FILE}`, 'policy').toString('utf8');
  } catch {
    // No policy file (the defaults), or one that cannot be read: loading the policy says why.
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
  /** The listing identity (listingParts()) to remember the listing's tree under (LISTING_MEMO), when git listed it (and vouched for all but a few files). */
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
  // Taken before anything is listed: a change made during the listing makes the next run's differ. A folder's stat too
  // recent to vouch is remembered as RACY, which no stat matches: the next run reads its names again (unchangedWorktree()).
  const parts = listingParts(root, Date.now());
  const identity = parts === undefined || parts[0] === RACY ? undefined : parts.join(',');
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
  // The few files git does not vouch for (edited, new) are read rather than stat'ed: looking one
  // up in the stat table would parse all of it (18 MB at 100,000 lessons). Many are stat'ed.
  const unvouched = vouched === undefined ? Infinity : files.filter((item) => item.entry.kind === 'file' && !vouched.has(item.path)).length;
  // Every file regular, and git vouches for all but a few: the next run may find the same tree without listing it (unchangedWorktree()).
  const remember = identity !== undefined && vouched !== undefined && !irregular && unvouched <= PAIRS_READ_MAX ? identity : undefined;
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
 * The memo of a working tree that git listed (LISTING_MEMO): its listing identity, lesson file
 * count and tree digest, and the files git did not vouch for then (edited, or not tracked; a few)
 * with their blob ids and stat identities, as JSON.
 */
export const LISTING_MEMO = 'listing';

interface ListingMemo {
  identity: string;
  count: number;
  digest: string;
  /** listedNames() of the tree: its files' paths, which a folder's stat stands for until it changes. */
  names?: string;
  /** [path, blob id, statIdentity()] of each file git did not vouch for. */
  loose: [string, string, string][];
}

/**
 * What says that the level folders hold the names they held and that git's index is the one it
 * was: the stat identity (size, mtime, ctime, inode) of the git index file (git replaces it whole
 * on every change), then of each level folder (a file added, removed or renamed in a folder
 * changes its mtime and ctime). RACY for one that changed less than RACY_MS before `nowMs` or
 * has a time in the future: another change within the same clock tick could leave its stat as
 * it is. Joined with commas, the listing identity (LISTING_MEMO); undefined without a git index
 * file.
 */
function listingParts(root: string, nowMs: number): string[] | undefined {
  const index = gitIndexFile(root);
  if (index === undefined) return undefined;
  const latest = racyFrom(nowMs);
  const parts: string[] = [];
  for (const file of [index, ...lessonDirs(root).map(({ dir }) => dir)]) {
    const stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
    if (stat === undefined) {
      // No git index: nothing is tracked. No folder: its absence is what is remembered.
      if (file === index) return undefined;
      parts.push('-');
      continue;
    }
    parts.push(trustedIdentity(stat, latest)!);
  }
  return parts;
}

/** A digest of lesson file paths in listWorktree()'s order: what names a listing found. */
function namesDigest(paths: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const path of paths) hash.update(`${path}\0`);
  return hash.digest('hex');
}

/** namesDigest() of the lesson files the level folders hold now, read from the folders; undefined when one is not a regular file, or a folder cannot be read or leads outside. */
function listedNames(root: string): string | undefined {
  const paths: string[] = [];
  try {
    for (const { dir } of lessonDirs(root)) {
      const folder = `${toPosixRelative(root, dir)}/`;
      const nameAt = dir.length + (dir.endsWith(path.sep) ? 0 : 1);
      for (const entry of listMarkdownFiles(root, dir)) {
        if (entry.kind !== 'file') return undefined;
        paths.push(`${folder}${entry.file.slice(nameAt)}`);
      }
    }
  } catch {
    return undefined;
  }
  return namesDigest(paths);
}

/** The first nanosecond time too recent, at `nowMs`, for a stat to vouch for what it stats. */
function racyFrom(nowMs: number): bigint {
  return BigInt(nowMs - RACY_MS) * 1_000_000n;
}

/** A working tree as an edit of the tree of a listing git made (unchangedWorktree()): the files that may differ from it, read now. */
export interface WorktreeEdit {
  /** The remembered tree's digest and lesson file count. */
  base: { digest: string; count: number };
  /** Each file that may differ from the remembered tree, in path order: its bytes, and the identity of the stat taken before they were read (trustedIdentity()). */
  files: { path: string; level: Level; bytes: Buffer; blob: string; identity: string }[];
  memo: ListingMemo;
}

/**
 * The working tree as remembered from a listing git made (LISTING_MEMO), without listing it:
 * when git's index has the stat it had then, the folders hold the same names (their stat as it
 * was, or their names read again: a lesson saved by renaming a new file over it moves the
 * folder's stat and leaves its names), and every tracked file that git's diff-files finds as
 * its index holds it has the blob it had. Each file git did not vouch for then has the blob it
 * had while its stat is as it was. Then `tree`: nothing differs. Or `edit`: the few files that
 * may differ (named by diff-files, or of another stat) are read. Otherwise neither, and the git
 * calls (when they were started) for listWorktree() to read.
 */
export async function unchangedWorktree(root: string, cache: LessonFileCache): Promise<RememberedWorktree> {
  return (await startUnchangedWorktree(root, cache)?.result()) ?? {};
}

/** What unchangedWorktree() finds. */
export interface RememberedWorktree {
  tree?: WorktreeEdit['base'];
  edit?: WorktreeEdit;
  started?: GitListing;
}

/**
 * unchangedWorktree() in two steps, so the caller can read what it will need while git looks
 * at the files: undefined (nothing started) when no remembered listing can stand for the tree.
 */
export function startUnchangedWorktree(root: string, cache: LessonFileCache): { result: () => Promise<RememberedWorktree> } | undefined {
  const memo = listingMemo(cache);
  if (memo === undefined) return undefined;
  const nowMs = Date.now();
  const parts = listingParts(root, nowMs);
  if (parts === undefined || parts[0] === RACY || parts[0] !== memo.identity.split(',')[0]) return undefined;
  const identity = parts.join(',');
  // A folder remembered as RACY, or too recent now, vouches for nothing: its names are read.
  const folderStats = identity === memo.identity && !parts.includes(RACY);
  if (!folderStats && memo.names === undefined) return undefined;
  const dirs = lessonDirs(root);
  const folders = insideFolders(root);
  if (folders.length !== dirs.length) return undefined;
  // git's listing is started only when this answer is not enough (listWorktree()).
  const started: GitListing = { changed: startGitListing(root, folders, { listed: false }).changed };
  if (!folderStats) {
    // The folders' names, read while git looks at the files, after their stat: a name added since shows in the next run's stat.
    if (listedNames(root) !== memo.names) return { result: async () => ({ started }) };
    // Their new stat stands for these names from now on, once it is old enough to vouch.
    if (!parts.includes(RACY)) memo.identity = identity;
  }
  return { result: () => rememberedWorktree(root, cache, memo, { nowMs, folders, started, renewed: !folderStats && memo.identity === identity }) };
}

async function rememberedWorktree(
  root: string,
  cache: LessonFileCache,
  memo: ListingMemo,
  { nowMs, folders, started, renewed: identityRenewed }: { nowMs: number; folders: string[]; started: GitListing; renewed: boolean },
): Promise<RememberedWorktree> {
  const latest = racyFrom(nowMs);
  const levelOf = listedLevels(root);
  /** A file read now: the identity of its stat taken before the read, and its bytes. */
  const readNow = (path: string): { identity: string; bytes: Buffer } | undefined => {
    const identity = trustedIdentity(fs.statSync(`${root}/${path}`, { bigint: true, throwIfNoEntry: false }), latest);
    const read = readMarkdownEntry(root, { file: `${root}/${path}`, kind: 'file' });
    return identity === undefined || read.kind !== 'file' ? undefined : { identity, bytes: read.bytes };
  };
  const touched = new Map<string, { identity: string; bytes: Buffer }>();
  let renewed = identityRenewed;
  try {
    const changed = await started.changed;
    if (changed.exitCode !== 0) return { started };
    const loose = new Map(memo.loose.map((entry) => [entry[0], entry]));
    // A lesson file (a `.md` directly in a level folder) that git finds changed, and one git did not vouch for whose stat changed.
    const named = changed.stdout
      .toString('utf8')
      .split('\0')
      .filter((path) => path !== '' && !loose.has(path) && isListedPath(path, folders));
    if (named.length + memo.loose.length > PAIRS_READ_MAX) return { started };
    for (const path of named) {
      const now = readNow(path);
      if (now === undefined) return { started };
      touched.set(path, now);
    }
    for (const entry of memo.loose) {
      const stat = fs.statSync(`${root}/${entry[0]}`, { bigint: true, throwIfNoEntry: false });
      if (stat === undefined) return { started };
      if (statIdentity(stat) === entry[2]) continue;
      const now = readNow(entry[0]);
      if (now === undefined) return { started };
      // The same bytes under another stat (touched, or read again after a racy stat): remembered by the new stat.
      if (gitBlobId(now.bytes) === entry[1]) {
        entry[2] = now.identity;
        renewed = true;
      } else touched.set(entry[0], now);
    }
  } catch {
    return { started };
  }
  if (renewed) cache.setMemo(LISTING_MEMO, JSON.stringify(memo));
  const base = { digest: memo.digest, count: memo.count };
  if (touched.size === 0) return { tree: base, started };
  const files: WorktreeEdit['files'] = [...touched]
    .sort((a, b) => compareStrings(a[0], b[0]))
    .map(([path, { identity, bytes }]) => ({ path, level: levelOf(path)!, bytes, blob: gitBlobId(bytes), identity }));
  return { edit: { base, files, memo }, started };
}

/** What stands for a file's content in LISTING_MEMO: its stat's identity, or RACY (read it again) for a stat too recent to vouch for it. Undefined for no stat. */
function trustedIdentity(stat: fs.BigIntStats | undefined, latest: bigint): string | undefined {
  if (stat === undefined) return undefined;
  return stat.mtimeNs < latest && stat.ctimeNs < latest ? statIdentity(stat) : RACY;
}

/** The identity of a file whose stat was too recent to vouch for its content: no stat has it. */
const RACY = 'racy';

/** Remembers the edited tree (`pairs`, or its digest and count) as the listing's, its edited files by their stats. */
export function rememberEdit(cache: LessonFileCache, edit: WorktreeEdit, tree: readonly { path: string; blob: string }[] | WorktreeEdit['base']): void {
  const { digest, count } = 'digest' in tree ? tree : { digest: treeDigest(tree), count: tree.length };
  const edited = new Set(edit.files.map((file) => file.path));
  const loose = edit.memo.loose.filter(([path]) => !edited.has(path));
  for (const file of edit.files) loose.push([file.path, file.blob, file.identity]);
  const memo: ListingMemo = { ...edit.memo, count, digest, loose: loose.sort((a, b) => compareStrings(a[0], b[0])) };
  cache.setMemo(LISTING_MEMO, JSON.stringify(memo));
}

/**
 * After a command of ours wrote lesson files (capture, promote, retire: `written`, a path to its
 * blob id) over the tree of digest `before`, leaving the tree `after`: the listing memo, when it
 * is of `before`, made the memo of `after`, each written file remembered by its stat (read again
 * while that stat is too recent to vouch), so the next run takes the tree or an edit of it
 * instead of listing the folders. The memo keeps the names it had: a file the command created
 * makes the folders' names differ from them, and the next run lists the folders.
 */
export function rememberWrittenListing(
  root: string,
  cache: LessonFileCache,
  before: string,
  after: { digest: string; count: number },
  written: ReadonlyMap<string, string>,
): void {
  const memo = listingMemo(cache);
  if (memo === undefined || memo.digest !== before) return;
  const latest = racyFrom(Date.now());
  const loose = new Map(memo.loose.map((entry) => [entry[0], entry]));
  for (const [path, blob] of written) {
    const identity = trustedIdentity(fs.statSync(`${root}/${path}`, { bigint: true, throwIfNoEntry: false }), latest);
    // Gone already: left as it was, the memo stands for the tree before, whose changes the next run finds.
    if (identity === undefined) return;
    loose.set(path, [path, blob, identity]);
  }
  if (loose.size > PAIRS_READ_MAX) return;
  const renewed: ListingMemo = { ...memo, count: after.count, digest: after.digest, loose: [...loose.values()].sort((a, b) => compareStrings(a[0], b[0])) };
  cache.setMemo(LISTING_MEMO, JSON.stringify(renewed));
}

/** The lesson file at `relPath` (relative to `root`, inside it) while its bytes are the blob `blob`; undefined when they are not, or it cannot be read. */
export function readAtBlob(root: string, relPath: string, blob: string | undefined): Buffer | undefined {
  if (blob === undefined) return undefined;
  try {
    const read = readMarkdownEntry(root, { file: pathInside(root, relPath), kind: 'file' });
    return read.kind === 'file' && gitBlobId(read.bytes) === blob ? read.bytes : undefined;
  } catch {
    // A path that leads outside the repository holds no lesson of it.
    return undefined;
  }
}

/** The level of a lesson file's path (relative to `root`): the level folder it is directly inside. */
export function listedLevel(root: string, path: string): Level | undefined {
  return listedLevels(root)(path);
}

/** listedLevel() for many paths. */
export function listedLevels(root: string): (path: string) => Level | undefined {
  const dirs = lessonDirs(root);
  const folders = insideFolders(root);
  if (folders.length !== dirs.length) return () => undefined;
  return (path) => {
    const at = folders.findIndex((folder) => isListedPath(path, [folder]));
    return at === -1 ? undefined : dirs[at]!.level;
  };
}

/** Whether `path` is a `.md` directly inside one of `folders` (each ending in `/`): a path the listing lists. */
function isListedPath(path: string, folders: readonly string[]): boolean {
  return path.endsWith('.md') && folders.some((folder) => path.startsWith(folder) && !path.includes('/', folder.length));
}

function listingMemo(cache: LessonFileCache): ListingMemo | undefined {
  const text = cache.memo(LISTING_MEMO);
  if (text === undefined) return undefined;
  try {
    const memo = JSON.parse(text) as ListingMemo;
    return typeof memo.identity === 'string' && typeof memo.digest === 'string' && Number.isInteger(memo.count) && Array.isArray(memo.loose) ? memo : undefined;
  } catch {
    return undefined;
  }
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
    // The records of the pairs file (store/index-memo.ts), so a digest is also a hash of that file's records as they stand.
    const line = `${file.path}\0${file.blob}\0`;
    if (line < previous) return sha256(files.map((each) => `${each.path}\0${each.blob}\0`).sort(compareStrings).join(''));
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
  // The files git did not vouch for are remembered by a stat taken before their read (a racy one as RACY: read again next time).
  const latest = racyFrom(Date.now());
  let loose: ListingMemo['loose'] | undefined = listing.remember === undefined ? undefined : [];
  for (const file of unknown) {
    let identity: string | undefined;
    if (loose !== undefined && file.byGit) {
      identity = trustedIdentity(fs.statSync(file.entry.file, { bigint: true, throwIfNoEntry: false }), latest);
      if (identity === undefined) loose = undefined;
    }
    const read = readMarkdownEntry(root, file.entry);
    if (read.kind === 'problem' || (file.stat === undefined && !file.byGit)) return undefined;
    file.blob = gitBlobId(read.bytes);
    file.read = read.bytes;
    if (file.stat) cache.noteStat(file.path, file.blob, file.stat);
    if (identity !== undefined) loose?.push([file.path, file.blob, identity]);
  }
  const pairs = listing.files.map((file) => ({ path: file.path, blob: file.blob! }));
  if (listing.remember !== undefined && loose !== undefined) {
    const memo: ListingMemo = { identity: listing.remember, count: pairs.length, digest: treeDigest(pairs), names: namesDigest(pairs.map((pair) => pair.path)), loose };
    cache.setMemo(LISTING_MEMO, JSON.stringify(memo));
  }
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
