/**
 * Text similarity for lessons: cosine over word unigrams and bigrams ("shingles") of title,
 * summary and checklist. Capture uses it to spot a near-duplicate; report uses it to spot
 * cases that look like one pattern.
 */

import { compareStrings } from '../util/compare.js';
import { MAX_WORD_LENGTH } from './text.js';

const STOPWORDS = new Set(
  'a an and are as at be before by can do does for from had has have if in into is it its no not of on or so than that the their then there these this to was were when which while with without'.split(' '),
);

const ASCII = /^[\x00-\x7f]*$/;

/** Lower case with accents folded: every word of words() (a stem is a prefix of its word) is a substring of it. */
export function foldText(text: string): string {
  return ASCII.test(text) ? text.toLowerCase() : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** Lower-case words, accents folded, stopwords and one-letter words dropped. */
export function words(text: string): string[] {
  // ASCII text (most of it) has no accents to fold, and its letters and digits are [a-z0-9].
  const folded = ASCII.test(text) ? foldText(text).split(/[^a-z0-9]+/) : foldText(text).split(/[^\p{L}\p{N}]+/u);
  return folded
    .filter((word) => word.length > 1 && word.length <= MAX_WORD_LENGTH && !STOPWORDS.has(word))
    .map(stem);
}

/** The words stem() turns into `word`: itself and its -s, -ed and -ing forms, where stem() strips them. */
export function spellings(word: string): string[] {
  return [word, `${word}s`, `${word}ed`, `${word}ing`].filter((form) => stem(form) === word);
}

/** Plural and -ing/-ed forms of one word count as the word. */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The title as dedup compares it: its words, in order. */
export function normaliseTitle(title: string): string {
  return words(title).join(' ');
}

export type TermVector = Map<string, number>;

export function termVector(text: string): TermVector {
  const tokens = words(text);
  const vector: TermVector = new Map();
  const add = (term: string): void => {
    vector.set(term, (vector.get(term) ?? 0) + 1);
  };
  tokens.forEach((token, i) => {
    add(token);
    if (i > 0) add(`${tokens[i - 1]} ${token}`);
  });
  return vector;
}

export function cosine(a: TermVector, b: TermVector): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [term, weight] of a) {
    normA += weight * weight;
    dot += weight * (b.get(term) ?? 0);
  }
  for (const weight of b.values()) normB += weight * weight;
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** What of a lesson dedup compares. */
export interface Comparable {
  title: string;
  summary: string;
  checklist: readonly string[];
}

export function comparableText(item: Comparable): string {
  return [item.title, item.summary, ...item.checklist].join('\n');
}

/** What similarity compares, computed once per lesson. */
export interface Fingerprint {
  title: string;
  /** The term vector (termVector()) as term numbers, ascending, and their weights. */
  terms: Int32Array;
  weights: Float64Array;
  /** The vector's squared norm. */
  squared: number;
}

/**
 * A number per term, the same for the whole process, so two fingerprints compare by merging
 * sorted arrays. A bigram is numbered from its two words' numbers, without building its text.
 */
const WORD_NUMBERS = new Map<string, number>();
/** First word's number -> second word's number -> the bigram's number (keys stay small integers, which Maps hash fast). */
const BIGRAM_NUMBERS = new Map<number, Map<number, number>>();
const TERMS: string[] = [];

/** The process-wide number of a word, or of another text model's term (no spaces). */
export function wordNumber(word: string): number {
  let n = WORD_NUMBERS.get(word);
  if (n === undefined) {
    WORD_NUMBERS.set(word, (n = TERMS.length));
    TERMS.push(word);
  }
  return n;
}

/** The term a number stands for (a word, or two words and a space between). */
export function termText(term: number): string {
  return TERMS[term]!;
}

function bigramNumber(first: number, second: number): number {
  let seconds = BIGRAM_NUMBERS.get(first);
  if (seconds === undefined) BIGRAM_NUMBERS.set(first, (seconds = new Map()));
  let n = seconds.get(second);
  if (n === undefined) {
    seconds.set(second, (n = TERMS.length));
    TERMS.push(`${TERMS[first]} ${TERMS[second]}`);
  }
  return n;
}

