import fs from 'node:fs';
import path from 'node:path';
import { readMarkdownFiles, toPosixRelative } from '../io/fs.js';
import type { GitRepo } from '../io/git/repo.js';
import { indexFiles, readBlobs, treeFiles, type TreeFile } from '../io/git/tree.js';
import { INDEX_FILE, LESSONS_DIR, lessonDirs } from '../io/repo.js';
import type { LoadedTree } from '../lesson/load.js';
import { levelOfFolder, type Level } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import { sha256 } from '../util/digest.js';
import { fromLoaded, type CachedFile, type LessonCache } from './lesson-cache.js';

/** One lesson file of a side, with what the cache knows about its content. */
export interface LessonFileRef {
  path: string;
  entry: CachedFile;
}

type ReadFiles = (paths: readonly string[]) => Promise<Map<string, Uint8Array>>;

/** The lessons of one side of a check: the working tree, the git index, or a commit. */
export interface Snapshot {
  /** `worktree`, `index`, a commit sha, or `empty` (before the first commit). */
  label: string;
  tree: LoadedTree;
  lessonFiles: LessonFileRef[];
  /** Bytes this run already read (the lessons the cache did not know). */
  knownBytes: Map<string, Uint8Array>;
  /** The text of lessons/index.json, undefined when the file is absent. */
  indexText: string | undefined;
  /** Reads files of this side by lessons-root-relative path (absent files are left out). */
  readFiles: ReadFiles;
}

/** The level a path `lessons/<folder>/<name>.md` stands for; undefined for anything else. */
export function lessonPathLevel(relPath: string): Level | undefined {
  const parts = relPath.split('/');
  if (parts.length !== 3 || parts[0] !== LESSONS_DIR || !parts[2]!.endsWith('.md')) return undefined;
  return levelOfFolder(parts[1]!);
}

interface Listed {
  path: string;
  level: Level;
  /** The content's identity: a git blob id or a sha256, with the path. */
  key: string;
}

/** Parses the files the cache does not know, then assembles the tree in path order. */
async function buildTree(items: readonly Listed[], read: ReadFiles, cache: LessonCache): Promise<Pick<Snapshot, 'tree' | 'lessonFiles' | 'knownBytes'>> {
  const misses = items.filter((item) => cache.get(item.key) === undefined);
  let contents = new Map<string, Uint8Array>();
  if (misses.length > 0) {
    const { addLessonFile } = await import('../lesson/load.js');
    contents = await read(misses.map((item) => item.path));
    for (const item of misses) {
      const one: LoadedTree = { lessons: [], problems: [] };
      addLessonFile(one, item.path, contents.get(item.path) ?? new Uint8Array(), item.level);
      cache.set(item.key, fromLoaded(one.lessons[0], one.problems));
    }
  }
  const tree: LoadedTree = { lessons: [], problems: [] };
  const lessonFiles: LessonFileRef[] = [];
  for (const item of [...items].sort((a, b) => compareStrings(a.path, b.path))) {
    const entry = cache.get(item.key) ?? fromLoaded(undefined, []);
    lessonFiles.push({ path: item.path, entry });
    tree.problems.push(...entry.problems);
    const loaded = cache.lessonOf(item.key, entry, item.path);
    if (loaded) tree.lessons.push(loaded);
  }
  return { tree, lessonFiles, knownBytes: contents };
}

export function emptySnapshot(): Snapshot {
  return { label: 'empty', tree: { lessons: [], problems: [] }, lessonFiles: [], knownBytes: new Map(), indexText: undefined, readFiles: async () => new Map() };
}

