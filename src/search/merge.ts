import { BM25, FIELD_BIT, FIELD_BOOST, FIELDS, idfOf, META_BYTES } from './fields.js';
import { lowerBound } from './expand.js';
import { scoreRawPostings, wantsWasm, type KernelKind, type RawScoring } from './kernels.js';
import type { Postings } from './search-index.js';
import type { RawPostings } from './segment.js';

/**
 * How a base and a delta segment read as one corpus (search-index.ts): the delta's lessons
 * replace the `removed` base lessons, and everything is numbered in id order, as a full build
 * numbers it. Base lesson i becomes i - (removed before i) + (delta lessons inserted at or
 * before i: `insertAt` ascending); delta lesson j becomes `deltaDocs[j]`.
 */
export interface Renumbering {
  removed: Uint32Array;
  insertAt: Uint32Array;
  deltaDocs: Uint32Array;
  /** Lessons in both together. */
  docCount: number;
  /** Average field lengths over both together. */
  avg: readonly number[];
}

const WIDTH = FIELDS.length;
const BITS = FIELDS.map((field) => FIELD_BIT[field]);
const BOOSTS = FIELDS.map((field) => FIELD_BOOST[field]);
// termScore's constants, hoisted as it computes them (so every score is the same to the last bit).
const ONE_MINUS_B = 1 - BM25.b;
const K_PLUS_1 = BM25.k + 1;
const NO_DOCS = new Uint32Array(0);
const NO_FIELDS = new Uint8Array(0);
const NO_SCORES = new Float32Array(0);

/** How many of ascending `docs` are in ascending `removed`: a search for each when they are few, else one walk. */
function removedAmong(docs: Uint32Array, removed: Uint32Array): number {
  let count = 0;
  if (removed.length * 32 < docs.length) {
    for (let x = 0; x < removed.length; x++) if (docs[lowerBound(docs, removed[x]!)] === removed[x]) count++;
    return count;
  }
  for (let i = 0, x = 0; i < docs.length && x < removed.length; ) {
    if (docs[i]! < removed[x]!) i++;
    else if (docs[i]! > removed[x]!) x++;
    else {
      count++;
      i++;
      x++;
    }
  }
  return count;
}

/** Where scoreNext() reads next in the raw bytes: a module variable, so no cursor object is made per term. */
let cursor = 0;

/**
 * termScore() of the posting whose varints (a frequency and a length per field in `bits`)
 * start at `cursor` in `raw`, with `weights[f]` = the field's boost times idf; leaves
 * `cursor` past them. The operations are termScore's, in its order, with its constants hoisted
 * as it computes them, so the score is the same to the last bit.
 */
function scoreNext(raw: Uint8Array, bits: number, weights: Float64Array, avg: Float64Array): number {
  let at = cursor;
  let score = 0;
  for (let f = 0; f < WIDTH; f++) {
    if ((bits & BITS[f]!) === 0) continue;
    let byte = raw[at++]!;
    let frequency = byte & 0x7f;
    for (let scale = 128; byte >= 0x80; scale *= 128) {
      byte = raw[at++]!;
      frequency += (byte & 0x7f) * scale;
    }
    byte = raw[at++]!;
    let length = byte & 0x7f;
    for (let scale = 128; byte >= 0x80; scale *= 128) {
      byte = raw[at++]!;
      length += (byte & 0x7f) * scale;
    }
    if (frequency === 0) continue;
    const norm = frequency + BM25.k * (ONE_MINUS_B + (BM25.b * length) / avg[f]!);
    score += weights[f]! * (BM25.d + (frequency * K_PLUS_1) / norm);
  }
  cursor = at;
  return score;
}

/**
 * termScore() of every posting of `postings` (removed lessons' too: a whole list is one call), as
 * WebAssembly from WASM_MIN_POSTINGS on (kernels.wat's scoreRaw, the same operations), else
 * through scoreNext(): a short process runs JavaScript unoptimised, a heap number for every
 * value it computes. `kernels` forces one (tests compare them).
 */
function scoreAll(postings: RawPostings | undefined, scoring: RawScoring, kernels: KernelKind): Float32Array {
  if (!postings) return NO_SCORES;
  const out = new Float32Array(postings.fields.length);
  if (wantsWasm(kernels, out.length) && scoreRawPostings(postings.fields, postings.raw, scoring, out)) return out;
  const { fields, raw } = postings;
  cursor = 0;
  for (let i = 0; i < out.length; i++) out[i] = scoreNext(raw, fields[i]!, scoring.weights, scoring.avg);
  return out;
}