/** The term vector of termVector(), numbered. */
export function fingerprint(item: Comparable): Fingerprint {
  const numbers: number[] = [];
  let previous = -1;
  for (const word of words(comparableText(item))) {
    const n = wordNumber(word);
    numbers.push(n);
    if (previous >= 0) numbers.push(bigramNumber(previous, n));
    previous = n;
  }
  // Sorted, each run of one number is a term and its count.
  const sorted = Int32Array.from(numbers).sort();
  let distinct = 0;
  for (let k = 0; k < sorted.length; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) distinct++;
  const terms = new Int32Array(distinct);
  const weights = new Float64Array(distinct);
  for (let k = 0, at = -1; k < sorted.length; k++) {
    if (k === 0 || sorted[k] !== sorted[k - 1]) terms[++at] = sorted[k]!;
    weights[at]!++;
  }
  return { title: normaliseTitle(item.title), terms, weights, squared: sumOfSquares(weights) };
}

/** Weights by term number while a print is put in term order: zero between uses. */
let byNumber = new Float64Array(0);

/**
 * A fingerprint of a vector some other text model made: distinct term numbers (wordNumber() of
 * terms without spaces) and their whole-number weights, in any order. Sorts `numbers`.
 */
export function numberedPrint(title: string, numbers: Int32Array, weights: ArrayLike<number>): Fingerprint {
  if (byNumber.length < TERMS.length) byNumber = new Float64Array(Math.max(TERMS.length, 2 * byNumber.length));
  for (let k = 0; k < numbers.length; k++) byNumber[numbers[k]!] = weights[k]!;
  numbers.sort();
  const values = new Float64Array(numbers.length);
  for (let k = 0; k < numbers.length; k++) {
    values[k] = byNumber[numbers[k]!]!;
    byNumber[numbers[k]!] = 0;
  }
  return { title: normaliseTitle(title), terms: numbers, weights: values, squared: sumOfSquares(values) };
}

function sumOfSquares(weights: Float64Array): number {
  let squared = 0;
  for (let k = 0; k < weights.length; k++) squared += weights[k]! * weights[k]!;
  return squared;
}

/**
 * 1 for the same normalised title, else the cosine of the two texts, rounded to 3 decimals.
 * Weights are small integers, so the dot product is exact in any order: the result is
 * cosine()'s.
 */
export function similarity(a: Fingerprint, b: Fingerprint): number {
  if (a.title !== '' && a.title === b.title) return 1;
  if (a.squared === 0 || b.squared === 0) return 0;
  let dot = 0;
  for (let i = 0, j = 0; i < a.terms.length && j < b.terms.length; ) {
    const x = a.terms[i]!;
    const y = b.terms[j]!;
    if (x === y) dot += a.weights[i++]! * b.weights[j++]!;
    else if (x < y) i++;
    else j++;
  }
  return Math.round((dot / Math.sqrt(a.squared * b.squared)) * 1000) / 1000;
}

/** How many texts a term indexes before it counts as too common to find duplicates by. */
export const POSTINGS_CAP = 64;

/**
 * The texts (folded with foldText) that may be at least `threshold` similar to `print`, in
 * their order: a superset of them, found without fingerprinting the texts. Prefix filtering
 * again: with the print's terms ordered by how many texts hold their rarest word, a text alike
 * enough must share a term of the print's prefix (the suffix's norm is below the threshold),
 * so it holds that term's rarest word; a text with the same normalised title holds every
 * title word. `titleWords` are the words of the print's title.
 */
export function likelyAlike(print: Fingerprint, titleWords: readonly string[], folded: readonly string[], threshold: number): number[] {
  const witnesses = prefixWitnesses(print, threshold, (word) => folded.reduce((count, text) => count + Number(text.includes(word)), 0));
  const found: number[] = [];
  folded.forEach((text, n) => {
    const sameTitle = print.title !== '' && titleWords.every((word) => text.includes(word));
    if (sameTitle || witnesses.some((word) => text.includes(word))) found.push(n);
  });
  return found;
}

/**
 * Words one of which every text at least `threshold` similar to `print` holds (prefix
 * filtering, as likelyAlike() says): the rarest word of each term of the print's prefix, with
 * the terms ordered by how many texts hold that word (`df`, asked once per word). Any order
 * keeps the guarantee; rarest first keeps the prefix's texts few. None for an empty print.
 */