/** The lessons on disk, as `lessons lint` sees them. */
export async function worktreeSnapshot(root: string, cache: LessonCache): Promise<Snapshot> {
  const items: Listed[] = [];
  const bytes = new Map<string, Uint8Array>();
  const problems: LoadedTree['problems'] = [];
  for (const { level, dir } of lessonDirs(root)) {
    for (const read of readMarkdownFiles(root, dir)) {
      if (read.kind === 'problem') {
        problems.push({ rule: 'file', severity: read.severity, file: read.path, message: read.message });
        continue;
      }
      bytes.set(read.path, read.bytes);
      items.push({ path: read.path, level, key: `sha256:${sha256(read.bytes)}:${read.path}` });
    }
  }
  const readOne = (rel: string): Uint8Array | undefined => {
    if (bytes.has(rel)) return bytes.get(rel);
    try {
      const file = path.join(root, rel);
      return fs.statSync(file).isFile() ? fs.readFileSync(file) : undefined;
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
  const built = { ...(await buildTree(items, readFiles, cache)), knownBytes: bytes };
  built.tree.problems.unshift(...problems);
  const index = readOne(INDEX_FILE);
  return { label: 'worktree', ...built, indexText: index === undefined ? undefined : Buffer.from(index).toString('utf8'), readFiles };
}

/** Where the lessons root sits inside the git top level, as a path prefix (`''` or `sub/dir/`). */
export function gitPrefix(repo: GitRepo, root: string): string {
  const rel = toPosixRelative(repo.topLevel, fs.realpathSync(root));
  return rel === '' ? '' : `${rel}/`;
}

/** Reads files of a git listing by lessons-root-relative path. */
function blobReader(repo: GitRepo, prefix: string, listed: readonly TreeFile[]): ReadFiles {
  const byPath = new Map<string, string>();
  for (const file of listed) if (file.path.startsWith(prefix)) byPath.set(file.path.slice(prefix.length), file.blob);
  return async (paths) => {
    const blobs = await readBlobs(repo, paths.map((rel) => byPath.get(rel)).filter((blob): blob is string => blob !== undefined));
    const result = new Map<string, Uint8Array>();
    for (const rel of paths) {
      const blob = byPath.get(rel);
      if (blob !== undefined) result.set(rel, blobs.get(blob)!);
    }
    return result;
  };
}

async function gitSnapshot(
  repo: GitRepo,
  root: string,
  label: string,
  listed: TreeFile[],
  cache: LessonCache,
  readOthers: ReadFiles,
  withIndex: boolean,
): Promise<Snapshot> {
  const prefix = gitPrefix(repo, root);
  const items: Listed[] = [];
  for (const file of listed) {
    if (!file.path.startsWith(prefix)) continue;
    const rel = file.path.slice(prefix.length);
    const level = lessonPathLevel(rel);
    if (level !== undefined) items.push({ path: rel, level, key: `git:${file.blob}:${rel}` });
  }
  const read = blobReader(repo, prefix, listed);
  const built = await buildTree(items, read, cache);
  const index = withIndex ? (await read([INDEX_FILE])).get(INDEX_FILE) : undefined;
  return { label, ...built, indexText: index === undefined ? undefined : Buffer.from(index).toString('utf8'), readFiles: readOthers };
}

/** Reads any file of a side through one listing of the whole tree, made on first use (no pathspec limits). */
function wholeListing(repo: GitRepo, prefix: string, list: () => Promise<TreeFile[]>): ReadFiles {
  let reader: ReadFiles | undefined;
  return async (paths) => {
    if (paths.length === 0) return new Map();
    reader ??= blobReader(repo, prefix, await list());
    return reader(paths);
  };
}

/** What the next commit would hold: the git index (the staging area). */
export async function indexSnapshot(repo: GitRepo, root: string, cache: LessonCache): Promise<Snapshot> {
  const prefix = gitPrefix(repo, root);
  return gitSnapshot(repo, root, 'index', await indexFiles(repo, [`${prefix}${LESSONS_DIR}`]), cache, wholeListing(repo, prefix, () => indexFiles(repo, [])), true);
}

/** The tree of a commit; `withIndex` also reads its lessons/index.json (the base side does not need it). */
export async function commitSnapshot(repo: GitRepo, root: string, commit: string, cache: LessonCache, withIndex: boolean): Promise<Snapshot> {
  const prefix = gitPrefix(repo, root);
  return gitSnapshot(repo, root, commit, await treeFiles(repo, commit, [`${prefix}${LESSONS_DIR}`]), cache, wholeListing(repo, prefix, () => treeFiles(repo, commit, [])), withIndex);
}
