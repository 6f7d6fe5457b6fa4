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

/** A sorted list of terms read one at a time (a segment's dictionary is decoded term by term, never whole). */
export interface TermSource {
  readonly length: number;
  at(i: number): string;
  /** Whether term `i` may be from `min` to `max` UTF-16 units long (false only when it cannot be): lets a scan pass it over unread. */
  mayHaveLength(i: number, min: number, max: number): boolean;
}

/** A TermSource over terms in memory. */
export function termArray(terms: readonly string[]): TermSource {
  return { length: terms.length, at: (i) => terms[i]!, mayHaveLength: (i, min, max) => terms[i]!.length >= min && terms[i]!.length <= max };
}

/** lowerBound over `length` sorted values read one at a time by `at` (terms or ids decoded where they are stored). */
export function lowerBoundAt<T extends string | number>(length: number, at: (i: number) => T, value: T): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(mid) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBoundIn(terms: TermSource, term: string): number {
  return lowerBoundAt(terms.length, (i) => terms.at(i), term);
}

/**
 * The corpus's dictionary: the union of sorted term lists (the local segments', the sources'),
 * read in place: a query looks up a few terms and scans a few ranges, and never builds the
 * union. `drop` leaves a list's terms out (a base segment's terms no lesson has any more).
 */
export class Dictionary {
  constructor(private readonly lists: readonly { terms: TermSource; drop?: ReadonlySet<string> }[]) {}

  static of(terms: readonly string[]): Dictionary {
    return new Dictionary([{ terms: termArray(terms) }]);
  }

  has(term: string): boolean {
    return this.lists.some(({ terms, drop }) => {
      const at = lowerBoundIn(terms, term);
      return at < terms.length && terms.at(at) === term && !drop?.has(term);
    });
  }

  /**
   * Calls `visit` with each term from `from` (inclusive) to `to` (exclusive; undefined: to the
   * end) in order, once, until it returns false. With `min` and `max`, a term that cannot be of
   * a length between them (in UTF-16 units) is passed over without being read.
   */
  scan(from: string, to: string | undefined, visit: (term: string) => boolean, min = 0, max = Number.POSITIVE_INFINITY): void {
    const { lists } = this;
    const position = lists.map(({ terms }) => lowerBoundIn(terms, from));
    const end = lists.map(({ terms }) => (to === undefined ? terms.length : lowerBoundIn(terms, to)));
    const head: (string | undefined)[] = lists.map(() => undefined);
    const advance = (k: number): void => {
      const { terms, drop } = lists[k]!;
      head[k] = undefined;
      while (position[k]! < end[k]!) {
        const i = position[k]!++;
        if (!terms.mayHaveLength(i, min, max)) continue;
        const term = terms.at(i);
        if (drop?.has(term)) continue;
        head[k] = term;
        return;
      }
    };
    lists.forEach((_, k) => advance(k));
    for (;;) {
      let next: string | undefined;
      for (const term of head) if (term !== undefined && (next === undefined || term < next)) next = term;
      if (next === undefined) return;
      for (let k = 0; k < lists.length; k++) if (head[k] === next) advance(k);
      if (!visit(next)) return;
    }
  }
}

/**
 * Dictionary terms a query term stands for: itself, other parts of speech of the same word
 * (same root), longer words it starts, near misspellings (same first letter).
 */
export function expandTerm(terms: Dictionary | readonly string[], term: string): Expansion[] {
  const dictionary = terms instanceof Dictionary ? terms : Dictionary.of(terms);
  const result: Expansion[] = [];
  if (dictionary.has(term)) result.push({ term, weight: 1, kind: 'exact' });
  const base = root(term);
  if (term.length >= 3) {
    dictionary.scan(term, undefined, (candidate) => {
      if (!candidate.startsWith(term) || result.length >= 40) return false;
      if (candidate === term) return true;
      const same = root(candidate) === base;
      result.push({ term: candidate, weight: same ? EXPANSION.morph : EXPANSION.prefix, kind: same ? 'morph' : 'prefix' });
      return true;
    });
  }
  if (base !== term) {
    // Words of the same root that the term does not start: preemptible -> preemption.
    let count = 0;
    dictionary.scan(base, undefined, (candidate) => {
      if (!candidate.startsWith(base) || count >= 40) return false;
      if (candidate === term || candidate.startsWith(term) || root(candidate) !== base) return true;
      result.push({ term: candidate, weight: EXPANSION.morph, kind: 'morph' });
      count++;
      return true;
    });
  }
  const maxDistance = term.length >= 8 ? 2 : term.length >= 5 ? 1 : 0;
  if (maxDistance > 0) {
    const found = new Set(result.map((e) => e.term));
    const first = term[0]!;
    const next = String.fromCharCode(first.charCodeAt(0) + 1);
    const fuzzy = (candidate: string): boolean => {
      if (Math.abs(candidate.length - term.length) > maxDistance || candidate.startsWith(term) || found.has(candidate)) return true;
      const distance = boundedDistance(term, candidate, maxDistance);
      if (distance <= maxDistance) result.push({ term: candidate, weight: EXPANSION.fuzzy[distance]!, kind: 'fuzzy' });
      return true;
    };
    dictionary.scan(first, next, fuzzy, term.length - maxDistance, term.length + maxDistance);
  }
  return result;
}
