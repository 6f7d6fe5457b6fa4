import { isAscii } from 'node:buffer';
import { lowerBound, lowerBoundAt, type TermSource } from './expand.js';
import type { DocRecord, SearchSource } from './search-index.js';

/**
 * One segment of the search cache: the lessons it holds, numbered 0..docCount-1 in id order,
 * read piece by piece from its bytes. The base segment holds the corpus as it was at its last
 * full build; a delta segment holds the lessons changed or added since, and says which of the
 * base's lessons are gone (see search-index.ts for how queries read both).
 *
 * Layout: "LSC1", u32 header length, header JSON, then 4-byte aligned sections:
 *   dict       sorted terms joined by "\n"
 *   dictTable  u32 per term + 1: byte offsets into dict where each term starts (the last: dict's
 *              length + 1), so a query reads the terms it compares, never the whole dictionary
 *   termTable  u32 pairs per term: byte offset into postings, number of postings
 *   postings   per term: u32 lesson numbers, f32 scores (with this segment's own statistics),
 *              u8 field bits (padded), then per posting and per field it occurs in, in FIELDS
 *              order, the varints term frequency and field length (padded): what a score is
 *              computed from when statistics change
 *   meta       META_BYTES per lesson
 *   docTable   u32 per lesson + 1: byte offsets into docs
 *   docs       one JSON record per lesson (what the output shows)
 *   idTable    u32 per lesson + 1: byte offsets into ids
 *   ids        the lessons' ids, in order
 *   linkTable  u32 per lesson + 1: byte offsets into links
 *   links      per lesson, JSON [[id, up, doc], ...]: promoted_into ids (up), then promoted_from ids,
 *              each with the linked lesson's number in this segment (-1 when it is not in it)
 *   triggers   JSON [[tools, paths, commands, [lesson, ...]], ...]: the lessons with path or command
 *              triggers, grouped by their triggers (a query matches each distinct set once)
 *   phrases    sorted lines `term term...<TAB>lesson<TAB>tool,tool`: keyword phrases of two or more words, stemmed
 *   related    sorted lines `term<TAB>term term...`: thesaurus relatives among this segment's terms
 *   lengths    u32 per lesson and field: the field's length in terms
 *   fwdTable   u32 per lesson + 1: byte offsets into forward
 *   forward    per lesson, varint gaps between the sorted numbers of its terms
 *   entries    sorted lines `id<TAB>hash<TAB>path<TAB>size<TAB>mtimeMs<TAB>ino`: every index entry
 *              (retired ones too) as this segment was built from it (base only)
 *   removed    u32 base lesson numbers that are gone or changed (delta only)
 *   insertAt   u32 per lesson: how many base lessons sort before it (delta only)
 *   dead       sorted base terms no lesson has any more (delta only)
 *   thesaurus  sorted lines `term<TAB>term term...`: the whole thesaurus, stemmed (base only)
 *   projects   one JSON string a line: the project names meta codes refer to; a delta's list starts
 *              with its base's
 *   lock       the lock file's bytes the segment was built for (sources only): compared as they are,
 *              so a query never loads a hash function to see whether the segment is current
 */

export const MAGIC = 'LSC1';
export const SEARCH_FORMAT_VERSION = 8;

export const SECTIONS = [
  'dict',
  'dictTable',
  'termTable',
  'postings',
  'meta',
  'docTable',
  'docs',
  'idTable',
  'ids',
  'linkTable',
  'links',
  'triggers',
  'phrases',
  'related',
  'lengths',
  'fwdTable',
  'forward',
  'entries',
  'removed',
  'insertAt',
  'dead',
  'thesaurus',
  'projects',
  'lock',
] as const;
export type SectionName = (typeof SECTIONS)[number];

/** Corpus statistics BM25 reads: the number of lessons and the total length of each field. */
export interface CorpusStats {
  docCount: number;
  lengthSums: number[];
}

export interface SegmentHeader extends SearchSource {
  version: number;
  /** The version of lessons that wrote it: another version may stem or tokenize differently. */
  tool: string;
  kind: 'base' | 'delta' | 'sources';
  /** A base: what a delta names to say it was built on this one. A delta: its base's id. */
  id: string;
  base: string | null;
  docCount: number;
  termCount: number;
  lengthSums: number[];
  /** A delta: the statistics of base and delta together. */
  merged: CorpusStats | null;
  sections: Record<SectionName, [number, number]>;
}

