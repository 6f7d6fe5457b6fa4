/**
 * Near-duplicate titles with preflight's text model: the same words, stemming, stopwords and
 * synonym groups (through `buildQuery`, so a paraphrase meets the lesson it repeats). A title
 * becomes a weighted term vector; two titles are as alike as the cosine of their vectors.
 */
import { buildQuery } from '../preflight/query.js';
import { VOCABULARY } from '../preflight/vocabulary.js';
import type { Lesson } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import { cosine, normaliseTitle, type TermVector } from './similarity.js';

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
