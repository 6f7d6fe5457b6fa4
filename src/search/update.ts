import fs from 'node:fs';
import path from 'node:path';
import type { IndexEntry } from '../index/build.js';
import type { IndexedTree } from '../store/index-write.js';
import { UNCHAINED, chained, parseIndexEntries } from '../index/read.js';
import { readRegularFile, readText, writeInRepo } from '../io/fs.js';
import { INDEX_FILE } from '../io/repo.js';
import { ensureStateDir } from '../io/state.js';
import type { LoadedLesson } from '../lesson/load.js';
import { packageVersion } from '../io/package-root.js';
import type { FileStamp, IndexLine, IndexLineSource } from './delta.js';
import { memorySource, SearchIndex, type SearchSource } from './search-index.js';
import type { Segment } from './segment.js';
import { builtFrom, CACHE_FILE, DELTA_FILE, isFresh, lessonFoldersMtime, openCached, opened, openSources, SEARCH_LOCK, statIndex, type Cached, type OpenedSearch } from './open.js';

/** How long an update waits for another process updating the cache. */
const LOCK_WAIT_MS = 120_000;

/**
 * Bringing the search cache up to date (search-cache.ts says when): a delta of the lessons that
 * changed since the base (search-delta.ts), or a full build past its share; and the scan of the
 * lesson files when the index cannot be used.
 */

