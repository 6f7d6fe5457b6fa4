import { describe, expect, it } from 'vitest';
import { TreeRecords } from '../../src/store/tree-records.js';
import { treeDigest } from '../../src/store/worktree.js';
import { compareStrings } from '../../src/util/compare.js';
import { pick, seededRandom } from '../helpers/random.js';

const blobOf = (random: () => number): string => Array.from({ length: 40 }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');

/** The pairs file's records of `pairs` (sorted), after a head record. */
function recordsOf(pairs: Map<string, string>): Buffer {
  const sorted = [...pairs].sort((a, b) => compareStrings(a[0], b[0]));
  return Buffer.from(`memo\0${sorted.map(([path, blob]) => `${path}\0${blob}\0`).join('')}`);
}

const digestOf = (pairs: Map<string, string>): string =>
  treeDigest(
    [...pairs]
      .sort((a, b) => compareStrings(a[0], b[0]))
      .map(([path, blob]) => ({ path, blob })),
  );

describe('the pairs file read as records', () => {
  it('looks paths up, and digests the tree with edits, additions and removals as treeDigest digests the changed pairs', () => {
    const random = seededRandom(19);
    const names = ['a', 'b', 'z', 'ü', 'é-x', '日本', '𝔘', 'a b', 'a-b', 'a.b', 'ab'];
    const pairs = new Map<string, string>();
    for (let n = 0; n < 60; n++) pairs.set(`lessons/${pick(random, ['cases', 'patterns'])}/${pick(random, names)}-${n}.md`, blobOf(random));
    for (let round = 0; round < 40; round++) {
      const bytes = recordsOf(pairs);
      const records = TreeRecords.of(bytes, bytes.indexOf(0) + 1)!;
      expect(records.size).toBe(pairs.size);
      expect(records.digestWith(new Map())).toEqual({ digest: digestOf(pairs), count: pairs.size });
      expect([...records.pairs()].sort()).toEqual([...pairs].sort());
      for (const [path, blob] of pairs) expect(records.blobOf(path)).toBe(blob);
      expect(records.blobOf('lessons/cases/none.md')).toBeUndefined();
      // Changes: a new blob, a new path, a path gone, a path that was never there gone.
      const changes = new Map<string, string>();
      const after = new Map(pairs);
      for (let k = 0; k < 1 + Math.floor(random() * 4); k++) {
        const roll = random();
        const path = roll < 0.5 ? pick(random, [...pairs.keys()]) : `lessons/cases/${pick(random, names)}-new-${round}-${k}.md`;
        const blob = roll < 0.35 ? '' : blobOf(random);
        changes.set(path, blob);
        if (blob === '') after.delete(path);
        else after.set(path, blob);
      }
      expect(records.digestWith(changes)).toEqual({ digest: digestOf(after), count: after.size });
      pairs.clear();
      for (const [path, blob] of after) pairs.set(path, blob);
    }
  });

  it('refuses bytes that are not whole records', () => {
    expect(TreeRecords.of(Buffer.from('memo\0a\0blob'), 5)).toBeUndefined();
    expect(TreeRecords.of(Buffer.from('memo\0\0blob\0'), 5)).toBeUndefined();
    expect(TreeRecords.of(Buffer.from('memo\0a\0\0'), 5)).toBeUndefined();
    expect(TreeRecords.of(Buffer.from('memo\0'), 5)?.size).toBe(0);
  });
});
