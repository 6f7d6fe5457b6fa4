import { describe, expect, it } from 'vitest';
import { stemmedRelatives } from '../../src/capture/text-model.js';
import { readThesaurus, readThesaurusText } from '../../src/preflight/search-update.js';
import { stem } from '../../src/preflight/text.js';
import { compareStrings } from '../../src/util/compare.js';

describe('stemmedRelatives', () => {
  it('stems only the words that begin as the term: stem() keeps the first two letters of every thesaurus word', async () => {
    const thesaurus = await readThesaurus();
    expect(thesaurus.size).toBeGreaterThan(1_000);
    const words = new Set([...thesaurus.keys(), ...[...thesaurus.values()].flat()]);
    expect([...words].filter((word) => stem(word).slice(0, 2) !== word.slice(0, 2))).toEqual([]);
  });

  it('gives every term the relatives of all the words that stem to it, as the whole thesaurus read at once does', async () => {
    const thesaurus = await readThesaurus();
    const byStem = new Map<string, string[]>();
    for (const word of thesaurus.keys()) byStem.set(stem(word), [...(byStem.get(stem(word)) ?? []), word]);
    const related = stemmedRelatives(await readThesaurusText());
    const terms = [...byStem.keys()].filter((_, n) => n % 7 === 0);
    for (const term of [...terms, 'zz-not-a-word', 'a']) {
      const expected = [...new Set((byStem.get(term) ?? []).flatMap((word) => thesaurus.get(word)!.map(stem)))].filter((other) => other !== term).sort(compareStrings);
      expect(related(term)).toEqual(expected);
    }
  });
});

describe('stemmedRelatives of a thesaurus text', () => {
  it('reads a word listed twice by its last line, and skips lines without a word', () => {
    const related = stemmedRelatives('erase\tdelete wipe\n\tstray\nnoword\nerase\tremove\nerasing\tscrub\n');
    expect(related('eras')).toEqual(['remov', 'scrub']);
    expect(related('stray')).toEqual([]);
  });
});
