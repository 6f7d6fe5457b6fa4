import type { IndexEntry } from '../index/build.js';
import { compareStrings } from '../util/compare.js';
import { buildSegment, fieldTermsOf, termStatistics, type SearchExtras } from './build.js';
import type { SearchSource } from './search-index.js';
import type { Segment } from './segment.js';
import { lowerBoundAt } from './expand.js';

/**
 * An update of the search cache that costs what changed: lessons/index.json is compared line
 * by line with the entries the base segment was built from (a hash of each line, and the
 * lesson file's size, mtime and inode for the body the index does not carry); the lessons
 * that differ go into a delta segment, with the base lessons they replace and the corpus
 * statistics of both together. Past a share of the base, a full build is cheaper to query and
 * is asked for instead.
 */

/** A delta may hold this share of the base's lessons (changed, added and removed) before a full build replaces both. */
export const COMPACT_SHARE = 0.1;
/** ...and at least this many, so a small corpus is not rebuilt on every edit. */
export const COMPACT_MIN = 64;

/**
 * What identifies a lesson file's content without reading it. A file written within
 * RACY_MS of its stamp (or stamped with a time ahead of the clock) may change again with the
 * same stamp: `racy` then holds a hash of its content, which an update compares instead.
 */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
  racy?: string;
}

/** Coarser than any file system's mtime granularity (FAT: 2 s) and small clock skews. */
export const RACY_MS = 2000;

/** One index entry as a segment was built from it. */
export interface EntryLine {
  id: string;
  /** Hash of the entry's JSON text. */
  hash: string;
  /** The lesson's number in the base, or -1 when it is not there (retired). */
  doc: number;
  path: string;
  stamp: FileStamp | null;
  /** The git blob id of the file's bytes the lesson's body was read from, when it was read. */
  blob?: string;
}

export function formatEntryLine(line: EntryLine): string {
  const stamp = line.stamp ? [line.stamp.size, line.stamp.mtimeMs, line.stamp.ino, line.stamp.racy ?? ''].join('\t') : '\t\t\t';
  return `${line.id}\t${line.hash}\t${line.doc}\t${line.path}\t${stamp}\t${line.blob ?? ''}`;
}

function parseEntryLine(text: string): EntryLine | undefined {
  const [id, hash, doc, file, size, mtimeMs, ino, racy, blob] = text.split('\t');
  if (id === undefined || hash === undefined || file === undefined || racy === undefined || blob === undefined) return undefined;
  const stamp = size === '' ? null : { size: Number(size), mtimeMs: Number(mtimeMs), ino: Number(ino), ...(racy === '' ? {} : { racy }) };
  return { id, hash, doc: Number(doc), path: file, stamp, ...(blob === '' ? {} : { blob }) };
}

