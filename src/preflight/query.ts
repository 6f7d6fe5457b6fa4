import path from 'node:path';
import { stem, words } from './text.js';

/** What a preflight run is asked about: the task text and the context flags. */
export interface PreflightInput {
  task: string;
  paths: string[];
  tool: string | null;
  command: string | null;
  project: string | null;
}

/**
 * A path as lesson triggers see it: repo-relative POSIX inside the repository, absolute POSIX
 * outside. A relative path is taken from `cwd` (a hook's working directory; preflight's --path
 * from the repository root).
 */
export function triggerPath(root: string, cwd: string, file: string): string {
  const absolute = path.resolve(cwd, file);
  const rel = path.relative(root, absolute);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return (inside ? rel : absolute).split(path.sep).join('/');
}

/** A search term of the query: from the task itself, or added by a synonym of a task word. */
export interface QueryTerm {
  term: string;
  /** The task word it stands for, shown in the reasons. */
  word: string;
  weight: number;
  from: 'task' | 'synonym';
}

export interface Query extends PreflightInput {
  terms: QueryTerm[];
}

/** The data-driven vocabulary: synonym groups and stopwords (src/preflight/vocabulary.ts). */
export interface Vocabulary {
  synonyms: string[][];
  stopwords: string[];
}

export const SYNONYM_WEIGHT = 0.5;

/** Hook mode: context flags and no task text. */
export function isHookMode(input: PreflightInput): boolean {
  return input.task.trim() === '' && (input.paths.length > 0 || input.tool !== null || input.command !== null);
}

function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Turns the task into weighted terms: its content words (stopwords dropped, stemmed), then,
 * for every synonym group one of whose phrases occurs in the task, the group's other words.
 */
export function buildQuery(input: PreflightInput, vocabulary: Vocabulary): Query {
  const taskWords = words(input.task);
  const taskStems = taskWords.map(stem);
  const stop = new Set(vocabulary.stopwords);
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  taskWords.forEach((word, i) => {
    const term = taskStems[i]!;
    if (stop.has(word) || stop.has(term) || seen.has(term)) return;
    seen.add(term);
    terms.push({ term, word, weight: 1, from: 'task' });
  });
  for (const group of vocabulary.synonyms) {
    const phrases = group.map((phrase) => words(phrase).map(stem));
    const hit = phrases.findIndex((phrase) => containsSequence(taskStems, phrase));
    if (hit < 0) continue;
    const word = group[hit]!;
    for (const phrase of phrases) {
      for (const term of phrase) {
        if (seen.has(term) || stop.has(term)) continue;
        seen.add(term);
        terms.push({ term, word, weight: phrase.length > 1 ? SYNONYM_WEIGHT * 0.7 : SYNONYM_WEIGHT, from: 'synonym' });
      }
    }
  }
  return { ...input, terms };
}
