import { describe, expect, it } from 'vitest';
import { FIELD_BIT, FIELDS, idfOf, termScore } from '../../src/search/fields.js';
import { mergePostings, type Renumbering } from '../../src/search/merge.js';
import { writeVarint, type RawPostings } from '../../src/search/segment.js';
import { pick, seededRandom } from '../helpers/random.js';

/** A posting as the build writes it: a lesson, and per field it occurs in, the term's frequency there and the field's length. */
interface Posting {
  doc: number;
  counts: Map<number, [number, number]>;
}

function raw(postings: readonly Posting[]): RawPostings {
  const bytes: number[] = [];
  const fields = new Uint8Array(postings.length);
  postings.forEach(({ counts }, i) => {
    for (let f = 0; f < FIELDS.length; f++) {
      const pair = counts.get(f);
      if (!pair) continue;
      fields[i]! |= FIELD_BIT[FIELDS[f]!];
      writeVarint(bytes, pair[0]);
      writeVarint(bytes, pair[1]);
    }
  });
  // Stored scores are the base's own: a merge never reads them.
  return { docs: Uint32Array.from(postings, (p) => p.doc), scores: new Float32Array(postings.length).fill(Number.NaN), fields, raw: Uint8Array.from(bytes) };
}

/** What a full build of the merged corpus holds for the term: each lesson's number and termScore() with the merged statistics. */
function expected(base: readonly Posting[], delta: readonly Posting[], r: Renumbering): { docs: number[]; scores: number[]; fields: number[] } {
  const removed = new Set(r.removed);
  const numbered = [
    ...base.filter((p) => !removed.has(p.doc)).map((p) => ({ p, doc: p.doc - r.removed.filter((x) => x < p.doc).length + r.insertAt.filter((x) => x <= p.doc).length })),
    ...delta.map((p) => ({ p, doc: r.deltaDocs[p.doc]! })),
  ].sort((a, b) => a.doc - b.doc);
  const idf = idfOf(r.docCount, numbered.length);
  const score = ({ counts }: Posting): number => {
    const tf = FIELDS.map((_, f) => counts.get(f)?.[0] ?? 0);
    const length = FIELDS.map((_, f) => counts.get(f)?.[1] ?? 0);
    return Math.fround(termScore(idf, tf, 0, length, 0, r.avg));
  };
  return {
    docs: numbered.map((n) => n.doc),
    scores: numbered.map((n) => score(n.p)),
    fields: numbered.map((n) => FIELDS.reduce((bits, field, f) => (n.p.counts.has(f) ? bits | FIELD_BIT[field] : bits), 0)),
  };
}

describe('a term read over a base segment and its delta', () => {
  it('numbers and scores every posting as a full build of the merged corpus would, frequencies and lengths of any size included, in JavaScript and in WebAssembly', () => {
    const random = seededRandom(17);
    // Varints of one to four bytes: a lesson's body may run to thousands of words.
    const SIZES = [1, 2, 3, 7, 127, 128, 129, 300, 16_383, 16_384, 70_000, 2_100_000];
    const posting = (doc: number): Posting => {
      const counts = new Map<number, [number, number]>();
      for (let f = 0; f < FIELDS.length; f++) if (random() < 0.4) counts.set(f, [pick(random, SIZES), pick(random, SIZES)]);
      if (counts.size === 0) counts.set(0, [1, pick(random, SIZES)]);
      return { doc, counts };
    };
    for (let round = 0; round < 40; round++) {
      // Every fourth round a long list with few removals (each looked up), the others short with many (one walk).
      const long = round % 4 === 0;
      const baseCount = long ? 3000 + Math.floor(random() * 1000) : 20 + Math.floor(random() * 60);
      const base = Array.from({ length: baseCount }, (_, doc) => doc)
        .filter(() => random() < 0.6)
        .map(posting);
      const removed = Array.from({ length: baseCount }, (_, doc) => doc).filter(() => random() < (long ? 0.004 : 0.15));
      // The delta's lessons, in id order among the base's: each goes before base lesson insertAt[j].
      const insertAt = Array.from({ length: Math.floor(random() * 8) }, () => Math.floor(random() * (baseCount + 1))).sort((a, b) => a - b);
      const deltaDocs = insertAt.map((at, j) => at - removed.filter((x) => x < at).length + j);
      const delta = insertAt.map((_, j) => j).filter(() => random() < 0.7).map(posting);
      const r: Renumbering = {
        removed: Uint32Array.from(removed),
        insertAt: Uint32Array.from(insertAt),
        deltaDocs: Uint32Array.from(deltaDocs),
        docCount: baseCount - removed.length + insertAt.length,
        avg: FIELDS.map(() => 1 + random() * 5000),
      };
      const want = expected(base, delta, r);
      // Scored in JavaScript and in WebAssembly (kernels.wat's scoreRaw): the same numbers to the last bit.
      for (const kernels of ['js', 'wasm'] as const) {
        const merged = mergePostings(base.length > 0 ? raw(base) : undefined, delta.length > 0 ? raw(delta) : undefined, r, kernels);
        expect({ docs: Array.from(merged.docs), scores: Array.from(merged.scores), fields: Array.from(merged.fields) }).toEqual(want);
      }
    }
  });
});
