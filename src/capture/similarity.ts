/**
 * Text similarity for lessons: cosine over word unigrams and bigrams ("shingles") of title,
 * summary and checklist. Capture uses it to spot a near-duplicate; report uses it to spot
 * cases that look like one pattern.
 */

const STOPWORDS = new Set(
  'a an and are as at be before by can do does for from had has have if in into is it its no not of on or so than that the their then there these this to was were when which while with without'.split(' '),
);

/** Lower-case words, accents folded, stopwords and one-letter words dropped. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1 && !STOPWORDS.has(word))
    .map(stem);
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
  vector: TermVector;
}

export function fingerprint(item: Comparable): Fingerprint {
  return { title: normaliseTitle(item.title), vector: termVector(comparableText(item)) };
}

/** 1 for the same normalised title, else the cosine of the two texts, rounded to 3 decimals. */
export function similarity(a: Fingerprint, b: Fingerprint): number {
  if (a.title !== '' && a.title === b.title) return 1;
  return Math.round(cosine(a.vector, b.vector) * 1000) / 1000;
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
 * are not already in one group.
 */
export function similarGroups(prints: readonly Fingerprint[], threshold: number, score: (a: Fingerprint, b: Fingerprint) => number = similarity): SimilarGroup[] {
  const count = prints.length;
  const frequency = new Map<string, number>();
  for (const print of prints) for (const term of print.vector.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const rarestFirst = (a: string, b: string): number => frequency.get(a)! - frequency.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
  const index = new Map<string, number[]>();
  const byTitle = new Map<string, number[]>();
  // similarity() rounds to 3 decimals: a cosine just under the threshold can round up to it.
  const bound = threshold - 0.0005;
  prints.forEach((print, n) => {
    if (print.title !== '') append(byTitle, print.title, n);
    const terms = [...print.vector.keys()].sort(rarestFirst);
    const norm = Math.sqrt([...print.vector.values()].reduce((sum, weight) => sum + weight * weight, 0));
    let suffix = 0;
    let cut = terms.length;
    while (cut > 0) {
      const weight = print.vector.get(terms[cut - 1]!)! / norm;
      if (Math.sqrt(suffix + weight * weight) >= bound) break;
      suffix += weight * weight;
      cut--;
    }
    for (const term of terms.slice(0, cut)) append(index, term, n);
  });
  const parent = Array.from({ length: count }, (_, n) => n);
  const find = (n: number): number => {
    while (parent[n] !== n) n = parent[n] = parent[parent[n]!]!;
    return n;
  };
  const weakest = new Float64Array(count).fill(1);
  const lastProbe = new Int32Array(count).fill(-1);
  const consider = (i: number, j: number): void => {
    if (j <= i || lastProbe[j] === i) return;
    lastProbe[j] = i;
    const [a, b] = [find(i), find(j)];
    if (a === b) return;
    const alike = score(prints[i]!, prints[j]!);
    if (alike < threshold) return;
    const [root, child] = a < b ? [a, b] : [b, a];
    parent[child] = root;
    weakest[root] = Math.min(weakest[root]!, weakest[child]!, alike);
  };
  prints.forEach((print, i) => {
    for (const j of byTitle.get(print.title) ?? []) consider(i, j);
    for (const term of print.vector.keys()) for (const j of index.get(term) ?? []) consider(i, j);
  });
  const groups = new Map<number, number[]>();
  for (let n = 0; n < count; n++) append(groups, find(n), n);
  return [...groups.entries()].filter(([, members]) => members.length > 1).map(([root, members]) => ({ members, weakest: weakest[root]! }));
}

function append<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
