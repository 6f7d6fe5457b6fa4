import type { IndexEntry } from '../index/build.js';
import { sections } from '../lesson/body.js';
import { CHECKLIST_HEADING, LEVELS, SEVERITIES, SOURCES, STATUSES } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import { shippedAcronyms } from './acronyms.js';
import { averageLengths, bareIdHash, FIELD_BIT, FIELDS, idfOf, META, META_BYTES, NO_DATE, NO_PROJECT, termScore, type DocRecord, type SearchSource } from './search-index.js';
import { align4, MAGIC, SEARCH_FORMAT_VERSION, SECTIONS, writeVarint, type CorpusStats, type SectionName, type SegmentHeader } from './segment.js';
import { indexTerms as textTerms, stem, words } from './text.js';

/** Writes the segment layout described in search-segment.ts; only runs when the cache is built or updated. */

export function dayNumber(date: string | null): number {
  if (date === null) return NO_DATE;
  const time = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(time) ? NO_DATE : Math.floor(time / 86_400_000);
}

/** A lesson body without its checklist: the Situation, Mistake, Root Cause and Fix a task's words are likely to meet. */
export function narrative(body: string): string {
  const all = sections(body);
  if (all.length === 0) return body;
  return all
    .filter((section) => section.heading.toLowerCase() !== CHECKLIST_HEADING.toLowerCase())
    .map((section) => section.text)
    .join('\n');
}

/** Keyword phrases of two or more words, as stemmed terms: a single word is too ambiguous to qualify a lesson alone. */
function keywordPhrases(entry: IndexEntry): string[][] {
  return entry.triggers.keywords.map((keyword) => words(keyword).map(stem)).filter((terms) => terms.length > 1);
}

/** What the search cache is built from besides the index: lesson text the index does not carry, and the thesaurus. */
export interface SearchExtras {
  /** Per lesson id: the body without its checklist (Situation, Mistake, Root Cause, Fix...). */
  bodies?: ReadonlyMap<string, string>;
  /** Per word: related words (data/thesaurus). */
  thesaurus?: ReadonlyMap<string, readonly string[]>;
  /** The thesaurus as stemThesaurus gives it, when the caller has it already (a delta takes its base's). */
  stemmedThesaurus?: string;
}

/** What a delta segment says about its base (see search-segment.ts). */
export interface DeltaInfo {
  base: string;
  removed: Uint32Array;
  insertAt: Uint32Array;
  dead: string[];
  /** The base's projects, then the ones only the delta's lessons have. */
  projects: string[];
  merged: CorpusStats;
}

export interface SegmentInput {
  /** Index entries in id order; retired ones are left out (they are never selected). */
  entries: readonly IndexEntry[];
  source: SearchSource;
  extras?: SearchExtras;
  /** A base's id (what deltas name); its source's digest when left out. */
  id?: string;
  /** A base's `entries` section: the lines an update compares the index with. */
  entryLines?: readonly string[];
  delta?: DeltaInfo;
  /** The version of lessons writing it (a cache from another version is never read). */
  tool?: string;
  /** `sources`: other repositories' lessons (src/sources/search.ts); a base otherwise (or a delta, given `delta`). */
  kind?: 'sources';
  /** A sources segment's lock file, as read (its `lock` section). */
  lock?: Uint8Array;
  /** termStatistics of the entries that are not retired, when the caller has it already. */
  statistics?: TermStatistics;
}

/**
 * The thesaurus in stemmed terms: per stemmed word, the stems of its related words (itself
 * left out), as sorted lines `term<TAB>term term...`. A base segment keeps it, so a delta
 * restricts it to its own terms without stemming the thesaurus again.
 */
export function stemThesaurus(thesaurus: ReadonlyMap<string, readonly string[]>): string {
  const stems = new Map<string, string>();
  const stemOf = (word: string): string => {
    let result = stems.get(word);
    if (result === undefined) stems.set(word, (result = stem(word)));
    return result;
  };
  const related = new Map<string, Set<string>>();
  for (const [word, others] of thesaurus) {
    const from = stemOf(word);
    for (const other of others) {
      const to = stemOf(other);
      if (to === from) continue;
      let set = related.get(from);
      if (!set) related.set(from, (set = new Set()));
      set.add(to);
    }
  }
  return [...related.keys()]
    .sort(compareStrings)
    .map((term) => `${term}\t${[...related.get(term)!].sort(compareStrings).join(' ')}`)
    .join('\n');
}