export function sameStamp(a: FileStamp | null | undefined, b: FileStamp | null | undefined): boolean {
  return !!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/**
 * Whether a lesson file is as it was built: the blob the tree handed over names for it, or else
 * the same stamp, and, when that stamp was racy, the same content. A racy stamp whose file is found unchanged once its time is past the racy window
 * comes back as `settled`: the delta keeps it, so the next update compares the stamp alone
 * rather than reading and hashing the file again (after a checkout or a clone, every file's stamp
 * in a cache built at once is racy, and would stay so until the next full build).
 */
function unchangedFile(old: EntryLine, input: Pick<DeltaPlanInput, 'stamp' | 'contentHash' | 'now' | 'blobs'>): { unchanged: boolean; settled?: FileStamp } {
  // The tree `lessons index` just read says what the file holds: no stat needed.
  const blob = old.blob === undefined ? undefined : input.blobs?.(old.path);
  if (blob !== undefined) return { unchanged: blob === old.blob };
  if (!sameStamp(old.stamp, input.stamp(old.path))) return { unchanged: false };
  if (old.stamp!.racy === undefined) return { unchanged: true };
  if (old.stamp!.racy !== input.contentHash(old.path)) return { unchanged: false };
  const { size, mtimeMs, ino } = old.stamp!;
  return { unchanged: true, ...(input.now - mtimeMs >= RACY_MS ? { settled: { size, mtimeMs, ino } } : {}) };
}

/** A stamp taken now of a file with `mtimeMs`, with the content's hash when the stamp is racy. */
export function stampFor(stamp: Omit<FileStamp, 'racy'>, now: number, content: () => string): FileStamp {
  return now - stamp.mtimeMs < RACY_MS ? { ...stamp, racy: content() } : stamp;
}

/** One line of lessons/index.json as `lessons index` writes it: the entry's JSON and its id. */
export interface IndexLine {
  id: string;
  readonly json: string;
  /** The JSON's UTF-8 bytes, when the line was read from the index's bytes: hashed as they are (the hash of `json` is the same), decoded only when asked for. */
  readonly bytes?: Uint8Array;
}

// INDEX_HEAD and INDEX_TAIL of index/build.ts, which this module does not load.
const HEAD = Buffer.from('{\n  "version": 2,\n  "lessons": [\n');
const TAIL = Buffer.from('\n  ]\n}\n');
const LINE_START = Buffer.from('    {"id":');
const ID_END = Buffer.from('",');
/** Where an entry's id starts in its JSON (its opening quote). */
const ID_START = LINE_START.length - 4;
const AFTER_KEY = Buffer.from('"after":');
const AFTER_NONE = Buffer.from('null,');
const COMMA = 0x2c;
const NEWLINE = 0x0a;

/** An entry line read from the index's bytes: its JSON decoded when first asked for. */
class BytesLine implements IndexLine {
  private text: string | undefined;

  constructor(
    readonly id: string,
    readonly bytes: Buffer,
    /** Where the JSON's id ends (its closing quote). */
    readonly idEnd: number,
  ) {}

  get json(): string {
    return (this.text ??= this.bytes.toString('utf8'));
  }
}

/** The entry line `bytes[start, end)` (its indent, its JSON, and a comma unless it is the last), or undefined when it is not one. */
function lineAt(bytes: Buffer, start: number, end: number): BytesLine | undefined {
  if (end - start < LINE_START.length || bytes.compare(LINE_START, 0, LINE_START.length, start, start + LINE_START.length) !== 0) return undefined;
  const json = bytes.subarray(start + 4, bytes[end - 1] === COMMA ? end - 1 : end);
  const close = json.indexOf(ID_END, ID_START + 1);
  if (close < 0) return undefined;
  try {
    const id = JSON.parse(json.toString('utf8', ID_START, close + 1)) as unknown;
    return typeof id === 'string' ? new BytesLine(id, json, close) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `line`'s `after` names `before` (the line before it; null for the first), compared as
 * bytes: `"after":null,` or `"after":"<id>",` right after the id (an id is kebab-case).
 */
function follows(line: BytesLine, before: BytesLine | null): boolean {
  const json = line.bytes;
  const key = line.idEnd + ID_END.length;
  if (json.compare(AFTER_KEY, 0, AFTER_KEY.length, key, key + AFTER_KEY.length) !== 0) return false;
  const value = key + AFTER_KEY.length;
  if (before === null) return json.compare(AFTER_NONE, 0, AFTER_NONE.length, value, value + AFTER_NONE.length) === 0;
  // The id's bytes with their quotes, and the comma after them.
  const length = before.idEnd + ID_END.length - ID_START;
  return json.compare(before.bytes, ID_START, ID_START + length, value, value + length) === 0;
}

/** Whether `bytes` begin with the index's head and end with its tail, with room for a line between. */
function hasLayout(bytes: Buffer): boolean {
  return bytes.length > HEAD.length + TAIL.length && bytes.subarray(0, HEAD.length).equals(HEAD) && bytes.subarray(bytes.length - TAIL.length).equals(TAIL);
}

/** Where each newline-separated line of `bytes[start, end)` starts (the first at `start`, even when it is empty). */
function lineStartsIn(bytes: Buffer, start: number, end: number): number[] {
  const starts: number[] = [];
  for (let at = start; ; ) {
    starts.push(at);
    const newline = bytes.indexOf(NEWLINE, at);
    if (newline < 0 || newline >= end) break;
    at = newline + 1;
  }
  return starts;
}

/** Where each line between the head and the tail starts, and where the last one ends. */
function lineStarts(bytes: Buffer): { starts: number[]; end: number } {
  const end = bytes.length - TAIL.length;
  return { starts: lineStartsIn(bytes, HEAD.length, end), end };
}

/**
 * The entries of an index in the layout `lessons index` writes (one entry per line, sorted by
 * id), read from its bytes without decoding or parsing them; undefined for any other layout (a
 * full build reads those).
 */
export function indexLines(bytes: Buffer): IndexLine[] | undefined {
  if (!hasLayout(bytes)) return undefined;
  const { starts, end } = lineStarts(bytes);
  const result: BytesLine[] = [];
  for (let n = 0; n < starts.length; n++) {
    const last = n + 1 === starts.length;
    const lineEnd = last ? end : starts[n + 1]! - 1;
    // A comma after every line but the last: a union merge can leave a line without one, or the last with one.
    if ((bytes[lineEnd - 1] === COMMA) === last) return undefined;
    const line = lineAt(bytes, starts[n]!, lineEnd);
    const before = result.length > 0 ? result[result.length - 1]! : null;
    // Chained as chained() in index/read.ts says: in order, each after the line before it.
    if (line === undefined || !follows(line, before) || (before !== null && !(before.id < line.id))) return undefined;
    result.push(line);
  }
  return result;
}

/**
 * The entry lines of an index's bytes: all of them, in order (indexLines()), or one by its id,
 * found by a binary search over the lines' starts that decodes only the ids it compares (an
 * update that knows the entries it touched looks up a few of a hundred thousand).
 */
export class IndexLineSource {
  private text: string | undefined;
  private listed: IndexLine[] | undefined | null = null;
  private lines: { starts: number[]; end: number } | null | undefined;

  constructor(readonly bytes: Buffer) {}

  /** The index as text. */
  get whole(): string {
    return (this.text ??= this.bytes.toString('utf8'));
  }

  all(): readonly IndexLine[] | undefined {
    if (this.listed === null) this.listed = indexLines(this.bytes);
    return this.listed;
  }

  private line(n: number): IndexLine | undefined {
    const { starts, end } = this.lines!;
    return lineAt(this.bytes, starts[n]!, n + 1 < starts.length ? starts[n + 1]! - 1 : end);
  }

  /** The line of `id`: null when the index has none, undefined when the bytes are not in the layout. */
  find(id: string): IndexLine | null | undefined {
    if (this.lines === undefined) this.lines = hasLayout(this.bytes) ? lineStarts(this.bytes) : null;
    if (this.lines === null) return undefined;
    const count = this.lines.starts.length;
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const line = this.line(middle);
      if (line === undefined) return undefined;
      if (line.id < id) low = middle + 1;
      else high = middle;
    }
    if (low >= count) return null;
    const line = this.line(low);
    return line === undefined ? undefined : line.id === id ? line : null;
  }
}

export interface DeltaPlanInput {
  base: Segment;
  lines: IndexLineSource;
  source: SearchSource;
  /** The hash of an entry's JSON (its text, or its UTF-8 bytes: the same hash). */
  hash: (json: string | Uint8Array) => string;
  /** The lesson file's stamp now, or null when it cannot be statted. */
  stamp: (file: string) => FileStamp | null;
  /** The hash of the lesson file's content now (what a racy stamp holds), or null when it cannot be read. */
  contentHash: (file: string) => string | null;
  /** The body text (without its checklist) of changed lessons. */
  bodies: (entries: readonly IndexEntry[]) => Map<string, string>;
  /** The current delta's settled stamps (unchangedFile()): base entries whose racy stamp a later update found safe. */
  settled?: readonly string[];
  /** The current delta segment over `base`, when there is one: with `touched`, its lessons and the base lessons it removes are compared again. */
  current?: Segment;
  /**
   * The ids of the entries that differ from the index the current cache (base and delta) was
   * brought along for, when `lessons index` built this index from that one and says so: only
   * these (and what the current delta holds) are compared, not every line.
   */
  touched?: readonly string[];
  /** The time now, ms since the epoch: a racy stamp settles once its file is older than RACY_MS. */
  now: number;
  /**
   * The git blob id each lesson file has in the tree `lessons index` built the index from (a
   * path from the repository's top), when it hands that tree over: a built entry whose body was
   * read from that blob is unchanged without a stat; one it does not know is compared by stamp.
   */
  blobs?: (path: string) => string | undefined;
}

/**
 * The base's entry lines, found by id without decoding the others: the section's bytes, and
 * where each line starts (an update that knows which entries changed looks up a few of a
 * hundred thousand).
 */
class EntryTable {
  private readonly bytes: Buffer;
  private readonly starts: number[];

  constructor(section: Uint8Array) {
    this.bytes = Buffer.from(section.buffer, section.byteOffset, section.length);
    this.starts = this.bytes.length === 0 ? [] : lineStartsIn(this.bytes, 0, this.bytes.length);
  }

  private end(n: number): number {
    return n + 1 < this.starts.length ? this.starts[n + 1]! - 1 : this.bytes.length;
  }

  private idAt(n: number): string {
    const start = this.starts[n]!;
    const tab = this.bytes.indexOf(9, start);
    return this.bytes.toString('utf8', start, tab < 0 || tab > this.end(n) ? this.end(n) : tab);
  }

  /** The ids of the lines without a blob (the file could not be read when the base was built): compared by stamp, so always compared. */
  unread(): string[] {
    const ids: string[] = [];
    for (let n = 0; n < this.starts.length; n++) if (this.bytes[this.end(n) - 1] === 9) ids.push(this.idAt(n));
    return ids;
  }

  /** The line of `id`; null when there is none, undefined when it does not parse. */
  find(id: string): EntryLine | null | undefined {
    const n = lowerBoundAt(this.starts.length, (i) => this.idAt(i), id);
    if (n >= this.starts.length || this.idAt(n) !== id) return null;
    return parseEntryLine(this.bytes.toString('utf8', this.starts[n]!, this.end(n)));
  }
}

/**
 * The delta segment's bytes for the index `lines` over `base`, or undefined when the change is
 * too large for a delta (or a line is not an entry): then a full build is due.
 *
 * With `touched`, only those entries and the ones the current delta holds or removes are
 * compared: every other entry is as the current cache has it, which the full comparison would
 * find too (the same delta, byte for byte).
 */
export function buildDelta(input: DeltaPlanInput): Uint8Array | undefined {
  const { base } = input;
  // A settled stamp stands for the base's racy one while the entry is what it was built from.
  const settledBefore = new Map<string, EntryLine>();
  for (const text of input.settled ?? []) {
    const line = parseEntryLine(text);
    if (line?.stamp && line.stamp.racy === undefined) settledBefore.set(line.id, line);
  }
  const settled: EntryLine[] = [];
  const removed: number[] = [];
  const changed: IndexEntry[] = [];
  const budget = Math.max(COMPACT_MIN, Math.floor(COMPACT_SHARE * base.docCount));
  /** One entry: its index line now and the line the base was built from (either may be missing); false when no delta can hold the change. */
  const compare = (line: IndexLine | undefined, old: EntryLine | undefined): boolean => {
    if (line === undefined) {
      if (old && old.doc >= 0) removed.push(old.doc);
      return true;
    }
    if (old && old.hash === input.hash(line.bytes ?? line.json)) {
      if (old.doc < 0) return true;
      const before = settledBefore.get(old.id);
      const known = before && before.hash === old.hash && before.path === old.path && before.doc === old.doc ? before : old;
      const file = unchangedFile(known, input);
      if (file.unchanged) {
        if (known !== old) settled.push(known);
        else if (file.settled) settled.push({ ...old, stamp: file.settled });
        return true;
      }
    }
    if (old && old.doc >= 0) removed.push(old.doc);
    let entry: IndexEntry;
    try {
      entry = JSON.parse(line.json) as IndexEntry;
    } catch {
      return false;
    }
    if (entry.status !== 'retired') changed.push(entry);
    return removed.length + changed.length <= budget;
  };
  if (input.touched) {
    const table = new EntryTable(base.section('entries'));
    const ids = new Set([...input.touched, ...table.unread()]);
    // What the current delta holds differs from the base: compared again, as the full comparison would.
    const current = input.current;
    if (current) {
      const idOf = current.idReader();
      for (let doc = 0; doc < current.docCount; doc++) ids.add(idOf(doc));
      for (const doc of current.u32s('removed')) ids.add(base.id(doc));
    }
    for (const id of [...ids].sort(compareStrings)) {
      const line = input.lines.find(id);
      const old = table.find(id);
      if (line === undefined || old === undefined) return undefined;
      if (!compare(line ?? undefined, old ?? undefined)) return undefined;
    }
    // An entry not compared keeps the settled stamp the current delta has for it, where the full comparison keeps it.
    for (const [id, line] of settledBefore) {
      if (ids.has(id)) continue;
      const old = table.find(id);
      if (old === undefined) return undefined;
      if (old && old.doc >= 0 && line.hash === old.hash && line.path === old.path && line.doc === old.doc) settled.push(line);
    }
    settled.sort((a, b) => compareStrings(a.id, b.id));
  } else {
    const lines = input.lines.all();
    if (lines === undefined) return undefined;
    const built = base.lines('entries').map(parseEntryLine);
    if (built.some((line) => line === undefined)) return undefined;
    const previous = built as EntryLine[];
    let p = 0;
    for (const line of lines) {
      // Built entries the index no longer has.
      for (; p < previous.length && previous[p]!.id < line.id; p++) compare(undefined, previous[p]);
      const old = previous[p]?.id === line.id ? previous[p++] : undefined;
      if (!compare(line, old)) return undefined;
    }
    for (; p < previous.length; p++) compare(undefined, previous[p]);
  }
  if (removed.length + changed.length > budget) return undefined;
  removed.sort((a, b) => a - b);

  const bodies = input.bodies(changed);
  const statistics = termStatistics(changed.length, (doc) => fieldTermsOf(changed[doc]!, bodies.get(changed[doc]!.id) ?? ''));
  // Base lessons are numbered in id order: count those sorting before each delta lesson.
  const baseId = base.idReader();
  const insertAt = Uint32Array.from(changed, (entry) => lowerBoundAt(base.docCount, baseId, entry.id));
  const width = statistics.stats.lengthSums.length;
  const lengthSums = base.header.lengthSums.map((sum, f) => sum + statistics.stats.lengthSums[f]!);
  const lost = new Map<number, number>();
  for (const doc of removed) {
    const lengths = base.lengths(doc, width);
    for (let f = 0; f < width; f++) lengthSums[f]! -= lengths[f]!;
    for (const term of base.forward(doc)) lost.set(term, (lost.get(term) ?? 0) + 1);
  }
  const dead: string[] = [];
  for (const [term, count] of lost) {
    const word = base.terms[term]!;
    if (base.postingCount(term) === count && !statistics.postings.has(word)) dead.push(word);
  }
  const projects = [...base.projects];
  const added = new Set(changed.map((entry) => entry.project).filter((project): project is string => project !== null && !projects.includes(project)));
  projects.push(...[...added].sort(compareStrings));
  const extras: SearchExtras = { bodies, stemmedThesaurus: base.text('thesaurus') };
  return buildSegment({
    entries: changed,
    source: input.source,
    tool: base.header.tool,
    extras,
    statistics,
    entryLines: settled.map(formatEntryLine),
    delta: {
      base: base.header.id,
      removed: Uint32Array.from(removed),
      insertAt,
      dead: dead.sort(compareStrings),
      projects,
      merged: { docCount: base.docCount - removed.length + changed.length, lengthSums },
    },
  });
}
