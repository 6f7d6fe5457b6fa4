import { describe, expect, it } from 'vitest';
import { relatedTerms, stemThesaurus } from '../../src/search/build.js';
import { readThesaurusText, thesaurusEntry } from '../../src/search/update.js';
import { seededRandom } from '../helpers/random.js';

/** The stemmed thesaurus restricted to `dictionary`, line by line: what relatedTerms() must give. */
function restricted(stemmed: string, dictionary: ReadonlySet<string>): string {
  return stemmed
    .split('\n')
    .map((line) => [line.slice(0, line.indexOf('\t')), line.slice(line.indexOf('\t') + 1).split(' ').filter((term) => dictionary.has(term))] as const)
    .filter(([, kept]) => kept.length > 0)
    .map(([head, kept]) => `${head}\t${kept.join(' ')}`)
    .join('\n');
}

describe('relatedTerms', () => {
  it("gives the shipped thesaurus's lines that name a term of the dictionary, for a delta's few terms and a whole corpus's many", async () => {
    const thesaurus = new Map<string, string[]>();
    for (const line of (await readThesaurusText()).split('\n')) {
      const entry = thesaurusEntry(line);
      if (entry) thesaurus.set(entry[0], entry[1]);
    }
    const stemmed = stemThesaurus(thesaurus);
    const words = [...new Set(stemmed.split(/[\t\n ]/))];
    const random = seededRandom(41);
    // The last line's last relative ends the text; a prefix of a relative ("xyz" of "xyzzy") is no match.
    const sizes = [1, 2, 12, 150, 999, 1000, 1001, 4000];
    for (const size of sizes) {
      const dictionary = new Set(Array.from({ length: size }, () => words[Math.floor(random() * words.length)]!));
      const last = stemmed.split(/[\t\n ]/).pop()!;
      for (const term of [last, last.slice(0, -1)]) dictionary.add(term);
      expect(relatedTerms(stemmed, dictionary), `${size} terms`).toBe(restricted(stemmed, dictionary));
    }
  });

  it('reads the characters of a regular expression as text', () => {
    const stemmed = ['a\tc++ b.d x', 'b\tc+ bxd', 'c\t(x)|y [z] x', 'd\ta.b'].join('\n');
    for (const terms of [['c++'], ['b.d'], ['(x)|y'], ['[z]', 'a.b'], ['x'], ['c+', 'bxd'], ['nothing']]) {
      const dictionary = new Set(terms);
      expect(relatedTerms(stemmed, dictionary), terms.join(' ')).toBe(restricted(stemmed, dictionary));
    }
    expect(relatedTerms(stemmed, new Set(['b.d']))).toBe('a\tb.d');
    expect(relatedTerms(stemmed, new Set(['x']))).toBe('a\tx\nc\tx');
  });
});
