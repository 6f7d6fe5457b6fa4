import type { IndexEntry } from '../index/build.js';
import { sections } from '../lesson/body.js';
import { CHECKLIST_HEADING, LEVELS, SEVERITIES, SOURCES, STATUSES } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import {
  align4,
  BM25,
  FIELD_BIT,
  FIELD_BOOST,
  FIELDS,
  MAGIC,
  META,
  META_BYTES,
  NO_DATE,
  NO_PROJECT,
  SEARCH_FORMAT_VERSION,
  type DocRecord,
  type Field,
  type Header,
  type SearchSource,
} from './search-index.js';
import { indexTerms as textTerms, stem, words } from './text.js';

/** Writes the search index layout described in search-index.ts; only runs when the cache is rebuilt. */

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
}

/**
 * The thesaurus restricted to this corpus: for each stemmed word, the corpus terms it is
 * related to. Built once with the cache, so a query never loads the thesaurus.
 */
function relatedTerms(thesaurus: ReadonlyMap<string, readonly string[]>, dictionary: ReadonlySet<string>): string {
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
      if (to === from || !dictionary.has(to)) continue;
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

/** Builds the search index bytes from index entries; pure. Retired lessons are left out: they are never selected. */
export function buildSearchIndex(entries: readonly IndexEntry[], source: SearchSource, extras: SearchExtras = {}): Uint8Array {
  const docs = entries.filter((entry) => entry.status !== 'retired');
  const n = docs.length;
  const fieldTerms = docs.map((entry) => ({
    body: textTerms(extras.bodies?.get(entry.id) ?? ''),
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
  // term -> flat list of (lesson, frequency in each field); lessons arrive in order, so each list is sorted.
  const STRIDE = 1 + FIELDS.length;
  const noFrequencies = FIELDS.map(() => 0);
  const occurrences = new Map<string, number[]>();
  fieldTerms.forEach((fields, doc) => {
    FIELDS.forEach((field, f) => {
      for (const term of fields[field]) {
        let list = occurrences.get(term);
        if (!list) occurrences.set(term, (list = []));
        if (list.length === 0 || list[list.length - STRIDE] !== doc) list.push(doc, ...noFrequencies);
        list[list.length - STRIDE + 1 + f]!++;
      }
    });
  });
  const dictTerms = [...occurrences.keys()].sort(compareStrings);
  const postingChunks: Uint8Array[] = [];
  const termTable = new Uint32Array(dictTerms.length * 2);
  let postingsLength = 0;
  dictTerms.forEach((term, t) => {
    const list = occurrences.get(term)!;
    const count = list.length / STRIDE;
    const idf = Math.log(1 + (n - count + 0.5) / (count + 0.5));
    const chunk = new Uint8Array(count * 8 + align4(count));
    const view = new DataView(chunk.buffer);
    for (let i = 0; i < count; i++) {
      const doc = list[i * STRIDE]!;
      let score = 0;
      let bits = 0;
      FIELDS.forEach((field, f) => {
        const tf = list[i * STRIDE + 1 + f]!;
        if (tf === 0) return;
        bits |= FIELD_BIT[field];
        const norm = tf + BM25.k * (1 - BM25.b + (BM25.b * fieldTerms[doc]![field].length) / avg[field]);
        score += FIELD_BOOST[field] * idf * (BM25.d + (tf * (BM25.k + 1)) / norm);
      });
      view.setUint32(i * 4, doc, true);
      view.setFloat32(count * 4 + i * 4, score, true);
      chunk[count * 8 + i] = bits;
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
    meta[at + META.level] = LEVELS.indexOf(entry.level);
    meta[at + META.status] = STATUSES.indexOf(entry.status);
    meta[at + META.severity] = SEVERITIES.indexOf(entry.severity);
    meta[at + META.source] = SOURCES.indexOf(entry.source);
    meta[at + META.confidence] = clampByte(entry.confidence);
    meta[at + META.transferability] = clampByte(entry.transferability);
    metaView.setUint16(at + META.occurrences, Math.min(0xffff, Math.max(0, Math.round(entry.occurrences))), true);
    metaView.setUint16(at + META.project, entry.project === null ? NO_PROJECT : projects.indexOf(entry.project), true);
    metaView.setInt32(at + META.validatedDay, dayNumber(entry.last_validated_at ?? entry.created_at), true);
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
      kind: entry.kind,
      insight: entry.insight,
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
    entry.triggers.paths.length + entry.triggers.commands.length > 0 ? [[doc, entry.triggers.tools, entry.triggers.paths, entry.triggers.commands]] : [],
  );
  const phraseLines = docs
    .flatMap((entry, doc) => keywordPhrases(entry).map((terms) => `${terms.join(' ')}\t${doc}\t${entry.triggers.tools.join(',')}`))
    .sort(compareStrings);
  const related = extras.thesaurus ? relatedTerms(extras.thesaurus, new Set(dictTerms)) : '';
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
    ['phrases', [encoder.encode(phraseLines.join('\n'))]],
    ['related', [encoder.encode(related)]],
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
  const total = header.sections.related[0] + header.sections.related[1];
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

