import { describe, expect, it } from 'vitest';
import { fingerprint, POSTINGS_CAP, similarGroups, similarity, type Fingerprint } from '../../src/search/similarity.js';
import { textModelPrints } from '../../src/search/text-model.js';
import { pick, seededRandom } from '../helpers/random.js';
import { cappedGroups, singleLinkage } from '../helpers/similarity.js';

/**
 * A corpus of `count` lessons from a vocabulary of a few hundred words: most unrelated, some
 * rewordings of an earlier lesson (a word or two swapped, one dropped), some with its title.
 */
function corpus(count: number, seed: number): { id: string; title: string; summary: string; tags: string[]; checklist: string[] }[] {
  const random = seededRandom(seed);
  const vocabulary = Array.from({ length: 300 }, (_, n) => `w${n.toString(36)}${'abcdefgh'[n % 8]}`);
  const sentence = (length: number): string[] => Array.from({ length }, () => pick(random, vocabulary));
  const lessons: { id: string; title: string; summary: string; tags: string[]; checklist: string[] }[] = [];
  for (let n = 0; n < count; n++) {
    const id = `case-${String(n).padStart(4, '0')}`;
    const earlier = n > 0 && random() < 0.4 ? lessons[Math.floor(random() * n)]! : undefined;
    if (earlier === undefined) {
      lessons.push({ id, title: sentence(4 + Math.floor(random() * 4)).join(' '), summary: sentence(6 + Math.floor(random() * 8)).join(' '), tags: sentence(2), checklist: [sentence(5).join(' '), sentence(4).join(' ')] });
      continue;
    }
    const reword = (text: string): string => {
      const words = text.split(' ').filter((_, k) => k !== 0 || random() < 0.7);
      for (let k = 0; k < words.length; k++) if (random() < 0.15) words[k] = pick(random, vocabulary);
      return words.join(' ');
    };
    lessons.push({
      id,
      title: random() < 0.1 ? earlier.title : reword(earlier.title),
      summary: reword(earlier.summary),
      tags: random() < 0.5 ? earlier.tags : sentence(2),
      checklist: earlier.checklist.map(reword),
    });
  }
  return lessons;
}

describe('similarGroups against every pair', () => {
  const lessons = corpus(400, 20_251);
  const models: [string, Fingerprint[]][] = [
    ['fingerprint', lessons.map((lesson) => fingerprint(lesson))],
    ['text model', [...textModelPrints(lessons, new Map()).values()]],
  ];
  for (const [model, prints] of models) {
    for (const threshold of [0.35, 0.55, 0.82]) {
      it(`finds the groups of single linkage over all pairs (${model}, threshold ${threshold})`, () => {
        const groups = similarGroups(prints, threshold);
        expect(groups.map((group) => group.members.join()).sort()).toEqual(singleLinkage(prints, threshold));
        expect(groups.filter((group) => group.members.length > 2).length).toBeGreaterThan(0);
        // The weakest link is a pair of the group at least as alike as the threshold.
        for (const { members, weakest } of groups) {
          expect(weakest).toBeGreaterThanOrEqual(threshold);
          const pairs = members.flatMap((a, k) => members.slice(k + 1).map((b) => similarity(prints[a]!, prints[b]!)));
          expect(pairs).toContain(weakest);
          expect(Math.max(...pairs)).toBeGreaterThanOrEqual(weakest);
        }
      });
    }
  }
});

describe('similarGroups against its procedure, where the lists fill up', () => {
  // Small vocabularies, a few hundred texts: most terms are held by more texts than a list keeps, so which pairs meet
  // depends on the cap, and its shortcuts (a list of one group skipped, a pair passed over by the bound on the norms
  // of what the two can share) must change no group and no weakest link. One corpus rarely reaches every shortcut's
  // edge; sixty do.
  it('gives the groups and weakest links of the plain capped procedure, over many corpora and thresholds', () => {
    let crowded = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const random = seededRandom(seed);
      const vocabulary = Array.from({ length: 8 + Math.floor(random() * 40) }, (_, n) => `w${n}`);
      const sentence = (length: number): string => Array.from({ length }, () => pick(random, vocabulary)).join(' ');
      const lessons = Array.from({ length: 150 + Math.floor(random() * 400) }, (_, n) => ({
        id: `case-${String(n).padStart(4, '0')}`,
        title: random() < 0.05 ? 'same title' : sentence(2 + Math.floor(random() * 4)),
        summary: sentence(Math.floor(random() * 8)),
        tags: [],
        checklist: random() < 0.5 ? [] : [sentence(3)],
      }));
      for (const prints of [lessons.map((lesson) => fingerprint(lesson)), [...textModelPrints(lessons, new Map()).values()]]) {
        const held = new Map<number, number>();
        for (const print of prints) for (const term of print.terms) held.set(term, (held.get(term) ?? 0) + 1);
        if (Math.max(...held.values()) > POSTINGS_CAP) crowded++;
        for (const threshold of [0.3, 0.5, 0.65, 0.8, 0.9]) expect(similarGroups(prints, threshold)).toEqual(cappedGroups(prints, threshold));
      }
    }
    // Most of the 120 runs have a term held by more texts than a list keeps.
    expect(crowded).toBeGreaterThan(90);
  }, 60_000);
});
