import { LEVELS, SEVERITIES, SOURCES, STATUSES, type Insight, type Kind, type Level, type Severity, type Source, type Status } from '../lesson/model.js';

/**
 * The search index preflight queries, as one byte layout that lives in memory (built from
 * the index) or in a cache file under .lessons/ (read piece by piece, so a query touches
 * only the dictionary, the postings of its terms and the records of the lessons it shows).
 *
 * Text relevance is BM25+ (k1 1.2, b 0.7, delta 0.5, the parameters MiniSearch uses) summed
 * over boosted fields. It does not depend on the query, so every (term, lesson) pair stores
 * its finished score; a query only adds up the postings of its terms.
 *
 * Layout: "LSC1", u32 header length, header JSON, then 4-byte aligned sections:
 *   dict      sorted terms joined by "\n"
 *   termTable u32 pairs per term: byte offset into postings, number of postings
 *   meta      16 bytes per lesson (see META_BYTES)
 *   docTable  u32 per lesson + 1: byte offsets into docs
 *   linkTable u32 per lesson + 1: offsets into links
 *   links     u32 per lineage link: 2 * lesson + 1 for a lesson distilled from this one
 *             (promoted_into), 2 * lesson for one this was distilled from (promoted_from)
 *   postings  per term: u32 lesson numbers, f32 scores, u8 field bits (padded)
 *   docs      one JSON record per lesson (what the output shows)
 *   triggers  JSON [[lesson, tools, paths, commands], ...] for lessons with path or command triggers
 *   phrases   sorted lines `term term...<TAB>lesson<TAB>tool,tool`: keyword phrases of two or
 *             more words, stemmed
 *   related   sorted lines `term<TAB>corpus-term corpus-term...`: thesaurus relatives in the corpus
 */

/**
 * `tags` holds one-word tags; the words of compound tags (`distributed-systems`) only hint, as
 * `tagWords`. `body` is the rest of the lesson's text: Situation, Mistake, Root Cause, Fix and
 * any other section but the checklist.
 */
export const FIELDS = ['title', 'summary', 'tags', 'tagWords', 'checklist', 'keywords', 'body'] as const;
export type Field = (typeof FIELDS)[number];
export const FIELD_BOOST: Record<Field, number> = { title: 2, summary: 1, tags: 1.5, tagWords: 1, checklist: 0.8, keywords: 1.5, body: 0.6 };
export const FIELD_BIT: Record<Field, number> = { title: 1, summary: 2, tags: 4, tagWords: 32, checklist: 8, keywords: 16, body: 64 };

export const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
export const MAGIC = 'LSC1';
export const SEARCH_FORMAT_VERSION = 2;
export const META_BYTES = 16;
/** Byte offsets within a lesson's META_BYTES: u8 codes (index into LEVELS etc.), u16 occurrences and project, i32 day. */
export const META = { level: 0, status: 1, severity: 2, source: 3, confidence: 4, transferability: 5, occurrences: 6, project: 8, validatedDay: 12 } as const;
export const NO_DATE = -1;
export const NO_PROJECT = 0xffff;

/** The signals ranking needs for every lesson, kept in a fixed-width table. */
export interface DocMeta {
  level: Level;
  status: Status;
  severity: Severity;
  source: Source;
  confidence: number;
  transferability: number;
  occurrences: number;
  /** Days since 1970-01-01 of last_validated_at (or created_at), NO_DATE when neither is set. */
  validatedDay: number;
  project: string | null;
}

/** What the output shows about a lesson. */
export interface DocRecord {
  id: string;
  title: string;
  path: string;
  level: Level;
  status: Status;
  severity: Severity;
  tags: string[];
  checklist: string[];
  summary: string;
  keywords: string[];
  /** Absent in caches written before the field existed. */
  kind?: Kind | null;
  insight?: Insight | null;
}

export interface TriggerRow {
  doc: number;
  tools: string[];
  paths: string[];
  commands: string[];
  /** Keyword phrases of two or more words, as stemmed terms. */
  phrases: string[][];
}

/** A keyword phrase of a lesson whose first term is in the query. */
export interface PhraseRow {
  doc: number;
  terms: string[];
  tools: string[];
}