/**
 * The stemmed thesaurus restricted to this corpus: for each stemmed word, the corpus terms it
 * is related to. Built with the cache, so a query never loads the thesaurus.
 */
export function relatedTerms(stemmed: string, dictionary: ReadonlySet<string>): string {
  if (stemmed !== '' && dictionary.size <= FEW_TERMS && !dictionary.has('')) return relatedFew(stemmed, dictionary);
  const lines: string[] = [];
  for (const line of stemmed === '' ? [] : stemmed.split('\n')) {
    const kept = restrictedLine(line, dictionary);
    if (kept !== undefined) lines.push(kept);
  }
  return lines.join('\n');
}

/** A line of the stemmed thesaurus with only the relatives `dictionary` holds; undefined when it holds none. */
function restrictedLine(line: string, dictionary: ReadonlySet<string>): string | undefined {
  const tab = line.indexOf('\t');
  const kept = line.slice(tab + 1).split(' ').filter((term) => dictionary.has(term));
  return kept.length > 0 ? `${line.slice(0, tab)}\t${kept.join(' ')}` : undefined;
}

/**
 * Up to this many terms (a delta segment's one or two lessons), relatedTerms() finds the lines
 * that name one with one regular expression instead of splitting every line: over the shipped
 * thesaurus (36k lines) 3-8 ms instead of 15-35, and the same text. Past about 2,000 terms the
 * expression costs more than the split.
 */
const FEW_TERMS = 1000;

/** relatedTerms() for a few terms: the lines where one of them is a relative, each with the terms it names. */
function relatedFew(stemmed: string, dictionary: ReadonlySet<string>): string {
  if (dictionary.size === 0) return '';
  const alternatives = [...dictionary].map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  // A relative follows the tab or a space and ends at a space, the line's end or the text's.
  const named = new RegExp(`[\\t ](?:${alternatives})(?=[ \\n]|$)`, 'g');
  const starts: number[] = [];
  for (let match = named.exec(stemmed); match !== null; match = named.exec(stemmed)) {
    const start = stemmed.lastIndexOf('\n', match.index) + 1;
    if (starts[starts.length - 1] !== start) starts.push(start);
  }
  // Each line found names a term, so it keeps at least that one.
  return starts
    .map((start) => {
      const end = stemmed.indexOf('\n', start);
      return restrictedLine(stemmed.slice(start, end < 0 ? undefined : end), dictionary)!;
    })
    .join('\n');
}

/** Per lesson, the terms of each field (FIELDS order), as a query would meet them. */
export function fieldTermsOf(entry: IndexEntry, body: string): string[][] {
  const acronyms = shippedAcronyms();
  const termsOf = (text: string): string[] => textTerms(text, acronyms);
  const tagTerms = entry.tags.map(termsOf);
  const fields: Record<(typeof FIELDS)[number], string[]> = {
    body: termsOf(body),
    title: termsOf(entry.title),
    summary: termsOf(entry.summary),
    tags: tagTerms.filter((t) => t.length === 1).flat(),
    tagWords: tagTerms.filter((t) => t.length > 1).flat(),
    checklist: entry.checklist.flatMap(termsOf),
    keywords: entry.triggers.keywords.flatMap(termsOf),
  };
  return FIELDS.map((field) => fields[field]);
}

/** One term's postings: per lesson holding it, its number and the term's frequency in each field (typed arrays, grown by doubling: at 100,000 lessons plain arrays cost gigabytes). */
export interface TermPostings {
  count: number;
  docs: Uint32Array;
  /** FIELDS.length frequencies per posting. */
  tf: Uint32Array;
}

function addPosting(list: TermPostings, doc: number): void {
  if (list.count === list.docs.length) {
    const docs = new Uint32Array(list.docs.length * 2);
    docs.set(list.docs);
    const tf = new Uint32Array(list.tf.length * 2);
    tf.set(list.tf);
    list.docs = docs;
    list.tf = tf;
  }
  list.docs[list.count++] = doc;
}

