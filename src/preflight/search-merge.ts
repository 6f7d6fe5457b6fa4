import { FIELD_BIT, FIELDS, idfOf, META_BYTES, termScore } from './search-fields.js';
import type { Postings } from './search-index.js';
import type { RawPostings } from './search-segment.js';

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

/** Reads the varints of a postings list's raw part in order, without allocating. */
class Varints {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  next(): number {
    let byte = this.bytes[this.at++]!;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 128;
    for (;;) {
      byte = this.bytes[this.at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }
}

/** The merged number of each of a base's postings, -1 for a removed lesson; postings ascend, so one walk. */
function baseNumbers(docs: Uint32Array, r: Renumbering): Int32Array {
  const out = new Int32Array(docs.length);
  let removed = 0;
  let inserted = 0;
  for (let i = 0; i < docs.length; i++) {
    const local = docs[i]!;
    while (removed < r.removed.length && r.removed[removed]! < local) removed++;
    while (inserted < r.insertAt.length && r.insertAt[inserted]! <= local) inserted++;
    out[i] = r.removed[removed] === local ? -1 : local - removed + inserted;
  }
  return out;
}

/**
 * One term's postings over base and delta (either may lack the term), scored with the
 * statistics of both together (`r`) by termScore, the function the build scores with.
 */
export function mergePostings(base: RawPostings | undefined, delta: RawPostings | undefined, r: Renumbering): Postings {
  const fromBase = base ? baseNumbers(base.docs, r) : new Int32Array(0);
  const fromDelta = delta ? Int32Array.from(delta.docs, (j) => r.deltaDocs[j]!) : new Int32Array(0);
  let count = fromDelta.length;
  for (const doc of fromBase) if (doc >= 0) count++;
  const idf = idfOf(r.docCount, count);
  const out: Postings = { docs: new Uint32Array(count), scores: new Float32Array(count), fields: new Uint8Array(count) };
  const tf = new Uint32Array(WIDTH);
  const length = new Uint32Array(WIDTH);
  const sides = [
    { numbers: fromBase, postings: base, varints: base ? new Varints(base.raw) : undefined, at: 0 },
    { numbers: fromDelta, postings: delta, varints: delta ? new Varints(delta.raw) : undefined, at: 0 },
  ];
  /** Reads posting `side.at`'s frequencies and lengths into tf/length (or skips them) and moves on. */
  const take = (side: (typeof sides)[number], k: number | undefined): void => {
    const bits = side.postings!.fields[side.at]!;
    for (let f = 0; f < WIDTH; f++) {
      tf[f] = 0;
      if ((bits & BITS[f]!) === 0) continue;
      tf[f] = side.varints!.next();
      length[f] = side.varints!.next();
    }
    if (k !== undefined) {
      out.docs[k] = side.numbers[side.at]!;
      out.fields[k] = bits;
      out.scores[k] = termScore(idf, tf, 0, length, 0, r.avg);
    }
    side.at++;
  };
  const [b, d] = sides as [(typeof sides)[number], (typeof sides)[number]];
  for (let k = 0; k < count; ) {
    while (b.at < b.numbers.length && b.numbers[b.at]! < 0) take(b, undefined);
    const useBase = b.at < b.numbers.length && (d.at >= d.numbers.length || b.numbers[b.at]! < d.numbers[d.at]!);
    take(useBase ? b : d, k++);
  }
  return out;
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
