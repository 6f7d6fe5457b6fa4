/**
 * Near-duplicate titles with preflight's text model: the same words, stemming, stopwords and
 * synonym groups (through `buildQuery`, so a paraphrase meets the lesson it repeats). A title
 * becomes a weighted term vector; two titles are as alike as the cosine of their vectors.
 */
import { buildQuery } from '../preflight/query.js';
import { stem } from '../preflight/text.js';
import { VOCABULARY } from '../preflight/vocabulary.js';
import type { Lesson } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import { FIELD_BOOST } from '../preflight/search-fields.js';
import { cosine, normaliseTitle, weightedPrint, type Fingerprint, type TermVector } from './similarity.js';

const NO_CONTEXT = { paths: [], tool: null, command: null, project: null };

function titleVector(title: string): TermVector {
  const vector: TermVector = new Map();
  for (const term of buildQuery({ task: title, ...NO_CONTEXT }, VOCABULARY).terms) {
    vector.set(term.term, (vector.get(term.term) ?? 0) + 1);
  }
  return vector;
}

export interface NearLesson {
  id: string;
  title: string;
  similarity: number;
}

/**
 * Live lessons whose title reads like `title` (1 for the same normalised title, else the
 * cosine of the text-model vectors, rounded to 3 decimals, at least `threshold`), most similar
 * first: what `lessons new` names before it writes a duplicate.
 */
export function lessonsLike(title: string, lessons: readonly Pick<Lesson, 'id' | 'title' | 'status'>[], threshold: number): NearLesson[] {
  const key = normaliseTitle(title);
  const vector = titleVector(title);
  const alike = (other: string): number => (key !== '' && normaliseTitle(other) === key ? 1 : Math.round(cosine(vector, titleVector(other)) * 1000) / 1000);
  return lessons
    .filter((lesson) => lesson.status !== 'retired')
    .map((lesson) => ({ id: lesson.id, title: lesson.title, similarity: alike(lesson.title) }))
    .filter((near) => near.similarity >= threshold)
    .sort((a, b) => b.similarity - a.similarity || compareStrings(a.id, b.id));
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
  const own = lessons.map((lesson) => {
    const weights = new Map<string, number>();
    const add = (text: string, weight: number): void => {
      if (text.trim() === '') return;
      for (const term of buildQuery({ task: text, ...NO_CONTEXT }, VOCABULARY).terms) weights.set(term.term, (weights.get(term.term) ?? 0) + weight);
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