export interface RawPostings {
  docs: Uint32Array;
  scores: Float32Array;
  fields: Uint8Array;
  /** Per posting, per field set in `fields`: varint term frequency, varint field length. */
  raw: Uint8Array;
}

const decoder = new TextDecoder();

export const align4 = (n: number): number => (n + 3) & ~3;

/** A per-lesson table up to this size is read whole for its first row (one read instead of one per row). */
const WHOLE_TABLE_BYTES = 64 * 1024;

/** Random access to the bytes of a segment: a file read at offsets, or a buffer. */
export interface ByteSource {
  size: number;
  /** `length` bytes from `offset`, into `into` when given (its first `length` bytes). */
  read(offset: number, length: number, into?: Uint8Array): Uint8Array;
}

export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length, into) => {
      if (!into) return bytes.slice(offset, offset + length); // a copy keeps typed-array views aligned
      into.set(bytes.subarray(offset, offset + length));
      return into.subarray(0, length);
    },
  };
}

/**
 * The lines of sorted newline-separated UTF-8 text that start with `prefix`, found by binary
 * search, decoding only the lines the search compares (compared as strings, the order the text
 * was sorted in).
 */
export function linesFrom(bytes: Buffer, prefix: string): string[] {
  const lineAt = (start: number): [string, number] => {
    const end = bytes.indexOf(10, start);
    const lineEnd = end < 0 ? bytes.length : end;
    return [bytes.toString('utf8', start, lineEnd), lineEnd];
  };
  let lo = 0;
  let hi = bytes.length;
  // The first line whose text is >= prefix.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = mid === 0 ? 0 : bytes.lastIndexOf(10, mid - 1) + 1;
    const [line, lineEnd] = lineAt(start);
    if (line < prefix) lo = lineEnd + 1;
    else hi = start;
  }
  const lines: string[] = [];
  while (lo < bytes.length) {
    const [line, lineEnd] = lineAt(lo);
    if (!line.startsWith(prefix)) break;
    lines.push(line);
    lo = lineEnd + 1;
  }
  return lines;
}

export class Segment {
  private dictCache: string[] | undefined;
  private termListCache: TermList | undefined;
  private readonly lineSections = new Map<'phrases' | 'related', Buffer>();
  /** Where row() reads. */
  private readonly pair = new Uint32Array(2);
  private readonly pairBytes = new Uint8Array(this.pair.buffer);
  private readonly rowBytes = new Uint8Array(4096);
  private termTableCache: Uint32Array | undefined;
  private metaCache: Uint8Array | undefined;
  /** The whole id section, once idReader read it. */
  private idsCache: Uint8Array | undefined;
  private tables = new Map<SectionName, Uint32Array>();
  private projectsCache: string[] | undefined;
  private projectStarts: Uint32Array | undefined;
  private projectBytes: Uint8Array | undefined;
  private texts = new Map<SectionName, string>();

  private constructor(private readonly bytes: ByteSource, readonly header: SegmentHeader) {}

  /** The segment, or undefined when the bytes are not a segment of this version (or are cut short). */
  static open(bytes: ByteSource, tool?: string): Segment | undefined {
    const start = bytes.read(0, 8);
    if (start.length < 8 || decoder.decode(start.subarray(0, 4)) !== MAGIC) return undefined;
    const length = new DataView(start.buffer, start.byteOffset).getUint32(4, true);
    try {
      const header = JSON.parse(decoder.decode(bytes.read(8, length))) as SegmentHeader;
      if (header.version !== SEARCH_FORMAT_VERSION || (tool !== undefined && header.tool !== tool) || SECTIONS.some((name) => !Array.isArray(header.sections[name]))) return undefined;
      const end = Math.max(...SECTIONS.map((name) => header.sections[name][0] + header.sections[name][1]));
      return end <= bytes.size ? new Segment(bytes, header) : undefined;
    } catch {
      return undefined;
    }
  }

  get docCount(): number {
    return this.header.docCount;
  }

  /** A section's bytes, read into `into` when given. */
  section(name: SectionName, into?: Uint8Array): Uint8Array {
    const [offset, length] = this.header.sections[name];
    if (into && into.length < length) throw new Error(`section ${name} of ${length} bytes does not fit in ${into.length}`);
    return this.bytes.read(offset, length, into);
  }

