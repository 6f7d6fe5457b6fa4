import { describe, expect, it } from 'vitest';
import { buildIndex, serializeIndex } from '../../src/index/build.js';
import { diffIndexes } from '../../src/index/diff.js';
import { parseIndexEntries } from '../../src/index/read.js';
import fs from 'node:fs';
import path from 'node:path';
import { bytesInMemory, indexLineDiff, updateIndex } from '../../src/index/update.js';
import { bytesOfFile } from '../../src/store/index-memo.js';
import { blobIdOf, chunksLength, gitBlobId, joinChunks } from '../../src/util/digest.js';
import { tempDir } from '../helpers/repo.js';
import { addLessonFile, type LoadedLesson, type LoadedTree } from '../../src/lesson/load.js';
import { scanIndexText, scanOfUpdate } from '../../src/secrets/index-scan.js';
import { compileSecretRules, type CompiledRule } from '../../src/secrets/rules.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { fakeToken } from '../helpers/guard.js';
import { lessonText } from '../helpers/lessons.js';
import { pick, seededRandom } from '../helpers/random.js';

/** A lesson of the tree: its fields, kept apart from its path so a rename keeps the id or changes it. */
interface Lesson {
  path: string;
  fields: Record<string, unknown>;
}

function loaded({ path, fields }: Lesson): LoadedLesson {
  const tree: LoadedTree = { lessons: [], problems: [] };
  addLessonFile(tree, path, Buffer.from(lessonText(fields)), fields.level as 'case' | 'pattern');
  return tree.lessons[0]!;
}

const build = (tree: Map<string, Lesson>): string => serializeIndex(buildIndex([...tree.values()].map(loaded)));

/** The default rules, and one whose match runs to the end of a line: a line that gains or loses its comma matches otherwise. */
const rules = compileSecretRules({
  ...DEFAULT_POLICY.secrets,
  rules: [...DEFAULT_POLICY.secrets.rules, { name: 'to-line-end', pattern: 'leaked [^\\n]*' }],
}) as CompiledRule[];

