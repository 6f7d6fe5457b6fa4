/**
 * The lessons a draft may duplicate, found through preflight's search cache instead of by
 * reading every lesson: the cache's postings say which lessons hold a word, its records give
 * their title, summary and checklist (the index's, which is what dedup compares).
 */
import { type Comparable, type Fingerprint, foldText, likelyAlike, lowerBound, prefixWitnesses, type SearchIndex, spellings, stem as searchStem } from '../search/engine.js';
import type { IndexEntry } from '../index/build.js';

const ASCII = /^[\x00-\x7f]*$/;

export interface SearchCandidate {
  id: string;
  path: string;
  comparable: Comparable;
}

/**
 * The local lessons of `index` that may be at least `threshold` similar to `print`, in id order:
 * a superset of them, as likelyAlike() finds in the lessons' texts. A lesson alike enough holds
 * a witness word of the print's prefix (prefixWitnesses), or every title word for the same
 * title. A similarity word comes from a handful of spellings (spellings()); the cache indexes
 * each spelling under preflight's stem of it, so the lessons holding the word are among the
 * postings of those stems. Preflight splits text as similarity does where it is ASCII; a lesson
 * with a word that is not is taken as a candidate whatever its words. (Left out: a symbol that
 * Unicode's compatibility folding turns into letters, such as ™, which preflight reads as a
 * separator and similarity as a word.)
 */
export function searchCandidates(index: SearchIndex, print: Fingerprint, titleWords: readonly string[], threshold: number): SearchCandidate[] {
  const terms = index.terms;
  const docsOf = new Map<string, Set<number>>();
  const holding = (word: string): Set<number> => {
    let docs = docsOf.get(word);
    if (docs) return docs;
    docs = new Set();
    for (const spelling of spellings(word)) {
      const at = termIndex(terms, searchStem(spelling));
      if (at >= 0) for (const doc of index.postings(at).docs) docs.add(doc);
    }
    docsOf.set(word, docs);
    return docs;
  };
  const found = new Set<number>();
  for (const word of prefixWitnesses(print, threshold, (word) => holding(word).size)) for (const doc of holding(word)) found.add(doc);
  if (print.title !== '' && titleWords.length > 0) {
    const rarest = titleWords.reduce((a, b) => (holding(b).size < holding(a).size ? b : a));
    for (const doc of holding(rarest)) found.add(doc);
  }
  terms.forEach((term, at) => {
    if (!ASCII.test(term)) for (const doc of index.postings(at).docs) found.add(doc);
  });
  const candidates: SearchCandidate[] = [];
  for (const doc of [...found].sort((a, b) => a - b)) {
    const record = index.record(doc);
    // Other repositories' lessons (`<source>:<id>`) are searched by preflight, never deduplicated against.
    if (record.id.includes(':')) continue;
    candidates.push({ id: record.id, path: record.path, comparable: { title: record.title, summary: record.summary, checklist: record.checklist } });
  }
  return candidates;
}

function termIndex(terms: readonly string[], term: string): number {
  const at = lowerBound(terms, term);
  return terms[at] === term ? at : -1;
}

/**
 * The same superset from lessons/index.json's lines when the search cache does not describe the
 * index (the last change made it stale): likelyAlike() over each entry's title, summary and
 * checklist as the line holds them. JSON escapes only quotes, backslashes and control
 * characters, so every word of the text is a substring of its JSON. Entries of retired lessons
 * are left out, as the search cache leaves them out.
 */
export function indexCandidates(lines: readonly { id: string; json: string }[], print: Fingerprint, titleWords: readonly string[], threshold: number): SearchCandidate[] {
  const live = lines.filter((line) => !line.json.includes('"status":"retired"'));
  const texts = live.map((line) => foldText(comparableJson(line.json)));
  return likelyAlike(print, titleWords, texts, threshold).map((n) => {
    const entry = JSON.parse(live[n]!.json) as IndexEntry;
    return { id: entry.id, path: entry.path, comparable: { title: entry.title, summary: entry.summary, checklist: entry.checklist } };
  });
}

/**
 * The JSON of an index line's title, summary and checklist: `lessons index` writes each entry's
 * keys in one order, and a key in quotes never occurs inside a string (its quotes are escaped).
 */
function comparableJson(json: string): string {
  const between = (from: string, to: string): string => {
    const start = json.indexOf(from);
    const end = json.indexOf(to, start);
    // Another layout: the whole line, a superset all the same.
    return start < 0 || end < 0 ? json : json.slice(start, end);
  };
  return `${between('"title":', ',"level":')}\n${between('"summary":', ',"project":')}\n${between('"checklist":', ',"triggers":')}`;
}
