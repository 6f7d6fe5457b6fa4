/**
 * Near-duplicate titles with preflight's text model: the same words, stemming, stopwords,
 * thesaurus and acronyms (the terms `buildQuery` makes, so a paraphrase meets the lesson it repeats). A title
 * becomes a weighted term vector; two titles are as alike as the cosine of their vectors.
 */
import { thesaurusEntry } from './update.js';
import { shippedAcronyms } from './acronyms.js';
import { acronymsAt, stem, words, type Acronyms } from './text.js';
import { VOCABULARY } from './vocabulary.js';
import type { Lesson } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import { FIELD_BOOST } from './fields.js';
import { numberedPrint, similarity, wordNumber, type Fingerprint } from './similarity.js';

export interface NearLesson {
  id: string;
  title: string;
  similarity: number;
}

/**
 * Live lessons whose title reads like `title`, in the text model of textModelPrints() (its
 * stems, stopwords and thesaurus relatives, so "Big upload stopped the worker" meets "Large
 * upload halted the worker"): 1 for the same normalised title, else the cosine of the two
 * titles' vectors, rounded to 3 decimals, at least `threshold`; most similar first. What
 * `lessons new` names before it writes a duplicate.
 */
export function lessonsLike(
  title: string,
  lessons: readonly Pick<Lesson, 'id' | 'title' | 'status'>[],
  threshold: number,
  related: (term: string) => readonly string[],
): NearLesson[] {
  const live = lessons.filter((lesson) => lesson.status !== 'retired');
  const NEW = '\0new';
  const titled = (id: string, text: string): FieldedText => ({ id, title: text, summary: '', tags: [], checklist: [] });
  const prints = textModelPrints([titled(NEW, title), ...live.map((lesson) => titled(lesson.id, lesson.title))], memo(related));
  const mine = prints.get(NEW)!;
  return live
    .map((lesson) => ({ id: lesson.id, title: lesson.title, similarity: similarity(mine, prints.get(lesson.id)!) }))
    .filter((near) => near.similarity >= threshold)
    .sort((a, b) => b.similarity - a.similarity || compareStrings(a.id, b.id));
}

/** `related` asked once per term. */
export function memo(related: (term: string) => readonly string[]): Pick<ReadonlyMap<string, readonly string[]>, 'get'> {
  const known = new Map<string, readonly string[]>();
  return { get: (term) => known.get(term) ?? known.set(term, related(term)).get(term) };
}

/** What of a lesson the text model compares, by field. */
export interface FieldedText {
  id: string;
  title: string;
  summary: string;
  tags: readonly string[];
  checklist: readonly string[];
}

/** Preflight's field boosts in whole numbers (twice the boost, rounded), so the dot products stay exact. */
const FIELD_WEIGHT = {
  title: Math.round(2 * FIELD_BOOST.title),
  summary: Math.round(2 * FIELD_BOOST.summary),
  tags: Math.round(2 * FIELD_BOOST.tags),
  checklist: Math.round(2 * FIELD_BOOST.checklist),
};

/**
 * Fingerprints in preflight's text model: its words and stems, weighted by field as preflight
 * weights them, and each word's thesaurus relatives that other lessons of the set use (weight 1
 * each), so two lessons that say one thing in other words ("erase" / "delete") come close.
 * `related` maps a stemmed word to its relatives' stems (preflight's stemmed thesaurus).
 */