export interface TermStatistics {
  /** Sorted. */
  terms: string[];
  postings: Map<string, TermPostings>;
  /** Per lesson, per field: length in terms. */
  lengths: Uint32Array;
  stats: CorpusStats;
}

/**
 * Every per-term and per-lesson number the ranking reads, from the lessons' field terms: the
 * dictionary, each term's postings (document frequency is their count) and term frequencies,
 * and field lengths. Lessons arrive in order, so each postings list is sorted.
 */
export function termStatistics(count: number, fieldTerms: (doc: number) => string[][]): TermStatistics {
  const width = FIELDS.length;
  const postings = new Map<string, TermPostings>();
  const lengths = new Uint32Array(count * width);
  const lengthSums = FIELDS.map(() => 0);
  // One lesson's terms at a time: at 100,000 lessons holding them all costs hundreds of megabytes.
  for (let doc = 0; doc < count; doc++) {
    fieldTerms(doc).forEach((terms, f) => {
      lengths[doc * width + f] = terms.length;
      lengthSums[f]! += terms.length;
      for (const term of terms) {
        let list = postings.get(term);
        if (!list) postings.set(term, (list = { count: 0, docs: new Uint32Array(2), tf: new Uint32Array(2 * width) }));
        if (list.count === 0 || list.docs[list.count - 1] !== doc) addPosting(list, doc);
        list.tf[(list.count - 1) * width + f]!++;
      }
    });
  }
  return { terms: [...postings.keys()].sort(compareStrings), postings, lengths, stats: { docCount: count, lengthSums } };
}

function clampByte(value: number): number {
  return Math.min(255, Math.max(0, Math.round(value)));
}

function u32Bytes(values: ArrayLike<number>): Uint8Array {
  return new Uint8Array(Uint32Array.from(values).buffer);
}

/** Byte chunks and the u32 offset table (one per item + 1) that finds each. */
function table(chunks: readonly Uint8Array[]): { table: Uint8Array; chunks: readonly Uint8Array[] } {
  const offsets = new Uint32Array(chunks.length + 1);
  chunks.forEach((chunk, i) => (offsets[i + 1] = offsets[i]! + chunk.length));
  return { table: new Uint8Array(offsets.buffer), chunks };
}

/** Where each term starts in the dict section (its terms joined by "\n"), and past the last one. */
function dictStarts(terms: readonly string[]): Uint8Array {
  const starts = new Uint32Array(terms.length + 1);
  terms.forEach((term, t) => (starts[t + 1] = starts[t]! + Buffer.byteLength(term, 'utf8') + 1));
  return new Uint8Array(starts.buffer);
}

/** The postings section and its term table (layout in search-segment.ts); scores with this segment's own statistics. */
function writePostings(statistics: TermStatistics): { termTable: Uint8Array; chunks: Uint8Array[] } {
  const { terms, postings, lengths, stats } = statistics;
  const width = FIELDS.length;
  const avg = averageLengths(stats);
  const termTable = new Uint32Array(terms.length * 2);
  const chunks: Uint8Array[] = [];
  let offset = 0;
  terms.forEach((term, t) => {
    const list = postings.get(term)!;
    const count = list.count;
    const idf = idfOf(stats.docCount, count);
    const fixed = new Uint8Array(count * 8 + align4(count));
    const view = new DataView(fixed.buffer);
    const raw: number[] = [];
    for (let i = 0; i < count; i++) {
      const doc = list.docs[i]!;
      let bits = 0;
      FIELDS.forEach((field, f) => {
        const tf = list.tf[i * width + f]!;
        if (tf === 0) return;
        bits |= FIELD_BIT[field];
        writeVarint(raw, tf);
        writeVarint(raw, lengths[doc * width + f]!);
      });
      view.setUint32(i * 4, doc, true);
      view.setFloat32(count * 4 + i * 4, termScore(idf, list.tf, i * width, lengths, doc * width, avg), true);
      fixed[count * 8 + i] = bits;
    }
    while (raw.length % 4 !== 0) raw.push(0);
    termTable[t * 2] = offset;
    termTable[t * 2 + 1] = count;
    chunks.push(fixed, Uint8Array.from(raw));
    offset += fixed.length + raw.length;
  });
  return { termTable: new Uint8Array(termTable.buffer), chunks };
}