export function prefixWitnesses(print: Fingerprint, threshold: number, df: (word: string) => number): string[] {
  const counts = new Map<string, number>();
  const wordsOf = (term: number): string[] => TERMS[term]!.split(' ');
  for (const term of print.terms) for (const word of wordsOf(term)) if (!counts.has(word)) counts.set(word, df(word));
  const witness = (term: number): string => wordsOf(term).reduce((a, b) => (counts.get(b)! < counts.get(a)! ? b : a));
  const order = Array.from(print.terms.keys()).sort((a, b) => counts.get(witness(print.terms[a]!))! - counts.get(witness(print.terms[b]!))! || a - b);
  const norm = Math.sqrt(print.squared);
  const bound = threshold - 0.0005;
  let suffix = 0;
  // An empty text is alike to nothing but a lesson of its title.
  let cut = norm === 0 ? 0 : order.length;
  while (cut > 0) {
    const weight = print.weights[order[cut - 1]!]! / norm;
    if (Math.sqrt(suffix + weight * weight) >= bound) break;
    suffix += weight * weight;
    cut--;
  }
  return [...new Set(order.slice(0, cut).map((position) => witness(print.terms[position]!)))];
}

export interface SimilarGroup {
  /** Indexes into the fingerprints, ascending. */
  members: number[];
  /** The lowest similarity among the links that joined the group. */
  weakest: number;
}

/**
 * Groups of texts linked by chains of pairs at least `threshold` alike (single linkage),
 * without comparing all n² pairs. Prefix filtering: with terms ordered rarest first, two texts
 * that share nothing in one text's prefix are at most as alike as the norm of that text's
 * remaining suffix; so each text indexes only the prefix whose suffix norm is below the
 * threshold, and only texts that meet in that index are compared, once, and only while they
 * are not already in one group. Two texts need only meet prefix to prefix: with one order of
 * terms for all texts, a term they share past the earlier-ending prefix lies in that text's
 * suffix, so if they share none in both prefixes, all they share is in one suffix, whose
 * norm bounds the cosine below the threshold.
 *
 * The cost stays linear in the texts however alike they are: a term indexes its first
 * POSTINGS_CAP texts only, so a text meets at most that many through each of its prefix terms
 * (a text like many others still meets the first of them and joins their group; a pair that
 * shares only terms this common is found through a rarer term, a chain, or not at all), and
 * texts with one title meet only the first of them (they are all one group).
 */