export function textModelPrints(
  lessons: readonly FieldedText[],
  related: Pick<ReadonlyMap<string, readonly string[]>, 'get'>,
  acronyms: Acronyms = shippedAcronyms(),
): Map<string, Fingerprint> {
  // Terms are numbered for this call (`names` holds them): a lesson's terms are small arrays, not maps.
  const names: string[] = [];
  const { termOf, numberOf, stemOf } = queryTerms(names);
  const weightOf: number[] = [];
  /** The lesson (plus one) whose terms hold the term, and the field that last added it. */
  const lessonOf: number[] = [];
  const fieldOf: number[] = [];
  const own = lessons.map((lesson, n) => {
    const terms: number[] = [];
    const take = (term: number, weight: number, field: number): void => {
      // Each term once per field, as buildQuery() makes it.
      if (term < 0 || (lessonOf[term] === n + 1 && fieldOf[term] === field)) return;
      fieldOf[term] = field;
      if (lessonOf[term] !== n + 1) {
        lessonOf[term] = n + 1;
        weightOf[term] = 0;
        terms.push(term);
      }
      weightOf[term]! += weight;
    };
    const add = (text: string, weight: number, field: number): void => {
      const all = words(text);
      const stems = all.map(stemOf);
      for (let i = 0; i < all.length; i++) {
        take(termOf(all[i]!), weight, field);
        // A phrase engineers also write as an acronym (continuous integration, ci) counts as the acronym too, as preflight indexes it.
        for (const { acronym } of acronymsAt(acronyms, stems, i)) take(termOf(acronym), weight, field);
      }
    };
    add(lesson.title, FIELD_WEIGHT.title, 1);
    add(lesson.summary, FIELD_WEIGHT.summary, 2);
    add(lesson.tags.join(' '), FIELD_WEIGHT.tags, 3);
    add(lesson.checklist.join('\n'), FIELD_WEIGHT.checklist, 4);
    return { terms, weights: terms.map((term) => weightOf[term]!) };
  });
  const relativesOf = new Map<number, number[]>();
  const relatives = (term: number): number[] => {
    let found = relativesOf.get(term);
    if (found === undefined) {
      found = [];
      // A term has a number only when a lesson of the set uses it.
      for (const relative of related.get(names[term]!) ?? []) {
        const number = numberOf(relative);
        if (number !== undefined) found.push(number);
      }
      relativesOf.set(term, found);
    }
    return found;
  };
  const extra = new Int32Array(names.length);
  // Each term's process-wide number, taken in the order the prints list their terms.
  const numbered = new Int32Array(names.length).fill(-1);
  /** n + 1 for a term of lesson n's own, -(n + 1) for a relative it gained. */
  const holder = new Int32Array(names.length);
  return new Map(
    lessons.map((lesson, n) => {
      const { terms, weights } = own[n]!;
      const ownCount = terms.length;
      for (let k = 0; k < ownCount; k++) holder[terms[k]!] = n + 1;
      // Its relatives follow its own terms, each once, weighing one per own term it relates to.
      for (let k = 0; k < ownCount; k++) {
        const found = relatives(terms[k]!);
        for (let r = 0; r < found.length; r++) {
          const relative = found[r]!;
          if (holder[relative] === n + 1) continue;
          if (holder[relative] !== -(n + 1)) {
            holder[relative] = -(n + 1);
            extra[relative] = 0;
            terms.push(relative);
          }
          extra[relative]!++;
        }
      }
      for (let k = ownCount; k < terms.length; k++) weights.push(extra[terms[k]!]!);
      const numbers = new Int32Array(terms.length);
      for (let k = 0; k < terms.length; k++) {
        const term = terms[k]!;
        if (numbered[term]! < 0) numbered[term] = wordNumber(names[term]!);
        numbers[k] = numbered[term]!;
      }
      return [lesson.id, numberedPrint(lesson.title, numbers, weights)];
    }),
  );
}

/**
 * The terms buildQuery() makes of a task's words (stemmed, stopwords dropped), numbered in
 * `names` as they are first met (-1 for a stopword), each word's stem worked out once for all
 * the texts of a run; numberOf() finds a term's number without adding it.
 */
function queryTerms(names: string[]): { termOf: (word: string) => number; numberOf: (term: string) => number | undefined; stemOf: (word: string) => string } {
  const stop = new Set(VOCABULARY.stopwords);
  const numbers = new Map<string, number>();
  const byWord = new Map<string, number>();
  const stems = new Map<string, string>();
  const stemOf = (word: string): string => {
    let term = stems.get(word);
    if (term === undefined) stems.set(word, (term = stem(word)));
    return term;
  };
  const termOf = (word: string): number => {
    let number = byWord.get(word);
    if (number === undefined) {
      const term = stemOf(word);
      if (stop.has(word) || stop.has(term)) number = -1;
      else {
        number = numbers.get(term);
        if (number === undefined) numbers.set(term, (number = names.push(term) - 1));
      }
      byWord.set(word, number);
    }
    return number;
  };
  return { termOf, numberOf: (term) => numbers.get(term), stemOf };
}

/**
 * A stemmed word's relatives in the thesaurus (its files' text: lines of a word, a tab and its
 * related words; a word listed on several lines has the related words of each, as
 * readThesaurus() reads it), stemmed
 * as preflight stems. stem() keeps a word's first two letters, so the words that stem to a
 * term begin as it does: their lines are read and stemmed when a term that begins so is first
 * asked for, not all 40,000 at every run.
 */
export function stemmedRelatives(thesaurus: string): (term: string) => readonly string[] {
  // Where each line starts, by the first two letters of its word.
  const lineStarts = new Map<string, number[]>();
  for (let at = 0; at < thesaurus.length; ) {
    const newline = thesaurus.indexOf('\n', at);
    const end = newline < 0 ? thesaurus.length : newline;
    const tab = thesaurus.indexOf('\t', at);
    if (tab > at && tab < end) append(lineStarts, thesaurus.slice(at, Math.min(at + 2, tab)), at);
    at = end + 1;
  }
  const relatedWords = new Map<string, string[]>();
  const byStem = new Map<string, string[]>();
  return (term) => {
    const start = term.slice(0, 2);
    const unread = lineStarts.get(start);
    if (unread !== undefined) {
      lineStarts.delete(start);
      const read = new Set<string>();
      for (const at of unread) {
        const newline = thesaurus.indexOf('\n', at);
        const [word, others] = thesaurusEntry(thesaurus.slice(at, newline < 0 ? thesaurus.length : newline))!;
        const known = relatedWords.get(word);
        relatedWords.set(word, known === undefined ? others : [...known, ...others]);
        read.add(word);
      }
      for (const word of read) append(byStem, stem(word), word);
    }
    return [...new Set((byStem.get(term) ?? []).flatMap((word) => relatedWords.get(word)!.map(stem)))].filter((other) => other !== term).sort(compareStrings);
  };
}

function append<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
