import fs from 'node:fs';
import path from 'node:path';
import type { IndexEntry } from '../index/build.js';
import type { LoadedLesson } from '../lesson/load.js';
import { parseIndexEntries } from '../index/read.js';
import { openRegularFile, readRegularFile, writeInRepo } from '../io/fs.js';
import { INDEX_FILE, lessonDirs } from '../io/repo.js';
import { ensureStateDir } from '../io/state.js';
import { memorySource, SearchIndex, type ByteSource } from './search-index.js';

/**
 * Where preflight's search index comes from. The fast path opens the cache file under
 * .lessons/ when the stat of lessons/index.json (size, mtime, inode) is the one it was
 * built from, and reads it piece by piece; it never parses index.json. Otherwise the cache
 * is rebuilt from index.json, keyed by its sha256, together with the lessons' full text (read
 * from the files then, so queries never read them) and the thesaurus. When index.json is
 * missing, unreadable or older than the lesson folders, the lessons are scanned instead, with
 * a warning.
 */

export const CACHE_FILE = '.lessons/cache/search.bin';

export interface OpenedSearch {
  index: SearchIndex;
  /** sha256 of lessons/index.json, or of the scanned tree's serialized index. */
  digest: string;
  /** One line for stderr when the index was missing or stale. */
  warning: string | undefined;
  /** Releases the cache file; the index must not be read after. */
  close: () => void;
}

interface IndexStat {
  size: number;
  mtimeMs: number;
  ino: number;
}

function statIndex(root: string): IndexStat | undefined {
  try {
    const stat = fs.statSync(path.join(root, INDEX_FILE));
    return { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
  } catch {
    return undefined;
  }
}

/**
 * The newest mtime of the level folders (lessons/cases, patterns, principles). Adding,
 * removing or renaming a lesson, and every write by the CLI (atomic: temp file and rename),
 * changes it; statting every lesson file instead would cost about 3 ms per 1,000 lessons on
 * each run. (lessons/ itself is left out: writing index.json changes it.)
 */
function lessonFoldersMtime(root: string): number {
  let newest = 0;
  for (const { dir } of lessonDirs(root)) {
    try {
      newest = Math.max(newest, fs.statSync(dir).mtimeMs);
    } catch {
      // A level without a folder has no lessons to be newer.
    }
  }
  return newest;
}

function fileSource(file: string): { source: ByteSource; close: () => void } | undefined {
  let fd: number;
  try {
    fd = openRegularFile(file);
  } catch {
    return undefined;
  }
  const source: ByteSource = {
    size: fs.fstatSync(fd).size,
    read: (offset, length) => {
      const bytes = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const n = fs.readSync(fd, bytes, done, length - done, offset + done);
        if (n === 0) break;
        done += n;
      }
      return done === length ? bytes : bytes.subarray(0, done);
    },
  };
  return { source, close: () => fs.closeSync(fd) };
}

function sameStat(a: IndexStat | null, b: IndexStat): boolean {
  return a !== null && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

function writeCache(root: string, bytes: Uint8Array): void {
  try {
    ensureStateDir(root);
    writeInRepo(root, CACHE_FILE, bytes, { durable: false });
  } catch {
    // A cache that cannot be written (read-only checkout) only costs speed.
  }
}

interface ScannedTree {
  entries: IndexEntry[];
  text: string;
  /** Per lesson id: the text the index does not carry (body sections but the checklist). */
  bodies: Map<string, string>;
}

async function indexTree(lessons: readonly LoadedLesson[]): Promise<ScannedTree> {
  const [{ buildIndex, serializeIndex }, { narrative }] = await Promise.all([import('../index/build.js'), import('./search-build.js')]);
  const index = buildIndex(lessons);
  const bodies = new Map<string, string>();
  for (const { lesson } of lessons) if (!bodies.has(lesson.id)) bodies.set(lesson.id, narrative(lesson.body));
  return { entries: index.lessons, text: serializeIndex(index), bodies };
}

async function scanTree(root: string): Promise<ScannedTree> {
  const { loadLessons } = await import('../lesson/load.js');
  return indexTree(loadLessons(root).lessons);
}

/** The body text of each indexed lesson, read from its file (the frontmatter is the index's already); a file that cannot be read adds none. */
async function readBodies(root: string, entries: readonly IndexEntry[]): Promise<Map<string, string>> {
  const { narrative } = await import('./search-build.js');
  const bodies = new Map<string, string>();
  for (const entry of entries) {
    let text: string;
    try {
      text = readRegularFile(path.join(root, entry.path)).toString('utf8');
    } catch {
      continue;
    }
    const frontmatter = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
    bodies.set(entry.id, narrative((frontmatter ? text.slice(frontmatter[0].length) : text).replace(/\r\n/g, '\n')));
  }
  return bodies;
}

/** The thesaurus shipped in data/thesaurus (word, tab, related words); empty when it is missing. */
async function readThesaurus(): Promise<Map<string, string[]>> {
  const { packageFile } = await import('../package-root.js');
  const thesaurus = new Map<string, string[]>();
  let text: string;
  try {
    text = fs.readFileSync(packageFile(THESAURUS_FILE), 'utf8');
  } catch {
    return thesaurus;
  }
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) thesaurus.set(line.slice(0, tab), line.slice(tab + 1).split(' '));
  }
  return thesaurus;
}