describe('updating the index for a change', () => {
  it('gives the bytes of a whole build after random edits, adds, deletes, renames and promotions', () => {
    const random = seededRandom(31);
    const scratch = tempDir();
    const tree = new Map<string, Lesson>();
    const add = (n: number, level: 'case' | 'pattern'): void => {
      const id = `${level}-${String(n).padStart(3, '0')}-${pick(random, ['a', 'b'])}`;
      const path = `lessons/${level}s/${id}${n % 7 === 0 ? ' "quoted\\ü"' : ''}.md`;
      tree.set(path, { path, fields: { id, level, title: `Lesson ${n}` } });
    };
    for (let n = 0; n < 30; n++) add(n, n % 4 === 0 ? 'pattern' : 'case');
    let updates = 0;
    let carried = 0;
    // Titles with credentials, raw and written with a JSON escape the index keeps.
    const titles = (step: number): string[] => [`Edited in step ${step}`, `Step ${step} leaked ${fakeToken('github')}`, `Step ${step}: ${fakeToken('aws')}`];
    for (let step = 0; step < 60; step++) {
      const before = new Map(tree);
      for (let change = 0; change < 1 + Math.floor(random() * 3); change++) {
        const path = pick(random, [...tree.keys()]);
        const lesson = tree.get(path)!;
        const ids = [...tree.values()].map((other) => other.fields.id as string);
        const roll = random();
        if (roll < 0.3) tree.set(path, { path, fields: { ...lesson.fields, title: pick(random, titles(step)), status: pick(random, ['candidate', 'validated']) } });
        else if (roll < 0.5) tree.set(path, { path, fields: { ...lesson.fields, source_case_ids: [pick(random, ids), pick(random, ids), `case-missing-${step}`].slice(0, 1 + Math.floor(random() * 3)) } });
        else if (roll < 0.6) tree.set(path, { path, fields: { ...lesson.fields, promoted_to: [pick(random, ids)] } });
        else if (roll < 0.75) add(100 + step * 10 + change, random() < 0.5 ? 'case' : 'pattern');
        else if (roll < 0.85 && tree.size > 3) tree.delete(path);
        else {
          tree.delete(path);
          const target = `${path.slice(0, -3)}-moved.md`;
          tree.set(target, { path: target, fields: lesson.fields });
        }
      }
      // Which entries differ, line by line, as diffIndexes says it of the parsed entries.
      expect(indexLineDiff(Buffer.from(build(before)), Buffer.from(build(tree)))).toEqual(diffIndexes(parseIndexEntries(build(before))!, parseIndexEntries(build(tree))!));
      const same = (path: string): boolean => before.get(path) === tree.get(path);
      const removed = new Set([...before.keys()].filter((path) => !same(path)));
      const added = [...tree.keys()].filter((path) => !same(path)).map((path) => loaded(tree.get(path)!));
      // The index before, in memory or read from its file through a window of a few bytes (lines span windows).
      const file = path.join(scratch, `index-${step}.json`);
      fs.writeFileSync(file, build(before));
      const fd = fs.openSync(file, 'r');
      const previous = step % 2 === 0 ? bytesInMemory(Buffer.from(build(before))) : bytesOfFile(fd, fs.fstatSync(fd).size, 5 + Math.floor(random() * 300));
      const update = updateIndex(previous, { removed, added }, (path) => (same(path) ? loaded(tree.get(path)!) : undefined));
      if (update === undefined) {
        fs.closeSync(fd);
        continue;
      }
      updates++;
      const whole = joinChunks(update.chunks);
      expect(whole.toString('utf8')).toBe(build(tree));
      expect(chunksLength(update.chunks)).toBe(whole.length);
      expect(update.count).toBe(tree.size);
      // The pieces are hashed as the file they make.
      expect(blobIdOf(update.chunks)).toBe(gitBlobId(whole));
      // The secrets scan of the index before, carried over the update: what scanning the new index gives.
      const scanned = scanIndexText(build(before), rules);
      const over = scanOfUpdate({ bytes: previous, scan: scanned.scan! }, update.lines, rules);
      expect(over).toEqual(scanIndexText(build(tree), rules));
      carried += over!.scan.lines.length;
      fs.closeSync(fd);
    }
    expect(updates).toBeGreaterThan(50);
    expect(carried).toBeGreaterThan(50);
  });

  it('carries the secrets scan over an update that moves the last line: the line that gains or loses its comma is scanned again', () => {
    const lesson = (id: string, title: string): LoadedLesson => loaded({ path: `lessons/cases/${id}.md`, fields: { id, level: 'case', title } });
    const a = lesson('case-a', `A leaked ${fakeToken('github')}`);
    const b = lesson('case-b', 'B leaked nothing');
    const c = lesson('case-c', 'C');
    const carriedOver = (before: LoadedLesson[], removed: string[], added: LoadedLesson[]) => {
      const text = serializeIndex(buildIndex(before));
      const update = updateIndex(bytesInMemory(Buffer.from(text)), { removed: new Set(removed), added }, (path) => before.find((item) => item.path === path));
      return scanOfUpdate({ bytes: bytesInMemory(Buffer.from(text)), scan: scanIndexText(text, rules).scan! }, update!.lines, rules);
    };
    // b gains its comma when c follows it; loses it when c goes.
    expect(carriedOver([a, b], [], [c])).toEqual(scanIndexText(serializeIndex(buildIndex([a, b, c])), rules));
    expect(carriedOver([a, b, c], [c.path], [])).toEqual(scanIndexText(serializeIndex(buildIndex([a, b])), rules));
    expect(scanIndexText(serializeIndex(buildIndex([a, b])), rules).matches.filter((match) => match.rule === 'to-line-end')).toHaveLength(2);
  });

  it('tells a changed entry from a line that only differs in its formatting, and declines bytes in another layout', () => {
    const lesson = (id: string, title: string): LoadedLesson => loaded({ path: `lessons/cases/${id}.md`, fields: { id, level: 'case', title } });
    const before = serializeIndex(buildIndex([lesson('case-a', 'A'), lesson('case-b', 'B')]));
    const spaced = before.replace('"title":"A"', '"title": "A"');
    expect(spaced).not.toBe(before);
    expect(indexLineDiff(Buffer.from(before), Buffer.from(spaced))).toEqual({ added: [], removed: [], changed: [] });
    const retitled = serializeIndex(buildIndex([lesson('case-a', 'A2'), lesson('case-c', 'C')]));
    expect(indexLineDiff(Buffer.from(before), Buffer.from(retitled))).toEqual({ added: ['case-c'], removed: ['case-b'], changed: ['case-a'] });
    expect(indexLineDiff(Buffer.from(JSON.stringify(JSON.parse(before))), Buffer.from(before))).toBeUndefined();
  });

  it('declines a change that makes two lessons share an id, and an index it did not write', () => {
    const lesson = (path: string, id: string): LoadedLesson => loaded({ path, fields: { id, level: 'case', title: 'T' } });
    const before = Buffer.from(serializeIndex(buildIndex([lesson('lessons/cases/case-a.md', 'case-a')])));
    expect(updateIndex(bytesInMemory(before), { removed: new Set(), added: [lesson('lessons/cases/other.md', 'case-a')] }, () => undefined)).toBeUndefined();
    expect(updateIndex(bytesInMemory(Buffer.from(`${before.toString()} `)), { removed: new Set(), added: [] }, () => undefined)).toBeUndefined();
    expect(updateIndex(bytesInMemory(before), { removed: new Set(['lessons/cases/case-a.md']), added: [] }, () => undefined)).toBeUndefined();
  });
});
