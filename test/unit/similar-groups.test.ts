import { describe, expect, it } from 'vitest';
import { fingerprint, similarGroups, similarity, type Fingerprint } from '../../src/capture/similarity.js';
import { textModelPrints } from '../../src/capture/text-model.js';
import { pick, seededRandom } from '../helpers/random.js';
import { singleLinkage } from '../helpers/similarity.js';

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
