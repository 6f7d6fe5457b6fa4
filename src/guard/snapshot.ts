import path from 'node:path';
import { readRegularFile, toPosixRelative } from '../io/fs.js';
import { filesAndLinksBelow, realPath } from '../io/paths.js';
import type { GitRepo } from '../io/git/repo.js';
import { indexFiles, readBlobs, treeFiles, type TreeFile } from '../io/git/tree.js';
import { INDEX_FILE, LESSONS_DIR } from '../io/repo.js';
import { loadFacts, loadWorktreeFacts, type LessonFileCache, type ListedFile as Listed, type ReadFiles } from '../store/worktree.js';
import { addFacts, type FactsWanted, type LessonFacts } from '../lesson/facts.js';
import type { LoadedTree } from '../lesson/load.js';
import { levelOfFolder, type Level } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import type { Finding } from '../lesson/finding.js';
import { gitBlobId } from '../util/digest.js';

/** One regular lesson file of a side, with its content's identity and what its bytes give. */
export interface LessonFileRef {
  path: string;
  blob: string;
  facts: LessonFacts;
}

/** The lessons of one side of a check: the working tree, the git index, or a commit. */
export interface Snapshot {
  /** `worktree`, `index`, a commit sha, or `empty` (before the first commit). */
  label: string;
  /** The lessons, summarised from their facts (lesson-facts.ts), and the files' problems. */
  tree: LoadedTree;
  lessonFiles: LessonFileRef[];
  /** Whether every lesson file is a regular file (links and the like are never cached). */
  regular: boolean;
  /** The blob id of lessons/index.json, undefined when the file is absent. */
  indexBlob: string | undefined;
  /** Reads lessons/index.json (undefined when absent); the index is read only when a gate needs its text. */
  readIndex: () => Promise<string | undefined>;
  /** Reads files of this side by lessons-root-relative path (absent files are left out). */
  readFiles: ReadFiles;
  /** The regular files directly or further inside a folder of this side, lessons-root-relative. */
  listFolder: (folder: string) => Promise<string[]>;
  /** Reads any blob of the repository by its id (git sides only); undefined when git does not have it. */
  readBlob?: (blob: string) => Promise<Uint8Array | undefined>;
}

/** The level a path `lessons/<folder>/<name>.md` stands for; undefined for anything else. */
export function lessonPathLevel(relPath: string): Level | undefined {
  // indexOf rather than split: a side's listing asks this of every one of its files.
  const first = relPath.indexOf('/');
  const second = relPath.indexOf('/', first + 1);
  if (second === -1 || relPath.indexOf('/', second + 1) !== -1 || !relPath.endsWith('.md') || relPath.slice(0, first) !== LESSONS_DIR) return undefined;
  return levelOfFolder(relPath.slice(first + 1, second));
}

/** Computes the facts the cache does not hold (reading only those files), then assembles the tree in path order. */
async function buildTree(items: readonly Listed[], read: ReadFiles, cache: LessonFileCache, wanted: FactsWanted): Promise<Pick<Snapshot, 'tree' | 'lessonFiles'>> {
  const known = await loadFacts(items, read, cache, wanted);
  const tree: LoadedTree = { lessons: [], problems: [] };
  const lessonFiles: LessonFileRef[] = [];
  for (const item of [...items].sort((a, b) => compareStrings(a.path, b.path))) {
    const facts = known.get(item.path)!;
    lessonFiles.push({ path: item.path, blob: item.blob, facts });
    addFacts(tree, item.path, facts);
  }
  return { tree, lessonFiles };
}

export function emptySnapshot(): Snapshot {
  return {
    label: 'empty',
    tree: { lessons: [], problems: [] },
    lessonFiles: [],
    regular: true,
    indexBlob: undefined,
    readIndex: async () => undefined,
    readFiles: async () => new Map(),
    listFolder: async () => [],
  };
}

/** The lessons on disk, as `lessons lint` sees them. */
export async function worktreeSnapshot(root: string, cache: LessonFileCache, wanted: FactsWanted): Promise<Snapshot> {
  const loaded = await loadWorktreeFacts(root, cache, wanted);
  const readOne = (rel: string): Uint8Array | undefined => {
    if (loaded.bytes.has(rel)) return loaded.bytes.get(rel);
    try {
      return readRegularFile(path.join(root, rel));
    } catch {
      return undefined;
    }
  };
  const readFiles: ReadFiles = async (paths) => {
    const result = new Map<string, Uint8Array>();
    for (const rel of paths) {
      const content = readOne(rel);
      if (content) result.set(rel, content);
    }
    return result;
  };
  const index = readOne(INDEX_FILE);
  const listFolder = async (folder: string): Promise<string[]> => {
    try {
      // Links too: readFiles follows them, as it reads any path it is given.
      return filesAndLinksBelow(path.join(root, folder)).map((file) => toPosixRelative(root, file));
    } catch {
      return [];
    }
  };
  return {
    label: 'worktree',
    listFolder,
    tree: loaded.tree,
    lessonFiles: loaded.files,
    regular: !loaded.irregular,
    indexBlob: index === undefined ? undefined : gitBlobId(index),
    readIndex: async () => (index === undefined ? undefined : Buffer.from(index).toString('utf8')),
    readFiles,
  };
}

