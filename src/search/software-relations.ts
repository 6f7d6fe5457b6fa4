/**
 * Which thesaurus relations hold in software text. WordNet relates words in every sense it
 * knows (translate ~ render, bill ~ invoice), most of them not about software; a relation
 * found there is evidence that a lesson is about a task word only when software text supports
 * it: Stack Overflow's approved tag synonyms relate the two words (software vocabulary by
 * construction), or the repository's own lessons use both words in one lesson (the team's
 * writing relates them). Anything else may still rank a lesson, never vouch for it.
 */
import fs from 'node:fs';
import { packageFile } from '../io/package-root.js';
import type { SearchIndex } from './search-index.js';
import { stem } from './text.js';

const SOFTWARE_SYNONYMS_FILE = 'data/thesaurus/stackoverflow-synonyms.tsv';

/** The tag-synonym table's lines, read when a relation is first looked up. */
let lines: string[] | undefined;
/** Its pairs (either way round) whose first word begins with a prefix: stem() keeps a word's first two letters, so a term is looked up among those of its own. */
const buckets = new Map<string, [string, string][]>();
const stemmed = new Map<string, string>();

function stemOf(word: string): string {
  let result = stemmed.get(word);
  if (result === undefined) stemmed.set(word, (result = stem(word)));
  return result;
}

function tableLines(): string[] {
  if (lines) return lines;
  let text = '';
  try {
    text = fs.readFileSync(packageFile(SOFTWARE_SYNONYMS_FILE), 'utf8');
  } catch {
    // A table left out of the package only means fewer relations vouch for lessons.
  }
  return (lines = text.split('\n'));
}

/** The pairs whose first word begins with `prefix`, from the lines that hold such a word (a substring test before any split). */
function bucket(prefix: string): [string, string][] {
  let found = buckets.get(prefix);
  if (found) return found;
  found = [];
  // Lines `word<TAB>synonym synonym ...`, as the search cache reads the file (thesaurusEntry).
  for (const line of tableLines()) {
    const tab = line.indexOf('\t');
    if (tab <= 0 || !(line.startsWith(prefix) || line.includes(`\t${prefix}`) || line.includes(` ${prefix}`))) continue;
    const word = line.slice(0, tab);
    for (const other of line.slice(tab + 1).split(' ')) {
      if (other === '') continue;
      if (word.startsWith(prefix)) found.push([word, other]);
      if (other.startsWith(prefix)) found.push([other, word]);
    }
  }
  buckets.set(prefix, found);
  return found;
}

/** Whether the tag synonyms relate the stemmed terms. */
function tagSynonyms(term: string, relative: string): boolean {
  return bucket(term.slice(0, 2)).some(([a, b]) => stemOf(a) === term && stemOf(b) === relative);
}

/**
 * Which of a task word's thesaurus relatives software text supports (see above): a relative
 * the tag synonyms pair with `term`, or one that some lesson holds together with it. The word's
 * lessons are read once, when the first relative is not a tag synonym, for all its relatives.
 */
export function relationSupport(index: SearchIndex, term: string): (relative: string) => boolean {
  let docs: Set<number> | undefined;
  const termDocs = (): Set<number> => {
    if (docs) return docs;
    docs = new Set();
    for (const part of index.postingPartsOf(term)) for (const doc of part.docs) docs.add(part.offset + doc);
    return docs;
  };
  return (relative) => {
    if (tagSynonyms(term, relative)) return true;
    const own = termDocs();
    if (own.size === 0) return false;
    for (const part of index.postingPartsOf(relative)) for (const doc of part.docs) if (own.has(part.offset + doc)) return true;
    return false;
  };
}