export interface Postings {
  docs: Uint32Array;
  scores: Float32Array;
  fields: Uint8Array;
}

/** Where the cache came from, so a reader can tell whether it still describes index.json. */
export interface SearchSource {
  digest: string;
  stat: { size: number; mtimeMs: number; ino: number } | null;
  /** Newest lesson-folder mtime at which the tree was checked to give exactly this index. */
  verifiedMtimeMs: number;
}

export interface Header extends SearchSource {
  version: number;
  docCount: number;
  termCount: number;
  projects: string[];
  sections: Record<'dict' | 'termTable' | 'meta' | 'docTable' | 'linkTable' | 'links' | 'postings' | 'docs' | 'triggers' | 'phrases' | 'related', [number, number]>;
}

export const align4 = (n: number): number => (n + 3) & ~3;

/** Random access to the bytes of a search index: a file read at offsets, or a buffer. */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Uint8Array;
}

export function memorySource(bytes: Uint8Array): ByteSource {
  // A copy keeps typed-array views aligned.
  return { size: bytes.length, read: (offset, length) => bytes.slice(offset, offset + length) };
}

/** A search index opened over its bytes; everything past the header is read on first use. */
export class SearchIndex {
  readonly docCount: number;
  readonly source: SearchSource;
  private readonly header: Header;
  private dictCache: string[] | undefined;
  private termTableCache: Uint32Array | undefined;
  private metaCache: DataView | undefined;
  private docTableCache: Uint32Array | undefined;
  private linkCache: { table: Uint32Array; links: Uint32Array } | undefined;
  private relatedText: string | undefined;
  private phrasesText: string | undefined;

  private constructor(private readonly bytes: ByteSource, header: Header) {
    this.header = header;
    this.docCount = header.docCount;
    this.source = { digest: header.digest, stat: header.stat, verifiedMtimeMs: header.verifiedMtimeMs };
  }

  /** Opens the index, or returns undefined when the bytes are not a search index of this version. */
  static open(bytes: ByteSource): SearchIndex | undefined {
    const start = bytes.read(0, 8);
    if (start.length < 8 || new TextDecoder().decode(start.subarray(0, 4)) !== MAGIC) return undefined;
    const length = new DataView(start.buffer, start.byteOffset).getUint32(4, true);
    try {
      const header = JSON.parse(new TextDecoder().decode(bytes.read(8, length))) as Header;
      const end = Math.max(...Object.values(header.sections).map(([offset, length]) => offset + length));
      return header.version === SEARCH_FORMAT_VERSION && end <= bytes.size ? new SearchIndex(bytes, header) : undefined;
    } catch {
      return undefined;
    }
  }

  private section(name: keyof Header['sections']): Uint8Array {
    const [offset, length] = this.header.sections[name];
    return this.bytes.read(offset, length);
  }

  /** The dictionary: every term of every lesson, sorted. */
  get terms(): string[] {
    if (!this.dictCache) {
      const text = new TextDecoder().decode(this.section('dict'));
      this.dictCache = text === '' ? [] : text.split('\n');
    }
    return this.dictCache;
  }

  postings(termIndex: number): Postings {
    if (!this.termTableCache) this.termTableCache = new Uint32Array(this.section('termTable').buffer);
    const offset = this.termTableCache[termIndex * 2]!;
    const count = this.termTableCache[termIndex * 2 + 1]!;
    const bytes = this.bytes.read(this.header.sections.postings[0] + offset, count * 8 + align4(count));
    return {
      docs: new Uint32Array(bytes.buffer, bytes.byteOffset, count),
      scores: new Float32Array(bytes.buffer, bytes.byteOffset + count * 4, count),
      fields: new Uint8Array(bytes.buffer, bytes.byteOffset + count * 8, count),
    };
  }

  /** The fixed-width metadata table (META_BYTES per lesson; offsets as in buildSearchIndex). */
  get metaView(): DataView {
    if (!this.metaCache) {
      const bytes = this.section('meta');
      this.metaCache = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    }
    return this.metaCache;
  }

