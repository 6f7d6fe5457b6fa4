import path from 'node:path';
import { type Acronyms, acronymsAt, shippedAcronyms, stem, words } from '../search/engine.js';

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

/**
 * A search term of the query, from the task text or from the context (the command's text
 * and the paths' words). Thesaurus relatives are looked up in the search index (rank.ts).
 */
export interface QueryTerm {
  term: string;
  /** The word as written, shown in the reasons. */
  word: string;
  from: 'task' | 'context' | 'file';
  /**
   * The word run together with the word before or after it (`time zone` -> timezone, `roll out`
   * -> rollout), stemmed, and the acronym of a phrase it is part of (`continuous integration` ->
   * ci): the same concept spelt as one word.
   */
  joined: string[];
}

export interface Query extends PreflightInput {
  terms: QueryTerm[];
  /** Every stemmed word of the task, command and paths in order, for keyword phrases. */
  sequence: string[];
}

/** Words a task uses that say nothing about its subject (src/search/vocabulary.ts). */
export interface Vocabulary {
  stopwords: string[];
}

/** Hook mode: context flags and no task text. */
export function isHookMode(input: PreflightInput): boolean {
  return input.task.trim() === '' && (input.paths.length > 0 || input.tool !== null || input.command !== null);
}

/**
 * Turns the task, the command and the paths into search terms: content words (stopwords
 * dropped, stemmed), each once, task words first. `acronyms` are looked up in the task's words
 * only (the command's and paths' words match as spelt); the shipped table is read when a task
 * has two words or more.
 */
export function buildQuery(input: PreflightInput, vocabulary: Vocabulary, acronyms?: Acronyms): Query {
  const stop = new Set(vocabulary.stopwords);
  const terms: QueryTerm[] = [];
  const sequence: string[] = [];
  const seen = new Set<string>();
  const add = (text: string, from: QueryTerm['from']): void => {
    const all = words(text);
    const stems = all.map(stem);
    const kept = new Map<string, QueryTerm>();
    all.forEach((word, i) => {
      const term = stems[i]!;
      sequence.push(term);
      if (stop.has(word) || stop.has(term)) return;
      let qt = kept.get(term);
      if (!qt && !seen.has(term)) {
        seen.add(term);
        qt = { term, word, from, joined: [] };
        kept.set(term, qt);
        terms.push(qt);
      }
      if (!qt) return;
      for (const pair of [[all[i - 1], word], [word, all[i + 1]]]) {
        if (pair[0] === undefined || pair[1] === undefined) continue;
        const joined = stem(`${pair[0]}${pair[1]}`);
        if (!qt.joined.includes(joined)) qt.joined.push(joined);
      }
    });
    if (from !== 'task' || all.length < 2) return;
    const table = acronyms ?? shippedAcronyms();
    for (let i = 0; i < stems.length; i++) {
      for (const { acronym, length } of acronymsAt(table, stems, i)) {
        for (let k = i; k < i + length; k++) {
          const qt = kept.get(stems[k]!);
          if (qt && !qt.joined.includes(acronym)) qt.joined.push(acronym);
        }
      }
    }
  };
  add(input.task, 'task');
  sequence.push('');
  add(input.command ?? '', 'context');
  for (const file of input.paths) {
    // A file's name says what it is about (nginx-configmap.yaml); its folders say where it lives (k8s/edge).
    const slash = file.lastIndexOf('/');
    sequence.push('');
    add(file.slice(0, slash + 1), 'context');
    add(file.slice(slash + 1), 'file');
  }
  return { ...input, terms, sequence };
}
