import { root } from './text.js';

/**
 * Which dictionary terms a query term stands for: itself, longer words it begins (prefix),
 * and near misspellings (fuzzy, same first letter), each at its own weight.
 */

export const EXPANSION = {
  prefix: 0.4,
  /** Another part of speech of the same word (same root: preemptible, preemption). */
  morph: 0.8,
  /** By edit distance: 1 and 2. */
  fuzzy: [1, 0.45, 0.25] as readonly number[],
};

export interface Expansion {
  index: number;
  term: string;
  weight: number;
  kind: 'exact' | 'morph' | 'prefix' | 'fuzzy';
}

/** The index of the first of the sorted `values` (terms, or lesson numbers) that is not below `value`. */
export function lowerBound<T extends string | number>(values: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Two rows of the distance table, reused by every call (a query compares a term with thousands of words). */
let rows = [new Int32Array(64), new Int32Array(64)];

/** Levenshtein distance, or max + 1 as soon as it must exceed `max`. */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (rows[0]!.length <= b.length) rows = [new Int32Array(2 * b.length + 2), new Int32Array(2 * b.length + 2)];
  let prev = rows[0]!;
  let row = rows[1]!;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      row[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    const swap = prev;
    prev = row;
    row = swap;
  }
  return prev[b.length]!;
}

/**
 * Dictionary terms a query term stands for: itself, other parts of speech of the same word
 * (same root), longer words it starts, near misspellings (same first letter).
 */
export function expandTerm(terms: readonly string[], term: string): Expansion[] {
  const result: Expansion[] = [];
  const at = lowerBound(terms, term);
  if (terms[at] === term) result.push({ index: at, term, weight: 1, kind: 'exact' });
  const base = root(term);
  if (term.length >= 3) {
    for (let i = terms[at] === term ? at + 1 : at; i < terms.length && terms[i]!.startsWith(term) && result.length < 40; i++) {
      const same = root(terms[i]!) === base;
      result.push({ index: i, term: terms[i]!, weight: same ? EXPANSION.morph : EXPANSION.prefix, kind: same ? 'morph' : 'prefix' });
    }
  }
  if (base !== term) {
    // Words of the same root that the term does not start: preemptible -> preemption.
    for (let i = lowerBound(terms, base), count = 0; i < terms.length && terms[i]!.startsWith(base) && count < 40; i++) {
      const candidate = terms[i]!;
      if (candidate === term || candidate.startsWith(term) || root(candidate) !== base) continue;
      result.push({ index: i, term: candidate, weight: EXPANSION.morph, kind: 'morph' });
      count++;
    }
  }
  const maxDistance = term.length >= 8 ? 2 : term.length >= 5 ? 1 : 0;
  const found = new Set(result.map((e) => e.index));
  if (maxDistance > 0) {
    const first = term[0]!;
    const from = lowerBound(terms, first);
    const to = lowerBound(terms, String.fromCharCode(first.charCodeAt(0) + 1));
    for (let i = from; i < to; i++) {
      const candidate = terms[i]!;
      if (Math.abs(candidate.length - term.length) > maxDistance || candidate.startsWith(term) || found.has(i)) continue;
      const distance = boundedDistance(term, candidate, maxDistance);
      if (distance <= maxDistance) result.push({ index: i, term: candidate, weight: EXPANSION.fuzzy[distance]!, kind: 'fuzzy' });
    }
  }
  return result;
}