function writeMeta(docs: readonly IndexEntry[], projects: readonly string[]): Uint8Array {
  // A project's first place in the list (indexOf for every lesson cost seconds at 100,000 lessons of 20,000 projects).
  const codes = new Map<string, number>();
  projects.forEach((project, code) => (codes.has(project) ? undefined : codes.set(project, code)));
  const meta = new Uint8Array(docs.length * META_BYTES);
  const view = new DataView(meta.buffer);
  docs.forEach((entry, doc) => {
    const at = doc * META_BYTES;
    meta[at + META.level] = LEVELS.indexOf(entry.level);
    meta[at + META.status] = STATUSES.indexOf(entry.status);
    meta[at + META.severity] = SEVERITIES.indexOf(entry.severity);
    meta[at + META.source] = SOURCES.indexOf(entry.source);
    meta[at + META.confidence] = clampByte(entry.confidence);
    meta[at + META.transferability] = clampByte(entry.transferability);
    view.setUint16(at + META.occurrences, Math.min(0xffff, Math.max(0, Math.round(entry.occurrences))), true);
    view.setUint16(at + META.project, entry.project === null ? NO_PROJECT : (codes.get(entry.project) ?? -1), true);
    view.setUint16(at + META.idHash, bareIdHash(entry.id), true);
    view.setInt32(at + META.validatedDay, dayNumber(entry.last_validated_at ?? entry.created_at), true);
  });
  return meta;
}

function recordOf(entry: IndexEntry): DocRecord {
  return {
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
    kind: entry.kind,
    insight: entry.insight,
  };
}