function writeCache(root: string, file: string, bytes: Uint8Array): void {
  try {
    ensureStateDir(root);
    writeInRepo(root, file, bytes, { durable: false });
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
  const [{ buildIndex, serializeIndex }, { narrative }] = await Promise.all([import('../index/build.js'), import('./build.js')]);
  const index = buildIndex(lessons);
  const bodies = new Map<string, string>();
  for (const { lesson } of lessons) if (!bodies.has(lesson.id)) bodies.set(lesson.id, narrative(lesson.body));
  return { entries: index.lessons, text: serializeIndex(index), bodies };
}

async function scanTree(root: string): Promise<ScannedTree> {
  const { loadLessons } = await import('../lesson/load.js');
  return indexTree(loadLessons(root).lessons);
}

function stampOf(file: string): FileStamp | null {
  try {
    const stat = fs.statSync(file);
    return { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
  } catch {
    return null;
  }
}

/**
 * The body text of each lesson, read from its file (the frontmatter is the index's already),
 * the file's stamp, taken before the read so a later write is always seen, and the git blob id
 * of the bytes read; a file that cannot be read adds no body and no blob.
 */
async function readBodies(root: string, entries: readonly IndexEntry[]): Promise<{ bodies: Map<string, string>; stamps: Map<string, FileStamp | null>; blobs: Map<string, string> }> {
  const [{ narrative }, { stampFor }, { gitBlobId }, bodyOf] = await Promise.all([import('./build.js'), import('./delta.js'), import('../util/digest.js'), bodyReader()]);
  const contentHash = await fileHash();
  const now = Date.now();
  const bodies = new Map<string, string>();
  const stamps = new Map<string, FileStamp | null>();
  const blobs = new Map<string, string>();
  for (const entry of entries) {
    if (entry.status === 'retired') continue;
    const file = path.join(root, entry.path);
    const stamp = stampOf(file);
    let bytes: Buffer;
    try {
      bytes = readRegularFile(file);
    } catch {
      stamps.set(entry.id, stamp);
      continue;
    }
    stamps.set(entry.id, stamp && stampFor(stamp, now, () => contentHash(bytes)));
    blobs.set(entry.id, gitBlobId(bytes));
    bodies.set(entry.id, narrative(bodyOf(bytes)));
  }
  return { bodies, stamps, blobs };
}

/**
 * A lesson file's body as the lesson parser gives it (the frontmatter is the index's already),
 * what narrative() takes: a scan of the files and the cache index the same text. A file without
 * frontmatter (none is indexed) is all body.
 */
async function bodyReader(): Promise<(bytes: Buffer) => string> {
  const { lessonBody } = await import('../lesson/parse.js');
  return (bytes) => {
    const text = bytes.toString('utf8');
    return lessonBody(text) ?? text.replace(/\r\n/g, '\n');
  };
}

/** The thesauri shipped in data/thesaurus, as one map: per word, the related words every file gives it; empty when none is there. */
export async function readThesaurus(): Promise<Map<string, string[]>> {
  return parseThesaurus(await readThesaurusText());
}

/** Thesaurus lines (word, tab, related words) as a map; a word listed on several lines gets the related words of each. */
export function parseThesaurus(text: string): Map<string, string[]> {
  const thesaurus = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const entry = thesaurusEntry(line);
    if (!entry) continue;
    const known = thesaurus.get(entry[0]);
    thesaurus.set(entry[0], known === undefined ? entry[1] : [...new Set([...known, ...entry[1]])]);
  }
  return thesaurus;
}

/** The shipped thesauri's text, one file after the other (a word may be listed in each); '' when none is there. */
export async function readThesaurusText(): Promise<string> {
  const { packageFile } = await import('../io/package-root.js');
  let text = '';
  for (const file of THESAURUS_FILES) {
    try {
      const part = readText(packageFile(file));
      text += part === '' || part.endsWith('\n') ? part : `${part}\n`;
    } catch {
      // A thesaurus left out of the package only costs recall.
    }
  }
  return text;
}

/** One line of the thesaurus: its word and related words; undefined for a line without a word. */
export function thesaurusEntry(line: string): [string, string[]] | undefined {
  const tab = line.indexOf('\t');
  return tab > 0 ? [line.slice(0, tab), line.slice(tab + 1).split(' ')] : undefined;
}

/**
 * The thesauri shipped in data/thesaurus: WordNet 3.0 (general English) and Stack Overflow's tag
 * synonyms (software: db, database; hg, mercurial), read as one (data/thesaurus/README.md).
 */
export const THESAURUS_FILES = ['data/thesaurus/wordnet-synonyms.tsv', 'data/thesaurus/stackoverflow-synonyms.tsv'] as const;

/** Building and hashing happen only when the cache is stale, so their modules load only then. */
async function sha256(data: string | Uint8Array): Promise<string> {
  return (await import('../util/digest.js')).sha256(data);
}

async function fileHash(): Promise<(bytes: Uint8Array) => string> {
  const { hash } = await import('node:crypto');
  return (bytes) => hash('sha1', bytes, 'base64');
}

/** The hash of an index entry's JSON: of its text, or of its UTF-8 bytes as the index holds them (the same hash). */
async function lineHash(): Promise<(json: string | Uint8Array) => string> {
  const { hash } = await import('node:crypto');
  return (json) => hash('sha1', json, 'base64');
}

/** A search index of `entries` held in memory, with the sources segment beside it when given. */
async function inMemory(entries: readonly IndexEntry[], digest: string, bodies: ReadonlyMap<string, string>, sources?: Segment): Promise<SearchIndex> {
  const { buildSearchIndex } = await import('./build.js');
  const bytes = buildSearchIndex(entries, { digest, stat: null, verifiedMtimeMs: 0 }, { bodies, thesaurus: await readThesaurus() });
  return SearchIndex.open(memorySource(bytes), undefined, undefined, sources)!;
}

/**
 * The search index of lessons already loaded, held in memory, built as a scan of the lesson
 * files builds it: for lessons that are not the working tree's (a commit the guard checks).
 */
export async function searchFromLessons(lessons: readonly LoadedLesson[], sources?: Segment): Promise<{ index: SearchIndex; digest: string }> {
  const tree = await indexTree(lessons);
  const digest = await sha256(tree.text);
  return { index: await inMemory(tree.entries, digest, tree.bodies, sources), digest };
}

export async function fallback(root: string, why: string, scanned?: ScannedTree): Promise<OpenedSearch> {
  const tree = scanned ?? (await scanTree(root));
  const digest = await sha256(tree.text);
  // The fetched sources are searched with the scanned tree as with the cache.
  const sources = openSources(root);
  return {
    index: await inMemory(tree.entries, digest, tree.bodies, sources.segment),
    digest,
    warning: [`${why}; scanned the lesson files instead (run \`lessons index\` to make preflight fast again)`, sources.warning].filter(Boolean).join('; '),
    close: sources.close,
  };
}

/**
 * What `lessons index` hands the search cache, under the lessons lock, right after it wrote
 * lessons/index.json or found it to be the index of the working tree: that tree, and the lesson
 * folders' newest mtime from before the tree was read. The lessons' files need no stat then, nor
 * the folders a scan: the index command has just read them.
 */
export interface SearchHandover {
  tree: IndexedTree;
  foldersMtime: number;
}

/**
 * Brings the cache up to date and opens it, under the search-cache lock (waiting for another
 * process doing the same, then using what it wrote). Without a lock (a read-only checkout) it
 * updates all the same; the cache files are written atomically, a delta names its base, so a
 * reader never mixes two updates. `locked`: the caller holds the lock already.
 */
export async function updateSearch(root: string, options: { locked?: boolean; handover?: SearchHandover } = {}): Promise<OpenedSearch> {
  if (options.locked) return update(root, options.handover);
  const { withLock } = await import('../io/lock.js');
  try {
    return await withLock(root, SEARCH_LOCK, () => update(root, options.handover), { timeoutMs: LOCK_WAIT_MS });
  } catch {
    // No lock (a read-only .lessons/, a holder past the wait): update without it; an update that fails itself fails again here.
    return update(root, options.handover);
  }
}

async function update(root: string, handover?: SearchHandover): Promise<OpenedSearch> {
  const stat = statIndex(root);
  if (!stat) return fallback(root, `${INDEX_FILE} is missing`);
  const cached = openCached(root);
  // A cache brought along for this very tree is fresh whatever the folders' mtimes; one fresh by its stats alone may still hold a body the tree has changed.
  const fresh = handover ? builtFrom(cached.index, stat) && cached.index.source.tree === handover.tree.digest : isFresh(cached.index, stat, root);
  if (fresh) return opened(cached as Cached & { index: SearchIndex });
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path.join(root, INDEX_FILE));
  } catch {
    cached.close();
    return fallback(root, `${INDEX_FILE} cannot be read`);
  }
  const digest = await sha256(bytes);
  const { IndexLineSource } = await import('./delta.js');
  const lines = new IndexLineSource(bytes);
  let verifiedMtimeMs = handover?.foldersMtime ?? 0;
  const foldersMtime = handover ? 0 : lessonFoldersMtime(root);
  if (foldersMtime > stat.mtimeMs) {
    // Folders newer than the index: after a checkout that is often only write order, so compare the content.
    const tree = await scanTree(root);
    if (tree.text !== lines.whole) {
      cached.close();
      return fallback(root, `${INDEX_FILE} is older than the lesson files`, tree);
    }
    verifiedMtimeMs = foldersMtime;
  }
  const source = { digest, stat, verifiedMtimeMs, ...(handover ? { tree: handover.tree.digest } : {}) };
  const hash = await lineHash();
  // Brought along for the tree this index was updated from: only the entries the update touched can differ from the cache.
  const change = handover?.tree.change;
  const touched = change && cached.index?.source.tree === change.from ? change.touched : undefined;
  if (cached.index && (touched || lines.all())) {
    const delta = await deltaUpdate(root, cached.index, lines, source, hash, handover?.tree, touched);
    cached.close();
    if (delta) {
      writeCache(root, DELTA_FILE, delta);
      const reopened = openCached(root, { delta });
      if (reopened.index && reopened.index.hasDelta) return opened(reopened as Cached & { index: SearchIndex });
      reopened.close();
    }
  } else {
    cached.close();
  }
  return fullUpdate(root, lines.whole, lines.all(), source, hash);
}

