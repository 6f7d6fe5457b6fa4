import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { writeIndex } from '../../src/store/index-write.js';
import { INDEX_TREE_FILE } from '../../src/store/index-memo.js';
import { updateIndex } from '../../src/index/update.js';
import { FILE_CACHE_DIR } from '../../src/store/file-cache.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { tempLessonsRepo, writeFiles } from '../helpers/repo.js';

vi.mock('../../src/index/update.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/index/update.js')>();
  return { ...original, updateIndex: vi.fn(original.updateIndex) };
});

const FILES = {
  ...lessonFile({ id: 'case-a', title: 'A' }),
  ...lessonFile({ id: 'case-b', title: 'B' }),
  'lessons/patterns/pattern-p.md': lessonText({ id: 'pattern-p', title: 'P', level: 'pattern', source_case_ids: ['case-a', 'case-b'] }),
};

const INDEX = 'lessons/index.json';
const read = (root: string, file: string): string => fs.readFileSync(path.join(root, file), 'utf8');

/** The index a run without any cache writes for the tree as it is (the cache is put back after). */
async function wholeBuild(root: string): Promise<string> {
  const cache = path.join(root, FILE_CACHE_DIR);
  const aside = `${cache}-aside`;
  const before = read(root, INDEX);
  fs.renameSync(cache, aside);
  try {
    await writeIndex({ cwd: root });
    return read(root, INDEX);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
    fs.renameSync(aside, cache);
    writeFiles(root, { [INDEX]: before });
  }
}

/** Whether the last writeIndex updated the remembered index (rather than building the whole one). */
function updated(): boolean {
  const calls = vi.mocked(updateIndex).mock.results;
  const last = calls.at(-1);
  vi.mocked(updateIndex).mockClear();
  return last !== undefined && last.type === 'return' && last.value !== undefined;
}

describe('lessons index after a change', () => {
  it('updates the index it wrote for the changed lessons only, to the bytes of a whole build', async () => {
    const root = tempLessonsRepo(FILES);
    await writeIndex({ cwd: root });
    writeFiles(root, lessonFile({ id: 'case-a', title: 'A, retitled' }));
    const expected = await wholeBuild(root);
    vi.mocked(updateIndex).mockClear();
    expect(await writeIndex({ cwd: root })).toEqual({ path: INDEX, lessons: 3, written: true });
    expect(updated()).toBe(true);
    expect(read(root, INDEX)).toBe(expected);
    // A pattern that drops a source and a new case it names: promoted_into moves with them.
    writeFiles(root, { ...lessonFile({ id: 'case-c', title: 'C' }), 'lessons/patterns/pattern-p.md': lessonText({ id: 'pattern-p', title: 'P', level: 'pattern', source_case_ids: ['case-a', 'case-c'] }) });
    const next = await wholeBuild(root);
    await writeIndex({ cwd: root });
    expect(updated()).toBe(true);
    expect(read(root, INDEX)).toBe(next);
    expect(JSON.parse(next).lessons.map((entry: { id: string; promoted_into: string[] }) => [entry.id, entry.promoted_into])).toEqual([
      ['case-a', ['pattern-p']],
      ['case-b', []],
      ['case-c', ['pattern-p']],
      ['pattern-p', []],
    ]);
  });

  it('builds the whole index when what it remembers cannot be trusted: a corrupt or foreign tree file, an index edited by hand', async () => {
    const root = tempLessonsRepo(FILES);
    await writeIndex({ cwd: root });
    const tree = path.join(root, INDEX_TREE_FILE);
    for (const damage of [() => fs.writeFileSync(tree, 'not a tree'), () => fs.writeFileSync(tree, `another memo${read(root, INDEX_TREE_FILE).slice(read(root, INDEX_TREE_FILE).indexOf('\0'))}`), () => fs.appendFileSync(path.join(root, INDEX), ' ')]) {
      writeFiles(root, lessonFile({ id: 'case-b', title: `B ${Math.random()}` }));
      damage();
      vi.mocked(updateIndex).mockClear();
      await writeIndex({ cwd: root });
      expect(updated()).toBe(false);
      expect(read(root, INDEX)).toBe(await wholeBuild(root));
    }
  });

  it('stops on a changed lesson that cannot be indexed, as a whole build does', async () => {
    const root = tempLessonsRepo(FILES);
    await writeIndex({ cwd: root });
    const before = read(root, INDEX);
    writeFiles(root, lessonFile({ id: 'case-b', title: 'B', level: 'case', status: 'unknown-status' }));
    await expect(writeIndex({ cwd: root })).rejects.toThrow(/status must be one of/);
    writeFiles(root, lessonFile({ id: 'case-a', title: 'A' }));
    writeFiles(root, { 'lessons/cases/case-b.md': lessonText({ id: 'case-a', title: 'Same id' }) });
    await expect(writeIndex({ cwd: root })).rejects.toThrow(/id `case-a` is used by 2 files/);
    expect(read(root, INDEX)).toBe(before);
  });
});