/** Builds one segment's bytes; pure. */
export function buildSegment(input: SegmentInput): Uint8Array {
  const { extras = {}, delta } = input;
  const docs = input.entries.filter((entry) => entry.status !== 'retired');
  const n = docs.length;
  const statistics = input.statistics ?? termStatistics(n, (doc) => fieldTermsOf(docs[doc]!, extras.bodies?.get(docs[doc]!.id) ?? ''));
  const { termTable, chunks: postingChunks } = writePostings(statistics);
  const projects = delta?.projects ?? [...new Set(docs.map((entry) => entry.project).filter((p): p is string => p !== null))].sort(compareStrings);

  const encoder = new TextEncoder();
  const forward: number[][] = docs.map(() => []);
  statistics.terms.forEach((term, t) => {
    const list = statistics.postings.get(term)!;
    for (let i = 0; i < list.count; i++) forward[list.docs[i]!]!.push(t);
  });
  const forwardBytes = forward.map((termNumbers) => {
    const out: number[] = [];
    termNumbers.forEach((t, i) => writeVarint(out, t - (i === 0 ? 0 : termNumbers[i - 1]!)));
    return Uint8Array.from(out);
  });
  const docRows = table(docs.map((entry) => encoder.encode(JSON.stringify(recordOf(entry)))));
  const idRows = table(docs.map((entry) => encoder.encode(entry.id)));
  // Each link with the linked lesson's number in this segment (-1: not in it), so a query follows it without searching the ids.
  const numbers = new Map(docs.map((entry, doc) => [entry.id, doc]));
  const link = (id: string, up: boolean): [string, boolean, number] => [id, up, numbers.get(id) ?? -1];
  const linkRows = table(docs.map((entry) => encoder.encode(JSON.stringify([...entry.promoted_into.map((id) => link(id, true)), ...entry.promoted_from.map((id) => link(id, false))]))));
  const fwdRows = table(forwardBytes);
  const triggerGroups = new Map<string, [string[], string[], string[], number[]]>();
  docs.forEach((entry, doc) => {
    const { tools, paths, commands } = entry.triggers;
    if (paths.length + commands.length === 0) return;
    const key = JSON.stringify([tools, paths, commands]);
    let group = triggerGroups.get(key);
    if (!group) triggerGroups.set(key, (group = [tools, paths, commands, []]));
    group[3].push(doc);
  });
  const phraseLines = docs
    .flatMap((entry, doc) => keywordPhrases(entry).map((terms) => `${terms.join(' ')}\t${doc}\t${entry.triggers.tools.join(',')}`))
    .sort(compareStrings);
  const stemmed = extras.stemmedThesaurus ?? (extras.thesaurus ? stemThesaurus(extras.thesaurus) : '');
  const related = relatedTerms(stemmed, new Set(statistics.terms));
  const text = (value: string): Uint8Array[] => [encoder.encode(value)];
  const content: Record<SectionName, readonly Uint8Array[]> = {
    dict: text(statistics.terms.join('\n')),
    dictTable: [dictStarts(statistics.terms)],
    termTable: [termTable],
    postings: postingChunks,
    meta: [writeMeta(docs, projects)],
    docTable: [docRows.table],
    docs: docRows.chunks,
    idTable: [idRows.table],
    ids: idRows.chunks,
    linkTable: [linkRows.table],
    links: linkRows.chunks,
    triggers: text(triggerGroups.size === 0 ? '' : JSON.stringify([...triggerGroups.values()])),
    phrases: text(phraseLines.join('\n')),
    related: text(related),
    lengths: [new Uint8Array(statistics.lengths.buffer)],
    fwdTable: [fwdRows.table],
    forward: fwdRows.chunks,
    entries: text((input.entryLines ?? []).join('\n')),
    removed: [u32Bytes(delta?.removed ?? [])],
    insertAt: [u32Bytes(delta?.insertAt ?? [])],
    dead: text((delta?.dead ?? []).join('\n')),
    thesaurus: text(delta ? '' : stemmed),
    projects: text(projects.map((project) => JSON.stringify(project)).join('\n')),
    lock: [input.lock ?? new Uint8Array(0)],
  };
  const header: SegmentHeader = {
    version: SEARCH_FORMAT_VERSION,
    tool: input.tool ?? '',
    kind: delta ? 'delta' : (input.kind ?? 'base'),
    id: delta ? '' : (input.id ?? input.source.digest),
    base: delta?.base ?? null,
    digest: input.source.digest,
    stat: input.source.stat,
    verifiedMtimeMs: input.source.verifiedMtimeMs,
    ...(input.source.tree === undefined ? {} : { tree: input.source.tree }),
    docCount: n,
    termCount: statistics.terms.length,
    lengthSums: statistics.stats.lengthSums,
    merged: delta?.merged ?? null,
    sections: {} as SegmentHeader['sections'],
  };
  return layout(header, content);
}

/** Header and sections into one buffer, each section 4-byte aligned. */
function layout(header: SegmentHeader, content: Record<SectionName, readonly Uint8Array[]>): Uint8Array {
  const encoder = new TextEncoder();
  const lengths = SECTIONS.map((name) => content[name].reduce((sum, chunk) => sum + chunk.length, 0));
  // Offsets depend on the header's length: reserve room for every offset at its widest.
  for (const name of SECTIONS) header.sections[name] = [0, 0];
  let offset = align4(8 + encoder.encode(JSON.stringify(header)).length + SECTIONS.length * 2 * 12);
  SECTIONS.forEach((name, i) => {
    header.sections[name] = [offset, lengths[i]!];
    offset = align4(offset + lengths[i]!);
  });
  const headerBytes = encoder.encode(JSON.stringify(header));
  const out = new Uint8Array(offset);
  out.set(encoder.encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(4, headerBytes.length, true);
  out.set(headerBytes, 8);
  for (const name of SECTIONS) {
    let at = header.sections[name][0];
    for (const chunk of content[name]) {
      out.set(chunk, at);
      at += chunk.length;
    }
  }
  return out;
}

/** The search index bytes of index entries as one base segment (what a full build writes); pure. */
export function buildSearchIndex(entries: readonly IndexEntry[], source: SearchSource, extras: SearchExtras = {}): Uint8Array {
  return buildSegment({ entries, source, extras });
}
