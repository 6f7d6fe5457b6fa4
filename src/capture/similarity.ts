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
