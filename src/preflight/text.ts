/**
 * How text becomes search terms, the same way for lessons (when the search cache is built)
 * and for tasks (at query time): lower case, split on anything that is not a letter or a
 * digit, light suffix stripping so "retries", "retried" and "retry" meet.
 */

const SPLIT = /[^\p{L}\p{N}]+/u;

/** Words of `text`, lower-cased, in order; one-character words are dropped (so "2.3.0" says nothing, "429" does). */
export function words(text: string): string[] {
  const result: string[] = [];
  for (const word of text.toLowerCase().split(SPLIT)) {
    if (word.length < 2) continue;
    result.push(word);
  }
  return result;
}

const DOUBLE_END = /([bdfgkmnprt])\1$/;

/**
 * A deliberately small English stemmer: plural, -ing, -ed and a final e. It conflates the
 * inflections a task and a lesson are likely to differ by, and leaves short words alone.
 */
export function stem(word: string): string {
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

/** The search terms of `text`: its words, stemmed. */
export function terms(text: string): string[] {
  return words(text).map(stem);
}
