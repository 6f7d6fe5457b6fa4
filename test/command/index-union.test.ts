import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serializeIndex, type IndexEntry } from '../../src/index/build.js';
import { chained, parseIndexEntries } from '../../src/index/read.js';
import { indexLines } from '../../src/search/delta.js';
import { git } from '../helpers/repo.js';
import { pick, seededRandom } from '../helpers/random.js';

/**
 * lessons/index.json as git's union merge (`merge=union`, what .gitattributes commits) merges it:
 * for any two branches that add, delete or edit different lessons, the merged text is either the
 * index of the merged lessons byte for byte, or one every reader refuses (docs/index-merge.md).
 * Real `git merge-file --union`, many random pairs of changes.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-union-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Lessons by id, each with a version that stands for its content. */
type Lessons = Map<string, number>;

const text = (lessons: Lessons): string =>
  serializeIndex({
    version: 2,
    lessons: [...lessons.keys()].sort().map((id) => ({ id, path: `lessons/cases/${id}.md`, title: `v${lessons.get(id)}` }) as unknown as IndexEntry),
  });

function unionMerge(base: string, ours: string, theirs: string): string {
  for (const [name, content] of [['base', base], ['ours', ours], ['theirs', theirs]]) fs.writeFileSync(path.join(dir, name!), content!);
  // Union resolves every conflict, so merge-file exits 0.
  return git(dir, 'merge-file', '--union', '-p', 'ours', 'base', 'theirs');
}

/** Whether a reader takes the text for the index `lessons index` would write: the parsed entries (guard, hooks, preflight's full read) and the byte-level line reader (preflight's search cache). */
function accepted(merged: string): { parsed: boolean; lines: boolean } {
  const entries = parseIndexEntries(merged);
  return { parsed: entries !== undefined && chained(entries), lines: indexLines(Buffer.from(merged)) !== undefined };
}

/** One branch's change to `lessons`: up to two adds, deletes or edits, of ids no other change touches. */
function change(random: () => number, lessons: Lessons, pool: string[], taken: Set<string>): Lessons {
  const next = new Map(lessons);
  for (let n = 0; n < 1 + Math.floor(random() * 2); n++) {
    const kind = pick(random, ['add', 'delete', 'edit'] as const);
    const candidates = (kind === 'add' ? pool.filter((id) => !lessons.has(id)) : [...lessons.keys()]).filter((id) => !taken.has(id));
    if (candidates.length === 0 || (kind === 'delete' && next.size <= 1)) continue;
    const id = pick(random, candidates);
    taken.add(id);
    if (kind === 'delete') next.delete(id);
    else next.set(id, (lessons.get(id) ?? 0) + 1);
  }
  return next;
}

/** Both sides' changes applied: what `lessons index` gives for the merged tree. */
function bothApplied(base: Lessons, ours: Lessons, theirs: Lessons): Lessons {
  const merged = new Map<string, number>();
  for (const id of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const kept = [ours, theirs].every((side) => side.has(id) || !base.has(id)) && (ours.has(id) || theirs.has(id));
    if (kept) merged.set(id, ours.get(id) !== base.get(id) && ours.has(id) ? ours.get(id)! : (theirs.get(id) ?? base.get(id))!);
  }
  return merged;
}

describe('the index merged by git union', () => {
  it('is exact, or refused by every reader, for random adds, deletes and edits of different lessons in both orders', () => {
    const random = seededRandom(37);
    const pool = Array.from({ length: 14 }, (_, n) => `case-${String.fromCharCode(97 + n)}`);
    const outcomes = { exact: 0, caught: 0 };
    for (let round = 0; round < 150; round++) {
      const base: Lessons = new Map(pool.filter(() => random() < 0.5).map((id) => [id, 0]));
      if (base.size === 0) base.set(pool[0]!, 0);
      const taken = new Set<string>();
      const ours = change(random, base, pool, taken);
      const theirs = change(random, base, pool, taken);
      const want = text(bothApplied(base, ours, theirs));
      for (const [first, second] of [[ours, theirs], [theirs, ours]] as const) {
        const merged = unionMerge(text(base), text(first), text(second));
        const read = accepted(merged);
        if (merged === want) {
          outcomes.exact++;
          expect(read).toEqual({ parsed: true, lines: true });
        } else {
          outcomes.caught++;
          expect(read, `${text(base)}\n${text(first)}\n${text(second)}\n${merged}`).toEqual({ parsed: false, lines: false });
        }
      }
    }
    // Both outcomes happen: the pairs are not all apart, nor all neighbours.
    expect(outcomes.exact).toBeGreaterThan(50);
    expect(outcomes.caught).toBeGreaterThan(50);
  });

  it('a deletion and an addition that sorts right after it: caught (union keeps the deleted line in order)', () => {
    const base: Lessons = new Map([['case-a', 0], ['case-b', 0], ['case-d', 0], ['case-e', 0]]);
    const deleted = new Map([['case-a', 0], ['case-d', 0], ['case-e', 0]]);
    const added = new Map([...base, ['case-c', 0]]);
    for (const [first, second] of [[deleted, added], [added, deleted]]) {
      const merged = unionMerge(text(base), text(first!), text(second!));
      expect(parseIndexEntries(merged)!.map((entry) => entry.id)).toContain('case-b');
      expect(accepted(merged)).toEqual({ parsed: false, lines: false });
    }
  });
});

describe('an index without `after` (version 1) or with a line that names another neighbour', () => {
  it('is refused by the readers, which then scan the lesson files', () => {
    const index = text(new Map([['case-a', 0], ['case-b', 0]]));
    expect(accepted(index)).toEqual({ parsed: true, lines: true });
    const version1 = index.replace('"version": 2', '"version": 1').replace(/"after":(null|"[a-z-]+"),/g, '');
    expect(accepted(version1)).toEqual({ parsed: false, lines: false });
    expect(accepted(index.replace('"after":"case-a"', '"after":"case-0"'))).toEqual({ parsed: false, lines: false });
  });
});