export const THESAURUS_FILE = 'data/thesaurus/wordnet-synonyms.tsv';

/** Building and hashing happen only when the cache is stale, so their modules load only then. */
async function sha256(data: string | Uint8Array): Promise<string> {
  return (await import('../util/digest.js')).sha256(data);
}

async function fromEntries(
  tree: Pick<ScannedTree, 'entries' | 'bodies'>,
  digest: string,
  stat: IndexStat | null,
  verifiedMtimeMs: number,
): Promise<{ bytes: Uint8Array; index: SearchIndex }> {
  const { buildSearchIndex } = await import('./search-build.js');
  const bytes = buildSearchIndex(tree.entries, { digest, stat, verifiedMtimeMs }, { bodies: tree.bodies, thesaurus: await readThesaurus() });
  return { bytes, index: SearchIndex.open(memorySource(bytes))! };
}

/**
 * The search index of lessons already loaded, held in memory, built as a scan of the lesson
 * files builds it: for lessons that are not the working tree's (a commit the guard checks).
 */
export async function searchFromLessons(lessons: readonly LoadedLesson[]): Promise<{ index: SearchIndex; digest: string }> {
  const tree = await indexTree(lessons);
  const digest = await sha256(tree.text);
  return { index: (await fromEntries(tree, digest, null, 0)).index, digest };
}

async function fallback(root: string, why: string, scanned?: ScannedTree): Promise<OpenedSearch> {
  const tree = scanned ?? (await scanTree(root));
  const digest = await sha256(tree.text);
  return {
    index: (await fromEntries(tree, digest, null, 0)).index,
    digest,
    warning: `${why}; scanned the lesson files instead (run \`lessons index\` to make preflight fast again)`,
    close: () => undefined,
  };
}

export async function openSearch(root: string): Promise<OpenedSearch> {
  const stat = statIndex(root);
  if (!stat) return fallback(root, `${INDEX_FILE} is missing`);
  const cacheFile = fileSource(path.join(root, CACHE_FILE));
  const cached = cacheFile ? SearchIndex.open(cacheFile.source) : undefined;
  const valid = cached !== undefined && sameStat(cached.source.stat, stat);
  const foldersMtime = lessonFoldersMtime(root);
  const knownFresh = Math.max(stat.mtimeMs, valid ? cached.source.verifiedMtimeMs : 0);
  if (valid && foldersMtime <= knownFresh) return { index: cached, digest: cached.source.digest, warning: undefined, close: cacheFile!.close };
  cacheFile?.close();

  let text: Buffer;
  try {
    text = readRegularFile(path.join(root, INDEX_FILE));
  } catch {
    return fallback(root, `${INDEX_FILE} cannot be read`);
  }
  const digest = await sha256(text);
  let verifiedMtimeMs = 0;
  let tree: ScannedTree | undefined;
  if (foldersMtime > stat.mtimeMs) {
    // Folders newer than the index: after a checkout that is often only write order, so compare the content.
    tree = await scanTree(root);
    if (tree.text !== text.toString('utf8')) {
      return fallback(root, `${INDEX_FILE} is older than the lesson files`, tree);
    }
    verifiedMtimeMs = foldersMtime;
  }
  const entries = parseIndexEntries(text.toString('utf8'));
  if (entries === undefined) return fallback(root, `${INDEX_FILE} is not a valid index`);
  let built: { bytes: Uint8Array; index: SearchIndex };
  try {
    // The lessons' full text goes into the cache: read the files now, never at query time.
    built = await fromEntries({ entries, bodies: tree?.bodies ?? (await readBodies(root, entries)) }, digest, stat, verifiedMtimeMs);
  } catch {
    return fallback(root, `${INDEX_FILE} is not a valid index`);
  }
  writeCache(root, built.bytes);
  return { index: built.index, digest, warning: undefined, close: () => undefined };
}