/**
 * A file of the working tree when it holds exactly the blob `blob` (hashed to know): reading it
 * costs less than git's inflating the blob and piping it over (lessons/index.json is 100 MB at
 * 100,000 lessons, and is usually staged as it stands on disk).
 */
function worktreeCopy(root: string, rel: string, blob: string): Buffer | undefined {
  try {
    const bytes = readRegularFile(path.join(root, rel));
    return gitBlobId(bytes) === blob ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** Where the lessons root sits inside the git top level, as a path prefix (`''` or `sub/dir/`). */
export function gitPrefix(repo: GitRepo, root: string): string {
  const rel = toPosixRelative(repo.topLevel, realPath(root));
  return rel === '' ? '' : `${rel}/`;
}

/**
 * Reads files of a git listing by lessons-root-relative path. The listing is in git's path order
 * (bytes), which is JavaScript's for every path without characters past U+FFFF: a path is found
 * by bisection (no map of 100,000 paths for the ten a commit changed), and by a walk of the
 * listing when bisection misses it.
 */
function blobReader(repo: GitRepo, prefix: string, listed: readonly TreeFile[]): ReadFiles {
  const blobOf = (rel: string): string | undefined => {
    const wanted = `${prefix}${rel}`;
    let low = 0;
    let high = listed.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (listed[middle]!.path < wanted) low = middle + 1;
      else high = middle;
    }
    if (listed[low]?.path === wanted) return listed[low]!.blob;
    return listed.find((file) => file.path === wanted)?.blob;
  };
  return async (paths) => {
    const found = new Map<string, string>();
    for (const rel of paths) {
      const blob = blobOf(rel);
      if (blob !== undefined) found.set(rel, blob);
    }
    const blobs = await readBlobs(repo, [...found.values()]);
    const result = new Map<string, Uint8Array>();
    for (const [rel, blob] of found) result.set(rel, blobs.get(blob)!);
    return result;
  };
}

/** A git side before any lesson is read: its lesson files and how to read the rest. */
export type GitSide = Omit<Snapshot, 'tree' | 'lessonFiles'> & {
  /** The lesson files, in path order. */
  items: Listed[];
  /** Lesson paths that git holds as symbolic links: never lessons, each a problem of the side. */
  links: string[];
  /** Reads lesson files of the listing by path (one `git cat-file` for many). */
  readListed: ReadFiles;
};

/**
 * A git side from its listing. `covered` are the lessons-root-relative folders and files the
 * listing holds whole (lessons/ and whatever else was listed with it): a read or a folder listing
 * inside them is answered from it, anything else through a listing of its own.
 */
function gitSide(
  repo: GitRepo,
  root: string,
  label: string,
  listed: TreeFile[],
  list: (paths: readonly string[]) => Promise<TreeFile[]>,
  covered: readonly string[] = [LESSONS_DIR],
  linked: readonly string[] = [],
): GitSide {
  const prefix = gitPrefix(repo, root);
  const links = linked
    .filter((file) => file.startsWith(prefix) && lessonPathLevel(file.slice(prefix.length)) !== undefined)
    .map((file) => file.slice(prefix.length));
  const isCovered = (rel: string): boolean => covered.some((each) => rel === each || rel.startsWith(`${each}/`));
  const items: Listed[] = [];
  let indexBlob: string | undefined;
  for (const file of listed) {
    if (!file.path.startsWith(prefix)) continue;
    const rel = file.path.slice(prefix.length);
    if (rel === INDEX_FILE) indexBlob = file.blob;
    const level = lessonPathLevel(rel);
    if (level !== undefined) items.push({ path: rel, level, blob: file.blob });
  }
  // Git lists in path order already: the sort (100,000 comparisons in JavaScript) only when it did not.
  if (items.some((item, n) => n > 0 && compareStrings(items[n - 1]!.path, item.path) > 0)) items.sort((a, b) => compareStrings(a.path, b.path));
  // The reader's map of the listing, made when something is read.
  let reader: ReadFiles | undefined;
  const read: ReadFiles = (paths) => (reader ??= blobReader(repo, prefix, listed))(paths);
  const readIndex = async (): Promise<string | undefined> => {
    if (indexBlob === undefined) return undefined;
    const onDisk = worktreeCopy(root, INDEX_FILE, indexBlob);
    if (onDisk !== undefined) return onDisk.toString('utf8');
    const index = (await read([INDEX_FILE])).get(INDEX_FILE);
    return index === undefined ? undefined : Buffer.from(index).toString('utf8');
  };
  const readBlob = async (blob: string): Promise<Uint8Array | undefined> => {
    try {
      return (await readBlobs(repo, [blob])).get(blob);
    } catch {
      return undefined;
    }
  };
  // Git lists regular files only: links and the like are not lessons on this side.
  const listFolder = async (folder: string): Promise<string[]> =>
    (isCovered(folder) ? listed : await list([`${prefix}${folder}`]))
      .filter((file) => file.path === `${prefix}${folder}` || file.path.startsWith(`${prefix}${folder}/`))
      .map((file) => file.path.slice(prefix.length));
  const others = listedReader(repo, prefix, list);
  const readFiles: ReadFiles = (paths) => (paths.every(isCovered) ? read(paths) : others(paths));
  return { label, items, links, readListed: read, regular: true, indexBlob, readIndex, readFiles, listFolder, readBlob };
}

async function gitSnapshot(side: GitSide, cache: LessonFileCache, wanted: FactsWanted): Promise<Snapshot> {
  const { items, links, readListed, ...rest } = side;
  const built = await buildTree(items, readListed, cache, wanted);
  built.tree.problems.push(...linkProblems(links));
  return { ...rest, ...built };
}

/**
 * The lesson paths a git side holds as symbolic links, as problems: a link would be a lesson
 * wherever a checkout puts its target, so git must hold the file itself (as lint requires on disk).
 */
export function linkProblems(links: readonly string[]): Finding[] {
  return links.map((file) => ({
    rule: 'file',
    severity: 'error',
    file,
    message: 'git holds this lesson as a symbolic link: a lesson must be a regular file; replace the link with the file itself (`git rm --cached` the link, then `git add` the file)',
  }));
}

/** Past this many paths, a read lists the whole tree once rather than the paths asked for. */
const PATHSPEC_MAX = 64;

/**
 * Reads files of a side by path: a few through a listing of just those paths, more through one
 * listing of the whole tree, made on first use.
 */
function listedReader(repo: GitRepo, prefix: string, list: (paths: readonly string[]) => Promise<TreeFile[]>): ReadFiles {
  let whole: ReadFiles | undefined;
  return async (paths) => {
    if (paths.length === 0) return new Map();
    if (whole === undefined && paths.length <= PATHSPEC_MAX) return blobReader(repo, prefix, await list(paths.map((rel) => `${prefix}${rel}`)))(paths);
    whole ??= blobReader(repo, prefix, await list([]));
    return whole(paths);
  };
}

/** The git index (the staging area) listed: what the next commit would hold, before any lesson is read. */
export async function indexSide(repo: GitRepo, root: string, also: readonly string[] = []): Promise<GitSide> {
  const prefix = gitPrefix(repo, root);
  // `also`: other lessons-root-relative folders and files a gate will read, listed in the same
  // call (each git call reads the whole git index, and its start costs the process ~15 ms).
  const covered = [LESSONS_DIR, ...also];
  const links: string[] = [];
  return gitSide(repo, root, 'index', await indexFiles(repo, covered.map((rel) => `${prefix}${rel}`), links), (paths) => indexFiles(repo, paths), covered, links);
}

/** A commit's tree listed, before any lesson is read. */
export async function commitSide(repo: GitRepo, root: string, commit: string): Promise<GitSide> {
  const prefix = gitPrefix(repo, root);
  const links: string[] = [];
  return gitSide(repo, root, commit, await treeFiles(repo, commit, [`${prefix}${LESSONS_DIR}`], links), (paths) => treeFiles(repo, commit, paths), [LESSONS_DIR], links);
}

/** What the next commit would hold: the git index (the staging area). */
export async function indexSnapshot(repo: GitRepo, root: string, cache: LessonFileCache, wanted: FactsWanted): Promise<Snapshot> {
  return gitSnapshot(await indexSide(repo, root), cache, wanted);
}

/** The tree of a commit, with the facts `wanted` (the base side needs only the lessons' fields). */
export async function commitSnapshot(repo: GitRepo, root: string, commit: string, cache: LessonFileCache, wanted: FactsWanted): Promise<Snapshot> {
  return gitSnapshot(await commitSide(repo, root, commit), cache, wanted);
}