async function deltaUpdate(
  root: string,
  index: SearchIndex,
  lines: IndexLineSource,
  source: SearchSource,
  hash: (json: string | Uint8Array) => string,
  tree: IndexedTree | undefined,
  touched: readonly string[] | undefined,
): Promise<Uint8Array | undefined> {
  const [{ buildDelta }, { narrative }, contentHash, bodyOf] = await Promise.all([import('./delta.js'), import('./build.js'), fileHash(), bodyReader()]);
  return buildDelta({
    base: index.baseSegment,
    settled: index.deltaSegment?.lines('entries'),
    ...(touched ? { touched, ...(index.deltaSegment ? { current: index.deltaSegment } : {}) } : {}),
    now: Date.now(),
    ...(tree ? { blobs: (file: string) => tree.blobOf(file) } : {}),
    lines,
    source,
    hash,
    stamp: (file) => stampOf(path.join(root, file)),
    contentHash: (file) => {
      try {
        return contentHash(readRegularFile(path.join(root, file)));
      } catch {
        return null;
      }
    },
    bodies: (entries) => {
      const bodies = new Map<string, string>();
      for (const entry of entries) {
        try {
          bodies.set(entry.id, narrative(bodyOf(readRegularFile(path.join(root, entry.path)))));
        } catch {
          // A file that cannot be read adds no body text, as in a full build.
        }
      }
      return bodies;
    },
  });
}

async function fullUpdate(
  root: string,
  text: string,
  lines: readonly IndexLine[] | undefined,
  source: SearchSource,
  hash: (json: string | Uint8Array) => string,
): Promise<OpenedSearch> {
  const entries = parseIndexEntries(text);
  if (entries === undefined) return fallback(root, `${INDEX_FILE} is not a valid index`);
  if (!chained(entries)) return fallback(root, `${UNCHAINED} (a merge that kept both sides' lines, or an index an older lessons wrote)`);
  const [{ buildSegment }, { formatEntryLine }] = await Promise.all([import('./build.js'), import('./delta.js')]);
  let bytes: Uint8Array;
  try {
    // The lessons' full text goes into the cache: read the files now, never at query time.
    const { bodies, stamps, blobs } = await readBodies(root, entries);
    // Each entry's JSON as the index holds it (its bytes when read from them), what its line hash is of.
    const json = lines && lines.length === entries.length ? lines.map((line) => line.bytes ?? line.json) : entries.map((entry) => JSON.stringify(entry));
    let doc = 0;
    const entryLines = entries.map((entry, i) =>
      formatEntryLine({ id: entry.id, hash: hash(json[i]!), doc: entry.status === 'retired' ? -1 : doc++, path: entry.path, stamp: stamps.get(entry.id) ?? null, blob: blobs.get(entry.id) }),
    );
    const id = await sha256(`${source.digest}\n${entryLines.join('\n')}`);
    bytes = buildSegment({ entries, source, extras: { bodies, thesaurus: await readThesaurus() }, id, entryLines, tool: packageVersion() });
  } catch {
    return fallback(root, `${INDEX_FILE} is not a valid index`);
  }
  writeCache(root, CACHE_FILE, bytes);
  try {
    fs.rmSync(path.join(root, DELTA_FILE), { force: true });
  } catch {
    // A delta left behind names the old base and is never read with the new one.
  }
  return opened(openCached(root, { base: bytes }) as Cached & { index: SearchIndex });
}