export function similarGroups(prints: readonly Fingerprint[], threshold: number, stats?: { met: number }): SimilarGroup[] {
  const count = prints.length;
  const frequency = new Int32Array(TERMS.length);
  for (const { terms } of prints) for (let k = 0; k < terms.length; k++) frequency[terms[k]!]!++;
  // One order of all terms: rarest first, then by the term itself.
  const used: number[] = [];
  for (let term = 0; term < frequency.length; term++) if (frequency[term]! > 0) used.push(term);
  used.sort((a, b) => frequency[a]! - frequency[b]! || compareStrings(TERMS[a]!, TERMS[b]!));
  const rank = new Int32Array(TERMS.length);
  used.forEach((term, n) => (rank[term] = n));
  // By rank: the texts that index the term (at most POSTINGS_CAP).
  const index: (number[] | undefined)[] = new Array(used.length);
  /** By rank: 1 when every text of the term's list was last seen in one group (groups only merge, so they stay so). */
  const settled = new Uint8Array(used.length);
  /** By rank, beside the list: each text's squared norm over its terms from this one on (in rank order). */
  const tails: (number[] | undefined)[] = new Array(used.length);
  /** By rank: 1 once the list turned a text away (it was full). */
  const overflowed = new Uint8Array(used.length);
  const byTitle = new Map<string, number>();
  // similarity() rounds to 3 decimals: a cosine just under the threshold can round up to it.
  const bound = threshold - 0.0005;
  const parent = Int32Array.from({ length: count }, (_, n) => n);
  const find = (n: number): number => {
    while (parent[n] !== n) n = parent[n] = parent[parent[n]!]!;
    return n;
  };
  const weakest = new Float64Array(count).fill(1);
  const lastProbe = new Int32Array(count).fill(-1);
  // The text being compared, spread by term number (zero elsewhere): a pair's dot product is a pass over the other text's terms.
  const spread = new Float64Array(TERMS.length);
  // Each text meets the texts before it in the index, then joins it: every pair once.
  prints.forEach((print, i) => {
    const { terms, weights } = print;
    for (let k = 0; k < terms.length; k++) spread[terms[k]!] = weights[k]!;
    // Its terms by rank, rarest first; the first `cut` are its prefix.
    const order = new Int32Array(terms.length);
    for (let k = 0; k < terms.length; k++) order[k] = rank[terms[k]!]!;
    order.sort();
    const norm = Math.sqrt(print.squared);
    let suffix = 0;
    let cut = order.length;
    while (cut > 0) {
      const weight = spread[used[order[cut - 1]!]!]! / norm;
      if (Math.sqrt(suffix + weight * weight) >= bound) break;
      suffix += weight * weight;
      cut--;
    }
    // Its squared norm from each position of its order on.
    const tail = new Float64Array(order.length + 1);
    for (let k = order.length - 1; k >= 0; k--) tail[k] = tail[k + 1]! + spread[used[order[k]!]!]! ** 2;
    // i's group changes only when i joins another; no other union happens meanwhile.
    let own = i;
    // Meeting j first at prefix position k, through a list that holds j's norm from there on (`rest`), when no list before
    // it turned a text away: every term the two share is at or past that position, so their dot product is at most the
    // product of those two norms (Cauchy-Schwarz). Below the threshold, the pair is no link, and it is not compared.
    let position = -1;
    let clean = true;
    const least = (bound - 1e-9) * norm;
    const consider = (j: number, rest: number): void => {
      if (lastProbe[j] === i) return;
      lastProbe[j] = i;
      if (stats) stats.met++;
      const other = find(j);
      if (other === own) return;
      if (position >= 0 && clean && Math.sqrt(tail[position]! * rest) < least * Math.sqrt(prints[j]!.squared)) return;
      const alike = similarityToSpread(print, spread, prints[j]!);
      if (alike < threshold) return;
      const [root, child] = own < other ? [own, other] : [other, own];
      parent[child] = root;
      weakest[root] = Math.min(weakest[root]!, weakest[child]!, alike);
      own = root;
    };
    if (print.title !== '') {
      const first = byTitle.get(print.title);
      if (first === undefined) byTitle.set(print.title, i);
      else consider(first, 0);
    }
    for (let k = 0; k < cut; k++) {
      const list = index[order[k]!];
      if (list === undefined) continue;
      position = k;
      // A list whose texts were all found in one group holds nothing new for a member of it.
      if (settled[order[k]!] !== 1 || find(list[0]!) !== own) {
        const rests = tails[order[k]!]!;
        for (let n = 0; n < list.length; n++) consider(list[n]!, rests[n]!);
        let one = 1;
        for (let n = 1; n < list.length && one === 1; n++) if (find(list[n]!) !== find(list[0]!)) one = 0;
        settled[order[k]!] = one;
      }
      if (overflowed[order[k]!] === 1) clean = false;
    }
    for (let k = 0; k < cut; k++) {
      const list = index[order[k]!];
      if (list === undefined) {
        index[order[k]!] = [i];
        tails[order[k]!] = [tail[k]!];
        settled[order[k]!] = 1;
      } else if (list.length < POSTINGS_CAP) {
        list.push(i);
        tails[order[k]!]!.push(tail[k]!);
        if (settled[order[k]!] === 1 && find(list[0]!) !== find(i)) settled[order[k]!] = 0;
      } else overflowed[order[k]!] = 1;
    }
    for (let k = 0; k < terms.length; k++) spread[terms[k]!] = 0;
  });
  const groups = new Map<number, number[]>();
  for (let n = 0; n < count; n++) append(groups, find(n), n);
  return [...groups.entries()].filter(([, members]) => members.length > 1).map(([root, members]) => ({ members, weakest: weakest[root]! }));
}

/**
 * similarity(a, b) with `a`'s weights spread by term number: the same products, summed in
 * `b`'s order (whole numbers, so exactly the same sum).
 */
function similarityToSpread(a: Fingerprint, spread: Float64Array, b: Fingerprint): number {
  if (a.title !== '' && a.title === b.title) return 1;
  if (a.squared === 0 || b.squared === 0) return 0;
  let dot = 0;
  const { terms, weights } = b;
  for (let k = 0; k < terms.length; k++) dot += spread[terms[k]!]! * weights[k]!;
  return Math.round((dot / Math.sqrt(a.squared * b.squared)) * 1000) / 1000;
}

function append<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
