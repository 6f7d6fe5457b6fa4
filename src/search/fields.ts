import type { CorpusStats } from './segment.js';

/** The fields a lesson is searched by, how much each weighs, and the score of a term in a lesson (BM25+). */

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
export const META_BYTES = 16;
/**
 * Byte offsets within a lesson's META_BYTES: u8 codes (index into LEVELS etc.), u16 occurrences
 * and project, u16 idHash (bareIdHash of its id), i32 day.
 */
export const META = { level: 0, status: 1, severity: 2, source: 3, confidence: 4, transferability: 5, occurrences: 6, project: 8, idHash: 10, validatedDay: 12 } as const;

/**
 * 16 bits of FNV-1a over a lesson's id without `<source>:`: a source's lesson can have a local
 * lesson's id (and is then never shown) only where the hashes agree, so a query compares ids
 * only for the few lessons whose hash a local lesson has.
 */
export function bareIdHash(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = id.indexOf(':') + 1; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return (hash ^ (hash >>> 16)) & 0xffff;
}
export const NO_DATE = -1;
export const NO_PROJECT = 0xffff;

const BOOSTS = FIELDS.map((field) => FIELD_BOOST[field]);

/** Inverse document frequency of a term in `df` of `n` lessons. */
export function idfOf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** Average length of each field over the corpus (at least 1). */
export function averageLengths(stats: CorpusStats): number[] {
  return FIELDS.map((_, f) => Math.max(1, stats.lengthSums[f]! / Math.max(1, stats.docCount)));
}

/**
 * BM25+ of one term in one lesson, summed over the fields it occurs in: `tf[tfAt + f]` times in
 * field f of length `length[lengthAt + f]` (FIELDS order).
 */
export function termScore(idf: number, tf: ArrayLike<number>, tfAt: number, length: ArrayLike<number>, lengthAt: number, avg: ArrayLike<number>): number {
  let score = 0;
  for (let f = 0; f < BOOSTS.length; f++) {
    const frequency = tf[tfAt + f]!;
    if (frequency === 0) continue;
    const norm = frequency + BM25.k * (1 - BM25.b + (BM25.b * length[lengthAt + f]!) / avg[f]!);
    score += BOOSTS[f]! * idf * (BM25.d + (frequency * (BM25.k + 1)) / norm);
  }
  return score;
}

