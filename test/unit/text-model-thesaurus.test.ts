import { describe, expect, it } from 'vitest';
import { similarity } from '../../src/search/similarity.js';
import { lessonsLike, memo, stemmedRelatives, textModelPrints, type FieldedText } from '../../src/search/text-model.js';
import { parseAcronyms } from '../../src/search/acronyms.js';
import { parseThesaurus, readThesaurus, readThesaurusText } from '../../src/search/update.js';
import { stem } from '../../src/search/text.js';
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
  it('gives a word listed on two lines the relatives of both, as readThesaurus() does, and skips lines without a word', () => {
    const text = 'erase\tdelete wipe\n\tstray\nnoword\nerase\tremove wipe\nerasing\tscrub\n';
    const related = stemmedRelatives(text);
    expect(related('eras')).toEqual(['delet', 'remov', 'scrub', stem('wipe')]);
    expect(related('stray')).toEqual([]);
    expect(parseThesaurus(text).get('erase')).toEqual(['delete', 'wipe', 'remove']);
  });
});

describe('the shipped thesauri', () => {
  it('read as one: WordNet for English, Stack Overflow tag synonyms for software, a word listed in both with the relatives of each', async () => {
    const text = await readThesaurusText();
    const thesaurus = await readThesaurus();
    // General English from WordNet, software usage from Stack Overflow's tag synonyms.
    expect(thesaurus.get('accent')).toEqual(['emphasis', 'diacritics']);
    expect(thesaurus.get('db')).toContain('database');
    expect(thesaurus.get('database')).toContain('db');
    expect(text.split('\n').filter((line) => line.startsWith('accent\t'))).toHaveLength(2);
    expect(stemmedRelatives(text)(stem('db'))).toContain(stem('database'));
  });
});

describe('the text model with acronyms', () => {
  it('reads a title that writes the acronym and one that writes the phrase alike, as preflight does (lessons new, report)', () => {
    const lessons = [
      { id: 'case-ci-cache', title: 'Continuous integration cache went stale', status: 'validated' as const },
      { id: 'case-integration-server', title: 'Stale cache on the integration server', status: 'validated' as const },
    ];
    const near = lessonsLike('CI cache went stale', lessons, 0, () => []);
    expect(near.map((n) => n.id)).toEqual(['case-ci-cache', 'case-integration-server']);
    const titled = (id: string, title: string): FieldedText => ({ id, title, summary: '', tags: [], checklist: [] });
    const without = textModelPrints([titled('new', 'CI cache went stale'), titled('old', lessons[0]!.title)], memo(() => []), parseAcronyms(''));
    // The shipped table (ci: continuous integration) is what brings the two titles closer.
    expect(near[0]!.similarity).toBeGreaterThan(similarity(without.get('new')!, without.get('old')!) + 0.1);
  });
});
