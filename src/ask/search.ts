/**
 * Finding answers before asking a human (pure, over the documents of sources.ts): per question
 * the two best sources, each with its most relevant passage, under a total size cap; a question
 * whose words mostly match nothing is "not found" rather than answered with noise.
 */
import MiniSearch from 'minisearch';
import { MAX_WORD_LENGTH } from '../search/engine.js';
import { STOPWORDS } from '../util/words.js';
import type { SourceDoc } from './sources.js';

export const SOURCES_PER_QUESTION = 2;
export const MAX_EXCERPT_CHARS = 400;
export const MAX_TOTAL_CHARS = 4000;

export interface FoundSource {
  path: string;
  title: string;
  excerpt: string;
  score: number;
  /** The lesson's id, `<source>:<id>` for a source's lesson; absent for a reference section. */
  lesson?: string;
}

/** The sources found, numbered, each with its excerpt under it: what `lessons ask` and the MCP search tool print. */
export function foundLines(sources: readonly FoundSource[]): string[] {
  return sources.flatMap((source, i) => [`${i + 1}. ${source.lesson === undefined ? '' : `${source.lesson} in `}${source.path} (${source.title})`, ...(source.excerpt ? [`   ${source.excerpt}`] : [])]);
}

export interface AskAnswer {
  question: string;
  /** Found in the repository: the sources answer it (word matching: they match it). */
  found: boolean;
  /** The reviewer's answer, taken only from the sources; null when word matching decided. */
  answer: string | null;
  sources: FoundSource[];
}

function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  // A word past MAX_WORD_LENGTH is no word: its fuzzy match would cost memory by the square of its length.
  return word.length < 2 || word.length > MAX_WORD_LENGTH || STOPWORDS.has(word) ? null : word;
}

function queryTerms(question: string): string[] {
  return [...new Set(question.split(/[^\p{L}\p{N}_]+/u).map(processTerm).filter((word): word is string => word !== null))];
}

/** The paragraph (or list item) of `text` sharing the most words with the question, cut to the cap. */
export function bestExcerpt(text: string, terms: readonly string[]): string {
  const parts = text.split(/\n\s*\n|\n(?=\s*[-*+] )/).map((part) => part.replace(/\s+/g, ' ').trim()).filter(Boolean);
  let best = parts[0] ?? '';
  let bestHits = -1;
  for (const part of parts) {
    const lower = part.toLowerCase();
    const hits = terms.filter((term) => lower.includes(term)).length;
    if (hits > bestHits) {
      best = part;
      bestHits = hits;
    }
  }
  return best.length > MAX_EXCERPT_CHARS ? `${best.slice(0, MAX_EXCERPT_CHARS - 1).trimEnd()}…` : best;
}

export function answerQuestions(docs: readonly SourceDoc[], questions: readonly string[], perQuestion = SOURCES_PER_QUESTION): AskAnswer[] {
  const search = new MiniSearch<SourceDoc>({
    fields: ['title', 'text'],
    storeFields: ['path', 'title', 'text', 'lesson'],
    processTerm,
    searchOptions: { boost: { title: 2 }, prefix: true, fuzzy: 0.15, combineWith: 'OR' },
  });
  search.addAll(docs);
  let budget = MAX_TOTAL_CHARS;
  return questions.map((question) => {
    const terms = queryTerms(question);
    const needed = Math.max(1, Math.ceil(terms.length / 2));
    const sources: FoundSource[] = [];
    const seenPaths = new Set<string>();
    for (const result of terms.length === 0 ? [] : search.search(terms.join(' '))) {
      if (sources.length >= perQuestion) break;
      if (result.queryTerms.length < needed || seenPaths.has(result.path as string)) continue;
      seenPaths.add(result.path as string);
      let excerpt = bestExcerpt(result.text as string, terms);
      if (excerpt.length > budget) excerpt = budget > 1 ? `${excerpt.slice(0, budget - 1)}…` : '';
      budget -= excerpt.length;
      const lesson = result.lesson as string | undefined;
      sources.push({ path: result.path as string, title: result.title as string, excerpt, score: Math.round(result.score * 1000) / 1000, ...(lesson === undefined ? {} : { lesson }) });
    }
    return { question, found: sources.length > 0, answer: null, sources };
  });
}
