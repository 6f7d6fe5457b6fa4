/**
 * How text becomes search terms, the same way for lessons (when the search cache is built)
 * and for tasks (at query time): lower case, split on anything that is not a letter or a
 * digit, light suffix stripping so "retries", "retried" and "retry" meet.
 */

const SPLIT = /[^\p{L}\p{N}]+/u;
/**
 * SPLIT for lower-cased text of ASCII characters alone, where letters and digits are a-z and 0-9.
 * It splits the same way, and it spares the run the half millisecond the Unicode classes cost
 * to compile when most tasks and commands are plain ASCII.
 */
const SPLIT_ASCII = /[^a-z0-9]+/;
// eslint-disable-next-line no-control-regex
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * The longest word the search sees. No word of a language or identifier is this long; a longer
 * run of letters (a pasted blob, a minified line, a hostile input) is dropped here, so that no
 * later stage (stemming, numeronyms, fuzzy matching, the dictionary, highlighting) meets a giant
 * token and every stage stays linear in its input.
 */
export const MAX_WORD_LENGTH = 100;

/** Words of `text`, lower-cased, in order; one-character words are dropped (so "2.3.0" says nothing, "429" does), and words over MAX_WORD_LENGTH too. */
export function words(text: string): string[] {
  const result: string[] = [];
  const lower = text.toLowerCase();
  for (const word of lower.split(NOT_ASCII.test(lower) ? SPLIT : SPLIT_ASCII)) {
    if (word.length < 2 || word.length > MAX_WORD_LENGTH) continue;
    result.push(word);
  }
  return result;
}

const DOUBLE_END = /([bdfgkmnprt])\1$/;

/**
 * Derivational endings that turn a verb into a noun or an agent (memoize, memoization,
 * memoizer; deploy, deployment; migrate, migration): each is rewritten to the verb, with the
 * shortest stem it may leave, before the inflections are stripped.
 */
const DERIVATIONS: readonly [RegExp, string, number][] = [
  [/(?:ization|isation)s?$/, 'ize', 4],
  [/(?:izer|iser)s?$/, 'ize', 4],
  [/ations?$/, 'ate', 3],
  [/ments?$/, '', 5],
];

/**
 * A deliberately small English stemmer: the commonest derivational endings, then plural,
 * -ing, -ed and a final e. It conflates the forms a task and a lesson are likely to differ
 * by, and leaves short words alone.
 */
export function stem(word: string): string {
  for (const [ending, replacement, minStem] of DERIVATIONS) {
    const match = ending.exec(word);
    if (match && match.index >= minStem) return stemInflection(`${word.slice(0, match.index)}${replacement}`);
  }
  return stemInflection(word);
}

function stemInflection(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith('ied')) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w !== word && w.length > 3 && DOUBLE_END.test(w)) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/**
 * Derivational endings that make another part of speech of the same word (preempt,
 * preemptible, preemption, preemptive; consistent, consistency; secure, security), stripped
 * from a stem at most twice, longest first, keeping at least ROOT_MIN letters.
 */
const ROOT_ENDINGS = ['ibility', 'ability', 'ically', 'ivity', 'ible', 'able', 'ical', 'ness', 'ency', 'ence', 'ancy', 'ance', 'ally', 'ibl', 'abl', 'ity', 'ive', 'ion', 'ent', 'ant', 'ic', 'iv', 'al', 'at', 'ly', 'or', 'er'];
const ROOT_MIN = 5;

/**
 * The root of a stem, for matching another part of speech of the same word: the stemmer keeps
 * "preemptible" and "preemption" apart (rewriting every such ending would conflate too much in
 * exact matches); as a weaker match of its own they meet at "preempt".
 */
export function root(term: string): string {
  let result = term;
  for (let round = 0; round < 2; round++) {
    const ending = ROOT_ENDINGS.find((end) => result.endsWith(end) && result.length - end.length >= ROOT_MIN);
    if (ending === undefined) break;
    result = result.slice(0, -ending.length);
  }
  return result.endsWith('i') ? `${result.slice(0, -1)}y` : result;
}

/** The search terms of `text`: its words, stemmed. */
export function terms(text: string): string[] {
  return words(text).map(stem);
}

/** The numeronym engineers write for a long word: i18n, l10n, k8s, a11y, o11y. */
export function numeronym(word: string): string | undefined {
  return word.length >= 10 && /^[a-z]+$/.test(word) ? `${word[0]}${word.length - 2}${word[word.length - 1]}` : undefined;
}

/** Phrases and the acronyms engineers write for them (src/search/acronyms.ts). */
export interface Acronyms {
  /** The phrases whose first stem is `first`, each as its stems with its acronym (a search term, stemmed as a task's word is). */
  startingWith(first: string): readonly { acronym: string; stems: readonly string[] }[];
}

/** The acronyms of the phrases that begin at `at` in `stems`, each with the phrase's length. */
export function acronymsAt(acronyms: Acronyms, stems: readonly string[], at: number): { acronym: string; length: number }[] {
  const found: { acronym: string; length: number }[] = [];
  for (const phrase of acronyms.startingWith(stems[at]!)) if (phraseAt(phrase.stems, stems, at)) found.push({ acronym: phrase.acronym, length: phrase.stems.length });
  return found;
}

function phraseAt(phrase: readonly string[], stems: readonly string[], at: number): boolean {
  if (at + phrase.length > stems.length) return false;
  for (let k = 1; k < phrase.length; k++) if (stems[at + k] !== phrase[k]) return false;
  return true;
}

/**
 * A lesson's search terms: its words stemmed, each long word followed by its numeronym, and
 * each phrase of `acronyms` by its acronym after the phrase's first word.
 */
export function indexTerms(text: string, acronyms?: Acronyms): string[] {
  const all = words(text);
  const stems = all.map(stem);
  const result: string[] = [];
  for (let i = 0; i < all.length; i++) {
    result.push(stems[i]!);
    const short = numeronym(all[i]!);
    if (short !== undefined) result.push(short);
    if (acronyms === undefined) continue;
    for (const phrase of acronyms.startingWith(stems[i]!)) if (phraseAt(phrase.stems, stems, i)) result.push(phrase.acronym);
  }
  return result;
}

/** Whether `needle` occurs in `haystack` as a contiguous run. */
export function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}
