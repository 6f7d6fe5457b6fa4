import type { IndexEntry } from '../index/build.js';
import { LEVELS, SEVERITIES, SOURCES, STATUSES, type Level, type Severity, type Source, type Status } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import { terms as textTerms } from './text.js';

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
 *   triggers  JSON [[lesson, tools, paths, commands], ...] for lessons with context triggers
 */

/** `tags` holds one-word tags; the words of compound tags (`distributed-systems`) only hint, as `tagWords`. */
export const FIELDS = ['title', 'summary', 'tags', 'tagWords', 'checklist', 'keywords'] as const;
export type Field = (typeof FIELDS)[number];
const FIELD_BOOST: Record<Field, number> = { title: 2, summary: 1, tags: 1.5, tagWords: 1, checklist: 0.8, keywords: 1.5 };
export const FIELD_BIT: Record<Field, number> = { title: 1, summary: 2, tags: 4, tagWords: 32, checklist: 8, keywords: 16 };

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const MAGIC = 'LSC1';
export const SEARCH_FORMAT_VERSION = 1;
export const META_BYTES = 16;
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
}

export interface TriggerRow {
  doc: number;
  tools: string[];
  paths: string[];
  commands: string[];
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

interface Header extends SearchSource {
  version: number;
  docCount: number;
  termCount: number;
  projects: string[];
  sections: Record<'dict' | 'termTable' | 'meta' | 'docTable' | 'linkTable' | 'links' | 'postings' | 'docs' | 'triggers', [number, number]>;
}

const align4 = (n: number): number => (n + 3) & ~3;

export function dayNumber(date: string | null): number {
  if (date === null) return NO_DATE;
  const time = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(time) ? NO_DATE : Math.floor(time / 86_400_000);
}

function hasContextTriggers(entry: IndexEntry): boolean {
  return entry.triggers.tools.length + entry.triggers.paths.length + entry.triggers.commands.length > 0;
}

/** Builds the search index bytes from index entries; pure. Retired lessons are left out: they are never selected. */
export function buildSearchIndex(entries: readonly IndexEntry[], source: SearchSource): Uint8Array {
  const docs = entries.filter((entry) => entry.status !== 'retired');
  const n = docs.length;
  const fieldTerms = docs.map((entry) => ({
    title: textTerms(entry.title),
    summary: textTerms(entry.summary),
    tags: entry.tags.map(textTerms).filter((t) => t.length === 1).flat(),
    tagWords: entry.tags.map(textTerms).filter((t) => t.length > 1).flat(),
    checklist: entry.checklist.flatMap(textTerms),
    keywords: entry.triggers.keywords.flatMap(textTerms),
  }));
  const avg = Object.fromEntries(
    FIELDS.map((field) => [field, Math.max(1, fieldTerms.reduce((sum, f) => sum + f[field].length, 0) / Math.max(1, n))]),
  ) as Record<Field, number>;
  // term -> lesson -> per-field frequencies
  const occurrences = new Map<string, Map<number, Record<Field, number>>>();
  fieldTerms.forEach((fields, doc) => {
    for (const field of FIELDS) {
      for (const term of fields[field]) {
        let byDoc = occurrences.get(term);
        if (!byDoc) occurrences.set(term, (byDoc = new Map()));
        let freq = byDoc.get(doc);
        if (!freq) byDoc.set(doc, (freq = { title: 0, summary: 0, tags: 0, tagWords: 0, checklist: 0, keywords: 0 }));
        freq[field]++;
      }
    }
  });
  const dictTerms = [...occurrences.keys()].sort(compareStrings);
  const postingChunks: Uint8Array[] = [];
  const termTable = new Uint32Array(dictTerms.length * 2);
  let postingsLength = 0;
  dictTerms.forEach((term, t) => {
    const byDoc = occurrences.get(term)!;
    const count = byDoc.size;
    const idf = Math.log(1 + (n - count + 0.5) / (count + 0.5));
    const chunk = new Uint8Array(count * 8 + align4(count));
    const view = new DataView(chunk.buffer);
    let i = 0;
    for (const [doc, freq] of [...byDoc.entries()].sort((a, b) => a[0] - b[0])) {
      let score = 0;
      let bits = 0;
      for (const field of FIELDS) {
        const tf = freq[field];
        if (tf === 0) continue;
        bits |= FIELD_BIT[field];
        const norm = tf + BM25.k * (1 - BM25.b + (BM25.b * fieldTerms[doc]![field].length) / avg[field]);
        score += FIELD_BOOST[field] * idf * (BM25.d + (tf * (BM25.k + 1)) / norm);
      }
      view.setUint32(i * 4, doc, true);
      view.setFloat32(count * 4 + i * 4, score, true);
      chunk[count * 8 + i] = bits;
      i++;
    }
    termTable[t * 2] = postingsLength;
    termTable[t * 2 + 1] = count;
    postingChunks.push(chunk);
    postingsLength += chunk.length;
  });

  const projects = [...new Set(docs.map((entry) => entry.project).filter((p): p is string => p !== null))].sort(compareStrings);
  const meta = new Uint8Array(n * META_BYTES);
  const metaView = new DataView(meta.buffer);
  docs.forEach((entry, doc) => {
    const at = doc * META_BYTES;
    meta[at] = LEVELS.indexOf(entry.level);
    meta[at + 1] = STATUSES.indexOf(entry.status);
    meta[at + 2] = SEVERITIES.indexOf(entry.severity);
    meta[at + 3] = SOURCES.indexOf(entry.source);
    meta[at + 4] = clampByte(entry.confidence);
    meta[at + 5] = clampByte(entry.transferability);
    metaView.setUint16(at + 6, Math.min(0xffff, Math.max(0, Math.round(entry.occurrences))), true);
    metaView.setUint16(at + 8, entry.project === null ? NO_PROJECT : projects.indexOf(entry.project), true);
    metaView.setInt32(at + 12, dayNumber(entry.last_validated_at ?? entry.created_at), true);
  });

  const encoder = new TextEncoder();
  const docBytes = docs.map((entry) => {
    const record: DocRecord = {
      id: entry.id,
      title: entry.title,
      path: entry.path,
      level: entry.level,
      status: entry.status,
      severity: entry.severity,
      tags: entry.tags,
      checklist: entry.checklist,
      summary: entry.summary,
      keywords: entry.triggers.keywords,
    };
    return encoder.encode(JSON.stringify(record));
  });
  const docTable = new Uint32Array(n + 1);
  let docsLength = 0;
  docBytes.forEach((bytes, doc) => {
    docTable[doc] = docsLength;
    docsLength += bytes.length;
  });
  docTable[n] = docsLength;
  const docNumber = new Map(docs.map((entry, doc) => [entry.id, doc]));
  const linkTable = new Uint32Array(n + 1);
  const links: number[] = [];
  docs.forEach((entry, doc) => {
    linkTable[doc] = links.length;
    for (const id of entry.promoted_into) if (docNumber.has(id)) links.push(docNumber.get(id)! * 2 + 1);
    for (const id of entry.promoted_from) if (docNumber.has(id)) links.push(docNumber.get(id)! * 2);
  });
  linkTable[n] = links.length;
  const triggerRows = docs.flatMap((entry, doc) =>
    hasContextTriggers(entry) ? [[doc, entry.triggers.tools, entry.triggers.paths, entry.triggers.commands]] : [],
  );
  const sections: [Header['sections'] extends Record<infer K, unknown> ? K : never, Uint8Array[]][] = [
    ['dict', [encoder.encode(dictTerms.join('\n'))]],
    ['termTable', [new Uint8Array(termTable.buffer)]],
    ['meta', [meta]],
    ['docTable', [new Uint8Array(docTable.buffer)]],
    ['linkTable', [new Uint8Array(linkTable.buffer)]],
    ['links', [new Uint8Array(new Uint32Array(links).buffer)]],
    ['postings', postingChunks],
    ['docs', docBytes],
    ['triggers', [encoder.encode(JSON.stringify(triggerRows))]],
  ];
  const header: Header = {
    version: SEARCH_FORMAT_VERSION,
    digest: source.digest,
    stat: source.stat,
    verifiedMtimeMs: source.verifiedMtimeMs,
    docCount: n,
    termCount: dictTerms.length,
    projects,
    sections: {} as Header['sections'],
  };
  // Offsets depend on the header's length: reserve room for every offset at its widest.
  const lengths = sections.map(([, chunks]) => chunks.reduce((sum, c) => sum + c.length, 0));
  sections.forEach(([name]) => (header.sections[name] = [0, 0]));
  let offset = align4(8 + encoder.encode(JSON.stringify(header)).length + sections.length * 2 * 12);
  sections.forEach(([name], i) => {
    header.sections[name] = [offset, lengths[i]!];
    offset = align4(offset + lengths[i]!);
  });
  const headerBytes = encoder.encode(JSON.stringify(header));
  const total = header.sections.triggers[0] + header.sections.triggers[1];
  const out = new Uint8Array(total);
  out.set(encoder.encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(4, header.sections.dict[0] - 8, true);
  out.fill(0x20, 8, header.sections.dict[0]);
  out.set(headerBytes, 8);
  sections.forEach(([name, chunks]) => {
    let at = header.sections[name][0];
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
  });
  return out;
}

function clampByte(value: number): number {
  return Math.min(255, Math.max(0, Math.round(value)));
}

/** Random access to the bytes of a search index: a file read at offsets, or a buffer. */
export interface ByteSource {
  read(offset: number, length: number): Uint8Array;
}

export function memorySource(bytes: Uint8Array): ByteSource {
  // A copy keeps typed-array views aligned.
  return { read: (offset, length) => bytes.slice(offset, offset + length) };
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
      return header.version === SEARCH_FORMAT_VERSION ? new SearchIndex(bytes, header) : undefined;
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
    const project = view.getUint16(at + 8, true);
    return {
      level: LEVELS[view.getUint8(at)]!,
      status: STATUSES[view.getUint8(at + 1)]!,
      severity: SEVERITIES[view.getUint8(at + 2)]!,
      source: SOURCES[view.getUint8(at + 3)]!,
      confidence: view.getUint8(at + 4),
      transferability: view.getUint8(at + 5),
      occurrences: view.getUint16(at + 6, true),
      project: project === NO_PROJECT ? null : (this.header.projects[project] ?? null),
      validatedDay: view.getInt32(at + 12, true),
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

  /** Lessons with tool, path or command triggers. */
  triggers(): TriggerRow[] {
    const rows = JSON.parse(new TextDecoder().decode(this.section('triggers'))) as [number, string[], string[], string[]][];
    return rows.map(([doc, tools, paths, commands]) => ({ doc, tools, paths, commands }));
  }
}