  private table(name: SectionName): Uint32Array {
    let table = this.tables.get(name);
    if (!table) {
      const bytes = this.section(name);
      this.tables.set(name, (table = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)));
    }
    return table;
  }

  text(name: SectionName): string {
    let text = this.texts.get(name);
    if (text === undefined) this.texts.set(name, (text = decoder.decode(this.section(name))));
    return text;
  }

  /** Sorted, newline-separated text as lines (none for empty text). */
  lines(name: SectionName): string[] {
    const text = this.text(name);
    return text === '' ? [] : text.split('\n');
  }

  get terms(): string[] {
    return (this.dictCache ??= this.lines('dict'));
  }

  /** The dictionary as stored, a term decoded when it is read (preflight's expansion scans a few ranges of it). */
  get termList(): TermList {
    if (this.termListCache) return this.termListCache;
    const bytes = this.section('dict');
    return (this.termListCache = new TermList(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), this.table('dictTable'), this.header.termCount));
  }

  /** The number of `term` in this segment's dictionary, or -1. */
  findTerm(term: string): number {
    if (this.dictCache) {
      const at = lowerBound(this.dictCache, term);
      return this.dictCache[at] === term ? at : -1;
    }
    const list = this.termList;
    const at = lowerBoundAt(list.length, (i) => list.at(i), term);
    return at < list.length && list.at(at) === term ? at : -1;
  }

  /** A term's postings; `raw` (the frequencies and lengths) is read only when asked for, and empty otherwise. */
  postings(termIndex: number, withRaw = true, into?: Uint8Array): RawPostings {
    this.termTableCache ??= this.table('termTable');
    const offset = this.termTableCache[termIndex * 2]!;
    const count = this.termTableCache[termIndex * 2 + 1]!;
    const fixed = count * 8 + align4(count);
    const end = !withRaw ? offset + fixed : termIndex + 1 < this.header.termCount ? this.termTableCache[termIndex * 2 + 2]! : this.header.sections.postings[1];
    // Without the raw part, read where the caller says (the ranking's workspace: the postings are read into the memory they are used in).
    const bytes = this.bytes.read(this.header.sections.postings[0] + offset, end - offset, withRaw ? undefined : into);
    return {
      docs: new Uint32Array(bytes.buffer, bytes.byteOffset, count),
      scores: new Float32Array(bytes.buffer, bytes.byteOffset + count * 4, count),
      fields: new Uint8Array(bytes.buffer, bytes.byteOffset + count * 8, count),
      raw: bytes.subarray(fixed),
    };
  }

  /** The number of lessons that have term `termIndex`. */
  postingCount(termIndex: number): number {
    this.termTableCache ??= this.table('termTable');
    return this.termTableCache[termIndex * 2 + 1]!;
  }

  get meta(): Uint8Array {
    return (this.metaCache ??= this.section('meta'));
  }

  /**
   * Lesson `doc`'s bytes in `blob`, valid until the next row is read (every caller decodes them
   * at once). A query reads a few lessons' rows of tables that have one entry per lesson: a
   * large table (hundreds of kilobytes over a hundred thousand lessons) has the row's two
   * offsets read alone unless something read the whole table already; both reads go into
   * buffers kept for them, so a search by id that reads a score of rows allocates nothing.
   */
  private row(table: SectionName, blob: SectionName, doc: number): Uint8Array {
    let start: number;
    let end: number;
    const offsets = this.header.sections[table][1] <= WHOLE_TABLE_BYTES ? this.table(table) : this.tables.get(table);
    if (offsets) {
      start = offsets[doc]!;
      end = offsets[doc + 1]!;
    } else {
      this.bytes.read(this.header.sections[table][0] + doc * 4, 8, this.pairBytes);
      start = this.pair[0]!;
      end = this.pair[1]!;
    }
    const length = end - start;
    return this.bytes.read(this.header.sections[blob][0] + start, length, length <= this.rowBytes.length ? this.rowBytes : undefined);
  }

  record(doc: number): DocRecord {
    return JSON.parse(decoder.decode(this.row('docTable', 'docs', doc))) as DocRecord;
  }

  id(doc: number): string {
    return this.idsCache ? this.idIn(this.idsCache, doc) : decoder.decode(this.row('idTable', 'ids', doc));
  }

  /**
   * Every lesson's id by number, from one read of the whole id section: for a caller that looks
   * at many lessons' ids, where a read per id would cost a system call each.
   */
  idReader(): (doc: number) => string {
    const blob = (this.idsCache ??= this.section('ids'));
    return (doc) => this.idIn(blob, doc);
  }

  private idIn(blob: Uint8Array, doc: number): string {
    const offsets = this.table('idTable');
    return decoder.decode(blob.subarray(offsets[doc]!, offsets[doc + 1]!));
  }

  /** The number of the lesson with `id`, or -1 (binary search over the id table). */
  findId(id: string): number {
    // A search reads a score of rows: the offsets once, whole.
    this.table('idTable');
    const at = lowerBoundAt(this.docCount, (i) => this.id(i), id);
    return at < this.docCount && this.id(at) === id ? at : -1;
  }

  /** Promotion links: the linked lesson's id, `up` for a lesson distilled from this one, and its number in this segment (-1: not in it). */
  links(doc: number): [string, boolean, number][] {
    return JSON.parse(decoder.decode(this.row('linkTable', 'links', doc))) as [string, boolean, number][];
  }

  /** The lessons with path or command triggers, by their distinct (tools, paths, commands). */
  triggers(): [string[], string[], string[], number[]][] {
    const text = this.text('triggers');
    return text === '' ? [] : (JSON.parse(text) as [string[], string[], string[], number[]][]);
  }

  /** Project names meta codes refer to (a delta's list starts with its base's). */
  get projects(): string[] {
    return (this.projectsCache ??= this.lines('projects').map((line) => JSON.parse(line) as string));
  }

  /** The name of project `code`, without parsing the others (a large corpus has thousands). */
  projectName(code: number): string | undefined {
    const bytes = (this.projectBytes ??= this.section('projects'));
    if (!this.projectStarts) {
      // Where each line starts, found in the bytes: nothing is decoded but the names asked for.
      const starts = [0];
      for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) starts.push(at + 1);
      starts.push(bytes.length + 1);
      this.projectStarts = Uint32Array.from(bytes.length === 0 ? [0] : starts);
    }
    if (code + 1 >= this.projectStarts.length) return undefined;
    return JSON.parse(decoder.decode(bytes.subarray(this.projectStarts[code]!, this.projectStarts[code + 1]! - 1))) as string;
  }

  /** Phrase lines `term term...<TAB>lesson<TAB>tools` that begin with `term` (the section is read, never decoded whole). */
  phraseLines(term: string): string[] {
    return linesFrom(this.sortedLines('phrases'), `${term} `);
  }

  related(term: string): string[] {
    const line = linesFrom(this.sortedLines('related'), `${term}\t`)[0];
    return line === undefined ? [] : line.slice(term.length + 1).split(' ');
  }

  /** A section of sorted lines, as bytes, read once. */
  private sortedLines(name: 'phrases' | 'related'): Buffer {
    let bytes = this.lineSections.get(name);
    if (!bytes) {
      const section = this.section(name);
      this.lineSections.set(name, (bytes = Buffer.from(section.buffer, section.byteOffset, section.length)));
    }
    return bytes;
  }

  lengths(doc: number, count: number): Uint32Array {
    return this.table('lengths').subarray(doc * count, doc * count + count);
  }

  /** The numbers of the terms lesson `doc` has, ascending. */
  forward(doc: number): number[] {
    const bytes = this.row('fwdTable', 'forward', doc);
    const result: number[] = [];
    let at = 0;
    let previous = 0;
    while (at < bytes.length) {
      const [gap, next] = readVarint(bytes, at);
      at = next;
      previous += gap;
      result.push(previous);
    }
    return result;
  }

  u32s(name: 'removed' | 'insertAt'): Uint32Array {
    return this.table(name);
  }
}

export function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

/** The varint at `at` and the offset after it. */
export function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  let i = at;
  for (;;) {
    const byte = bytes[i++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, i];
    scale *= 128;
  }
}

/** A segment's dictionary read in place: terms joined by "\n", with where each starts. */
export class TermList implements TermSource {
  /** Every byte below 0x80: a term's length in bytes is its length in UTF-16 units. */
  private readonly ascii: boolean;

  constructor(
    private readonly text: Buffer,
    private readonly starts: Uint32Array,
    readonly length: number,
  ) {
    this.ascii = isAscii(text);
  }

  at(i: number): string {
    return this.text.toString(this.ascii ? 'latin1' : 'utf8', this.starts[i], this.starts[i + 1]! - 1);
  }

  mayHaveLength(i: number, min: number, max: number): boolean {
    const bytes = this.starts[i + 1]! - 1 - this.starts[i]!;
    // A UTF-16 unit is one to three bytes of UTF-8 (a pair of them, four).
    return this.ascii ? bytes >= min && bytes <= max : bytes >= min && bytes <= 3 * max;
  }
}
