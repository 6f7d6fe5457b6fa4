/**
 * Near-duplicate detection with preflight's text model: the same words, stemming, stopwords and
 * synonym groups (through `buildQuery`, so a paraphrase meets the lesson it repeats) and the
 * same field weights as the search index. A lesson becomes a weighted term vector; two lessons
 * are as alike as the cosine of their vectors.
 */
import { buildQuery } from '../preflight/query.js';
import { FIELD_BOOST } from '../preflight/search-index.js';
import { VOCABULARY } from '../preflight/vocabulary.js';
import type { Lesson } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import { similarity, vectorFingerprint, type Fingerprint, type TermVector } from './similarity.js';

/** What of a lesson the text model reads. */
export interface LessonText {
  title: string;
  summary?: string;
  tags?: readonly string[];
  checklist?: readonly string[];
  keywords?: readonly string[];
}

const NO_CONTEXT = { paths: [], tool: null, command: null, project: null };

function addField(vector: TermVector, text: string, boost: number): void {
  if (text.trim() === '') return;
  for (const term of buildQuery({ task: text, ...NO_CONTEXT }, VOCABULARY).terms) {
    vector.set(term.term, (vector.get(term.term) ?? 0) + boost * term.weight);
  }
}

export function textVector(lesson: LessonText): TermVector {
  const vector: TermVector = new Map();
  addField(vector, lesson.title, FIELD_BOOST.title);
  addField(vector, lesson.summary ?? '', FIELD_BOOST.summary);
  addField(vector, (lesson.tags ?? []).join(' '), FIELD_BOOST.tags);
  addField(vector, (lesson.checklist ?? []).join('\n'), FIELD_BOOST.checklist);
  addField(vector, (lesson.keywords ?? []).join('\n'), FIELD_BOOST.keywords);
  return vector;
}

/** A fingerprint for `similarGroups`: the normalised title and the text-model vector. */
export function textFingerprint(lesson: LessonText): Fingerprint {
  return vectorFingerprint(lesson.title, textVector(lesson));
}

/** 0..1, rounded to 3 decimals; 1 for the same normalised title: the cosine of the two text-model vectors. */
export const textSimilarity = similarity;

export interface NearLesson {
  id: string;
  title: string;
  similarity: number;
}

/**
 * Live lessons whose title reads like `title` (text-model similarity at least `threshold`),
 * most similar first: what `lessons new` names before it writes a duplicate.
 */
export function lessonsLike(title: string, lessons: readonly Pick<Lesson, 'id' | 'title' | 'status'>[], threshold: number): NearLesson[] {
  const print = textFingerprint({ title });
  return lessons
    .filter((lesson) => lesson.status !== 'retired')
    .map((lesson) => ({ id: lesson.id, title: lesson.title, similarity: textSimilarity(print, textFingerprint({ title: lesson.title })) }))
    .filter((near) => near.similarity >= threshold)
    .sort((a, b) => b.similarity - a.similarity || compareStrings(a.id, b.id));
}
