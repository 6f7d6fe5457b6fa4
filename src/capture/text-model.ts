/**
 * Near-duplicate titles with preflight's text model: the same words, stemming, stopwords and
 * synonym groups (the terms `buildQuery` makes, so a paraphrase meets the lesson it repeats). A title
 * becomes a weighted term vector; two titles are as alike as the cosine of their vectors.
 */
import { stem, words } from '../preflight/text.js';
import { VOCABULARY } from '../preflight/vocabulary.js';
import type { Lesson } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import { FIELD_BOOST } from '../preflight/search-fields.js';
import { similarity, weightedPrint, type Fingerprint } from './similarity.js';

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
export function textModelPrints(lessons: readonly FieldedText[], related: Pick<ReadonlyMap<string, readonly string[]>, 'get'>): Map<string, Fingerprint> {
  const termsOf = queryTerms();
  const own = lessons.map((lesson) => {
    const weights = new Map<string, number>();
    const add = (text: string, weight: number): void => {
      for (const term of termsOf(text)) weights.set(term, (weights.get(term) ?? 0) + weight);
    };
    add(lesson.title, FIELD_WEIGHT.title);
    add(lesson.summary, FIELD_WEIGHT.summary);
    add(lesson.tags.join(' '), FIELD_WEIGHT.tags);
    add(lesson.checklist.join('\n'), FIELD_WEIGHT.checklist);
    return weights;
  });
  const vocabulary = new Set(own.flatMap((weights) => [...weights.keys()]));
  return new Map(
    lessons.map((lesson, n) => {
      const weights = new Map(own[n]!);
      for (const term of own[n]!.keys()) {
        for (const relative of related.get(term) ?? []) if (vocabulary.has(relative) && !own[n]!.has(relative)) weights.set(relative, (weights.get(relative) ?? 0) + 1);
      }
      return [lesson.id, weightedPrint(lesson.title, weights)];
    }),
  );
}

/**
 * The terms buildQuery() makes of a task's text (its words stemmed, stopwords dropped, each
 * once), with each word's stem worked out once for all the texts of a run.
 */
function queryTerms(): (text: string) => Set<string> {
  const stop = new Set(VOCABULARY.stopwords);
  const stems = new Map<string, string | null>();
  const termOf = (word: string): string | null => {
    let term = stems.get(word);
    if (term === undefined) {
      term = stem(word);
      if (stop.has(word) || stop.has(term)) term = null;
      stems.set(word, term);
    }
    return term;
  };
  return (text) => {
    const found = new Set<string>();
    for (const word of words(text)) {
      const term = termOf(word);
      if (term !== null) found.add(term);
    }
    return found;
  };
}

/**
 * A stemmed word's relatives in `thesaurus` (word -> related words, as shipped), stemmed as
 * preflight stems: the words are stemmed once, a word's relatives when first asked for.
 */
export function stemmedRelatives(thesaurus: ReadonlyMap<string, readonly string[]>): (term: string) => readonly string[] {
  const byStem = new Map<string, string[]>();
  for (const word of thesaurus.keys()) {
    const key = stem(word);
    const words = byStem.get(key);
    if (words) words.push(word);
    else byStem.set(key, [word]);
  }
  return (term) => [...new Set((byStem.get(term) ?? []).flatMap((word) => thesaurus.get(word)!.map(stem)))].filter((other) => other !== term).sort(compareStrings);
}
