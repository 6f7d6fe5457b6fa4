/**
 * Acronyms engineers write for a phrase (ci: continuous integration, sso: single sign on, dst:
 * daylight savings time), from Stack Overflow's approved tag synonyms
 * (data/thesaurus/stackoverflow-acronyms.tsv, CC BY-SA 4.0, rebuilt by
 * scripts/build-stackoverflow-vocabulary.mjs), read from the package. A lesson that writes the
 * phrase is also indexed under its acronym (indexTerms), so a task that writes the acronym finds
 * it; a task that writes the phrase also looks the acronym up (buildQuery), so it finds a lesson
 * that writes the acronym. Both sides read the same table, so they always agree.
 */
import { packageFile } from '../io/package-root.js';
import { stem, words, type Acronyms } from './text.js';
import { readText } from '../io/fs.js';

const ACRONYMS_FILE = 'data/thesaurus/stackoverflow-acronyms.tsv';

interface Phrase {
  acronym: string;
  stems: readonly string[];
}

const NONE: readonly Phrase[] = [];

/**
 * The table of a file's text (lines `acronym<TAB>word word ...`; a line without both is
 * skipped). A phrase's words are stemmed when a word that begins as its first one is first
 * looked up (stem() keeps a word's first two letters), not all of them on every run. Words of
 * one letter are left out of a phrase, as words() leaves them out of text.
 */
class PhraseTable implements Acronyms {
  private readonly unread = new Map<string, string[]>();
  private readonly byFirst = new Map<string, Phrase[]>();

  constructor(text: string) {
    for (const line of text.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab <= 0) continue;
      const key = line.slice(tab + 1).trim().slice(0, 2);
      const lines = this.unread.get(key);
      if (lines) lines.push(line);
      else this.unread.set(key, [line]);
    }
  }

  startingWith(first: string): readonly Phrase[] {
    if (this.unread.size > 0) {
      const key = first.slice(0, 2);
      const lines = this.unread.get(key);
      if (lines) {
        this.unread.delete(key);
        for (const line of lines) this.read(line);
      }
    }
    return this.byFirst.get(first) ?? NONE;
  }

  private read(line: string): void {
    const tab = line.indexOf('\t');
    const stems = words(line.slice(tab + 1)).map(stem);
    if (stems.length < 2) return;
    const phrases = this.byFirst.get(stems[0]!);
    // The acronym as a term, stemmed as the same word in a task is (saas, jpms lose their s).
    const phrase = { acronym: stem(line.slice(0, tab).trim().toLowerCase()), stems };
    if (phrases) phrases.push(phrase);
    else this.byFirst.set(stems[0]!, [phrase]);
  }
}

export function parseAcronyms(text: string): Acronyms {
  return new PhraseTable(text);
}

const NO_ACRONYMS: Acronyms = parseAcronyms('');

let shipped: Acronyms | undefined;

/** The table shipped with the package, read once per process; empty when the file is missing. */
export function shippedAcronyms(): Acronyms {
  if (shipped) return shipped;
  const text = shippedAcronymsText();
  return (shipped = text === '' ? NO_ACRONYMS : parseAcronyms(text));
}

/** The shipped table's text ('' when the file is missing): what a cache of results that used the table is keyed by. */
export function shippedAcronymsText(): string {
  try {
    return readText(packageFile(ACRONYMS_FILE));
  } catch {
    return '';
  }
}
