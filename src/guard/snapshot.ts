import fs from 'node:fs';
import path from 'node:path';
import { readMarkdownFiles, toPosixRelative } from '../io/fs.js';
import { indexFiles, readBlobs, treeFiles, type GitRepo, type TreeFile } from '../io/git.js';
import { INDEX_FILE, LESSONS_DIR, lessonDirs } from '../io/repo.js';
import { addLessonFile, type LoadedTree } from '../lesson/load.js';
import { levelOfFolder, type Level } from '../lesson/model.js';

/** The lessons of one side of a check: the working tree, the git index, or a commit. */
export interface Snapshot {
  /** `worktree`, `index`, a commit sha, or `empty` (before the first commit). */
  label: string;
  tree: LoadedTree;
  /** Raw bytes of each lesson file, by lessons-root-relative path (secrets scanning needs lines). */
  lessonBytes: Map<string, Uint8Array>;
  /** The text of lessons/index.json, undefined when the file is absent. */
  indexText: string | undefined;
  /** Reads other files of this side by lessons-root-relative path (absent files are left out). */
  readFiles: (paths: readonly string[]) => Promise<Map<string, Uint8Array>>;
}

/** The level a path `lessons/<folder>/<name>.md` stands for; undefined for anything else. */
export function lessonPathLevel(relPath: string): Level | undefined {
  const parts = relPath.split('/');
  if (parts.length !== 3 || parts[0] !== LESSONS_DIR || !parts[2]!.endsWith('.md')) return undefined;
  return levelOfFolder(parts[1]!);
}

function buildTree(files: readonly { path: string; bytes: Uint8Array; level: Level }[]): Pick<Snapshot, 'tree' | 'lessonBytes'> {
  const tree: LoadedTree = { lessons: [], problems: [] };
  const lessonBytes = new Map<string, Uint8Array>();
  for (const file of files) {
    lessonBytes.set(file.path, file.bytes);
    addLessonFile(tree, file.path, file.bytes, file.level);
  }
  return { tree, lessonBytes };
}

export function emptySnapshot(): Snapshot {
  return {
    label: 'empty',
    tree: { lessons: [], problems: [] },
    lessonBytes: new Map(),
    indexText: undefined,
    readFiles: async () => new Map(),
  };
}

/** The lessons on disk, as `lessons lint` sees them. */
export function worktreeSnapshot(root: string): Snapshot {
  const files: { path: string; bytes: Uint8Array; level: Level }[] = [];
  const problems: LoadedTree['problems'] = [];
  for (const { level, dir } of lessonDirs(root)) {
    for (const read of readMarkdownFiles(root, dir)) {
      if (read.kind === 'problem') problems.push({ rule: 'file', severity: read.severity, file: read.path, message: read.message });
      else files.push({ path: read.path, bytes: read.bytes, level });
    }
  }
  const built = buildTree(files);
  built.tree.problems.unshift(...problems);
  const readOne = (rel: string): Uint8Array | undefined => {
    try {
      const file = path.join(root, rel);
      return fs.statSync(file).isFile() ? fs.readFileSync(file) : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    label: 'worktree',
    ...built,
    indexText: readOne(INDEX_FILE)?.toString(),
    readFiles: async (paths) => {
      const result = new Map<string, Uint8Array>();
      for (const rel of paths) {
        const bytes = readOne(rel);
        if (bytes) result.set(rel, bytes);
      }
      return result;
    },
  };
}

/** Where the lessons root sits inside the git top level, as a path prefix (`''` or `sub/dir/`). */
export function gitPrefix(repo: GitRepo, root: string): string {
  const rel = toPosixRelative(repo.topLevel, fs.realpathSync(root));
  return rel === '' ? '' : `${rel}/`;
}

/** Parses each blob once even when base and head both hold it. */
export type BlobCache = Map<string, Uint8Array>;

type ReadFiles = Snapshot['readFiles'];

/** Reads files of a git listing by lessons-root-relative path, through the blob cache. */
function blobReader(repo: GitRepo, prefix: string, listed: readonly TreeFile[], cache: BlobCache): ReadFiles {
  const byPath = new Map<string, string>();
  for (const file of listed) if (file.path.startsWith(prefix)) byPath.set(file.path.slice(prefix.length), file.blob);
  return async (paths) => {
    const blobs = paths.map((rel) => byPath.get(rel)).filter((blob): blob is string => blob !== undefined);
    for (const [blob, bytes] of await readBlobs(repo, blobs.filter((blob) => !cache.has(blob)))) cache.set(blob, bytes);
    const result = new Map<string, Uint8Array>();
    for (const rel of paths) {
      const blob = byPath.get(rel);
      if (blob !== undefined) result.set(rel, cache.get(blob)!);
    }
    return result;
  };
}

async function gitSnapshot(repo: GitRepo, root: string, label: string, listed: TreeFile[], cache: BlobCache, readOthers: ReadFiles): Promise<Snapshot> {
  const prefix = gitPrefix(repo, root);
  const lessonPaths = listed
    .filter((file) => file.path.startsWith(prefix))
    .map((file) => file.path.slice(prefix.length))
    .filter((rel) => lessonPathLevel(rel) !== undefined);
  const contents = await blobReader(repo, prefix, listed, cache)([...lessonPaths, INDEX_FILE]);
  const built = buildTree(lessonPaths.map((rel) => ({ path: rel, bytes: contents.get(rel)!, level: lessonPathLevel(rel)! })));
  const index = contents.get(INDEX_FILE);
  return { label, ...built, indexText: index === undefined ? undefined : Buffer.from(index).toString(), readFiles: readOthers };
}

/** What the next commit would hold: the git index (the staging area). */
export async function indexSnapshot(repo: GitRepo, root: string, cache: BlobCache): Promise<Snapshot> {
  const prefix = gitPrefix(repo, root);
  const readOthers: ReadFiles = async (paths) =>
    blobReader(repo, prefix, await indexFiles(repo, paths.map((rel) => `${prefix}${rel}`)), cache)(paths);
  return gitSnapshot(repo, root, 'index', await indexFiles(repo, [`${prefix}${LESSONS_DIR}`]), cache, readOthers);
}

/** The tree of a commit. */
export async function commitSnapshot(repo: GitRepo, root: string, commit: string, cache: BlobCache): Promise<Snapshot> {
  const prefix = gitPrefix(repo, root);
  const readOthers: ReadFiles = async (paths) =>
    blobReader(repo, prefix, await treeFiles(repo, commit, paths.map((rel) => `${prefix}${rel}`)), cache)(paths);
  return gitSnapshot(repo, root, commit, await treeFiles(repo, commit, [`${prefix}${LESSONS_DIR}`]), cache, readOthers);
}