  /** The number the meta table uses for a project, or -1 when no lesson has it. */
  projectCode(project: string): number {
    return this.header.projects.indexOf(project);
  }

  meta(doc: number): DocMeta {
    const view = this.metaView;
    const at = doc * META_BYTES;
    const project = view.getUint16(at + META.project, true);
    return {
      level: LEVELS[view.getUint8(at + META.level)]!,
      status: STATUSES[view.getUint8(at + META.status)]!,
      severity: SEVERITIES[view.getUint8(at + META.severity)]!,
      source: SOURCES[view.getUint8(at + META.source)]!,
      confidence: view.getUint8(at + META.confidence),
      transferability: view.getUint8(at + META.transferability),
      occurrences: view.getUint16(at + META.occurrences, true),
      project: project === NO_PROJECT ? null : (this.header.projects[project] ?? null),
      validatedDay: view.getInt32(at + META.validatedDay, true),
    };
  }

  record(doc: number): DocRecord {
    if (!this.docTableCache) this.docTableCache = new Uint32Array(this.section('docTable').buffer);
    const start = this.docTableCache[doc]!;
    const end = this.docTableCache[doc + 1]!;
    return JSON.parse(new TextDecoder().decode(this.bytes.read(this.header.sections.docs[0] + start, end - start))) as DocRecord;
  }

  /** Lessons linked to `doc` by promotion: `up` when distilled from it (its pattern or principle). */
  lineage(doc: number): { doc: number; up: boolean }[] {
    if (!this.linkCache) this.linkCache = { table: new Uint32Array(this.section('linkTable').buffer), links: new Uint32Array(this.section('links').buffer) };
    const { table, links } = this.linkCache;
    const result: { doc: number; up: boolean }[] = [];
    for (let i = table[doc]!; i < table[doc + 1]!; i++) result.push({ doc: links[i]! >>> 1, up: (links[i]! & 1) === 1 });
    return result;
  }

  /** Lessons with path or command triggers (their keyword phrases come from phrases()). */
  triggers(): TriggerRow[] {
    if (this.header.sections.triggers[1] === 0) return [];
    const rows = JSON.parse(new TextDecoder().decode(this.section('triggers'))) as [number, string[], string[], string[]][];
    return rows.map(([doc, tools, paths, commands]) => ({ doc, tools, paths, commands, phrases: [] }));
  }

  /** Keyword phrases that begin with one of `terms`. */
  phrases(terms: Iterable<string>): PhraseRow[] {
    this.phrasesText ??= new TextDecoder().decode(this.section('phrases'));
    const rows: PhraseRow[] = [];
    for (const term of new Set(terms)) {
      for (const line of linesFrom(this.phrasesText, `${term} `)) {
        const [phrase, doc, tools] = line.split('\t');
        rows.push({ doc: Number(doc), terms: phrase!.split(' '), tools: tools === '' || tools === undefined ? [] : tools.split(',') });
      }
    }
    return rows;
  }

  /** Corpus terms a query term is related to by the thesaurus (none when it is not in it). */
  related(term: string): readonly string[] {
    this.relatedText ??= new TextDecoder().decode(this.section('related'));
    const line = linesFrom(this.relatedText, `${term}\t`)[0];
    return line === undefined ? [] : line.slice(term.length + 1).split(' ');
  }}

/** The lines of sorted, newline-separated `text` that start with `prefix`, found by binary search. */
export function linesFrom(text: string, prefix: string): string[] {
  let lo = 0;
  let hi = text.length;
  // The first line whose text is >= prefix.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = text.lastIndexOf('\n', mid - 1) + 1;
    const end = text.indexOf('\n', start);
    const lineEnd = end < 0 ? text.length : end;
    if (text.slice(start, lineEnd) < prefix) lo = lineEnd + 1;
    else hi = start;
  }
  const lines: string[] = [];
  while (lo < text.length && text.startsWith(prefix, lo)) {
    const end = text.indexOf('\n', lo);
    const lineEnd = end < 0 ? text.length : end;
    lines.push(text.slice(lo, lineEnd));
    lo = lineEnd + 1;
  }
  return lines;
}