/**
 * One term's postings over base and delta (either may lack the term), each scored as the build
 * scores it (termScore(), through scoreAll()) with the statistics of both together (`r`).
 * Base lesson i becomes i - (removed before i) + (delta lessons inserted at or before i), and
 * the delta's lessons go between them by number. The base's scores and field bits are copied
 * in runs (a delta breaks the list in a few places), its numbers one by one (whole numbers,
 * which cost a short process nothing to move).
 */
export function mergePostings(base: RawPostings | undefined, delta: RawPostings | undefined, r: Renumbering, kernels: KernelKind = 'auto'): Postings {
  const baseDocs = base ? base.docs : NO_DOCS;
  const deltaDocs = delta ? delta.docs : NO_DOCS;
  const count = baseDocs.length - removedAmong(baseDocs, r.removed) + deltaDocs.length;
  const idf = idfOf(r.docCount, count);
  const weights = new Float64Array(WIDTH);
  for (let f = 0; f < WIDTH; f++) weights[f] = BOOSTS[f]! * idf;
  const scoring: RawScoring = { bits: BITS, weights, avg: Float64Array.from(r.avg), k: BM25.k, oneMinusB: ONE_MINUS_B, b: BM25.b, d: BM25.d, kPlus1: K_PLUS_1 };
  const baseScores = scoreAll(base, scoring, kernels);
  const deltaScores = scoreAll(delta, scoring, kernels);
  const docs = new Uint32Array(count);
  const scores = new Float32Array(count);
  const fields = new Uint8Array(count);
  const deltaLength = deltaDocs.length;
  const fromDelta = new Uint32Array(deltaLength);
  for (let j = 0; j < deltaLength; j++) fromDelta[j] = r.deltaDocs[deltaDocs[j]!]!;
  const deltaFields = delta ? delta.fields : NO_FIELDS;
  const baseFields = base ? base.fields : NO_FIELDS;
  const removedList = r.removed;
  const insertAt = r.insertAt;
  const removedLength = removedList.length;
  const insertLength = insertAt.length;
  const baseLength = baseDocs.length;
  // The run of base postings [from, to) that lands at `at` on: its scores and bits go in one copy.
  let from = 0;
  let to = 0;
  let at = 0;
  const flush = (): void => {
    scores.set(baseScores.subarray(from, to), at);
    fields.set(baseFields.subarray(from, to), at);
  };
  let k = 0;
  let j = 0;
  let removed = 0;
  let inserted = 0;
  for (let i = 0; i < baseLength; i++) {
    const local = baseDocs[i]!;
    while (removed < removedLength && removedList[removed]! < local) removed++;
    while (inserted < insertLength && insertAt[inserted]! <= local) inserted++;
    if (removed < removedLength && removedList[removed] === local) continue;
    const number = local - removed + inserted;
    for (; j < deltaLength && fromDelta[j]! < number; j++, k++) {
      docs[k] = fromDelta[j]!;
      scores[k] = deltaScores[j]!;
      fields[k] = deltaFields[j]!;
    }
    if (i !== to || k !== at + (to - from)) {
      flush();
      from = i;
      at = k;
    }
    to = i + 1;
    docs[k++] = number;
  }
  flush();
  for (; j < deltaLength; j++, k++) {
    docs[k] = fromDelta[j]!;
    scores[k] = deltaScores[j]!;
    fields[k] = deltaFields[j]!;
  }
  return { docs, scores, fields };
}

/** The metadata table of base and delta in merged order: runs of base rows between the delta's changes. */
export function mergeMeta(base: Uint8Array, delta: Uint8Array, r: Renumbering): Uint8Array {
  const out = new Uint8Array(r.docCount * META_BYTES);
  const baseCount = base.length / META_BYTES;
  let doc = 0;
  let i = 0;
  let removed = 0;
  let j = 0;
  while (i < baseCount || j < r.insertAt.length) {
    // Delta lessons that go before base lesson i.
    for (; j < r.insertAt.length && r.insertAt[j]! <= i; j++) out.set(delta.subarray(j * META_BYTES, (j + 1) * META_BYTES), doc++ * META_BYTES);
    if (i >= baseCount) continue;
    if (r.removed[removed] === i) {
      removed++;
      i++;
      continue;
    }
    // A run of base lessons up to the next removal or insertion.
    let end = baseCount;
    if (removed < r.removed.length) end = Math.min(end, r.removed[removed]!);
    if (j < r.insertAt.length) end = Math.min(end, r.insertAt[j]!);
    end = Math.max(end, i + 1);
    out.set(base.subarray(i * META_BYTES, end * META_BYTES), doc * META_BYTES);
    doc += end - i;
    i = end;
  }
  return out;
}
