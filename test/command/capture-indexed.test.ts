import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { storeDrafts, type Draft } from '../../src/capture/store.js';
import { checkIndex, writeIndex } from '../../src/store/index-write.js';
import { updateSearch } from '../../src/search/cache.js';
import { lessonFile } from '../helpers/lessons.js';
import { tempLessonsRepo } from '../helpers/repo.js';

// Counts the loads of the whole tree: capture through the index must make none.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/store/worktree.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/store/worktree.js')>();
  return {
    ...original,
    loadWorktreeFacts: (...args: Parameters<typeof original.loadWorktreeFacts>) => {
      loads.count++;
      return original.loadWorktreeFacts(...args);
    },
  };
});
const treeLoads = (): number => loads.count;

const now = new Date('2026-11-21T12:00:00Z');

/** A deterministic corpus: titles and checklists drawn from a small vocabulary, so many lessons share words. */
function corpus(count: number): Record<string, string> {
  const words = 'deploy cache queue worker upload retry timeout manifest version cron billing invoice token secret schema migration index lock'.split(' ');
  let seed = 7;
  const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const pick = (k: number): string => Array.from({ length: k }, () => words[next(words.length)]).join(' ');
    const id = `case-${String(i).padStart(3, '0')}`;
    const body = `## Situation\n\n${pick(6)}.\n\n## Prevention Checklist\n\n- [ ] ${pick(5)}\n- [ ] ${pick(4)}\n`;
    Object.assign(files, lessonFile({ id, title: `The ${pick(4)} broke`, status: i % 9 === 0 ? 'retired' : 'validated', ...(i % 9 === 0 ? { retired_reason: 'old' } : {}) }, body));
  }
  return files;
}

const drafts = (root: string): Draft[] => {
  const text = (id: string): string => fs.readFileSync(path.join(root, `lessons/cases/${id}.md`), 'utf8');
  const title = (id: string): string => /^title: "?(.*?)"?$/m.exec(text(id))![1]!;
  const checklist = (id: string): string => text(id).slice(text(id).indexOf('## Prevention Checklist'));
  return [
    // The same title: bumped whatever the body.
    { title: title('case-004'), tags: [], body: '' },
    // Another title, the same checklist and situation: alike through the words the title does not have.
    { title: 'Something else entirely happened', tags: [], body: `## Situation\n\n${/## Situation\n\n(.*)\n/.exec(text('case-010'))![1]}\n\n${checklist('case-010')}` },
    // A retired lesson's title: never matched, a new candidate.
    { title: title('case-009'), tags: [], body: '' },
    // Nothing alike.
    { title: 'Kubernetes pod evicted under memory pressure', tags: [], body: '' },
    // Twice in one capture: the second bumps what the first created.
    { title: 'Kubernetes pod evicted under memory pressure', tags: [], body: '' },
  ];
};

/** Every file under lessons/, by path. */
function lessonsTree(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const folder of ['cases', 'patterns', 'principles']) {
    for (const name of fs.readdirSync(path.join(root, 'lessons', folder)).sort()) files[`${folder}/${name}`] = fs.readFileSync(path.join(root, 'lessons', folder, name), 'utf8');
  }
  files['index.json'] = fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8');
  return files;
}

describe('capture through the index and the search cache', () => {
  beforeEach(() => loads.count = 0);

  for (const search of ['fresh', 'stale', 'missing'] as const) {
    it(`decides and writes what capture over the whole tree does, without loading it (search cache ${search})`, async () => {
      const files = corpus(60);
      const reference = tempLessonsRepo(files);
      const expected = await storeDrafts({ cwd: reference, drafts: drafts(reference), now });

      const root = tempLessonsRepo(files);
      await writeIndex({ cwd: root });
      if (search !== 'missing') (await updateSearch(root)).close();
      // A change the search cache has not seen: it describes the index as it was.
      if (search === 'stale') await storeDrafts({ cwd: root, drafts: [{ title: 'An unrelated deploy lesson first', tags: [], body: '' }], now });
      loads.count = 0;
      const outcomes = await storeDrafts({ cwd: root, drafts: drafts(root), now });
      expect(treeLoads()).toBe(0);
      expect(outcomes).toEqual(expected);
      expect(outcomes.map((outcome) => outcome.action)).toEqual(['bumped', 'bumped', 'created', 'created', 'bumped']);
      if (search !== 'stale') expect(lessonsTree(root)).toEqual(lessonsTree(reference));
      expect((await checkIndex({ cwd: root })).fresh).toBe(true);
      // The next capture finds the index it wrote vouched for.
      await storeDrafts({ cwd: root, drafts: [drafts(root)[0]!], now });
      expect(treeLoads()).toBe(0);
    });
  }

  it('reads the whole tree when a lesson changed since the index was written, and deduplicates against the change', async () => {
    const root = tempLessonsRepo(corpus(20));
    await writeIndex({ cwd: root });
    (await updateSearch(root)).close();
    const file = path.join(root, 'lessons/cases/case-003.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: Pager woke the whole team at night'));
    loads.count = 0;
    const [outcome] = await storeDrafts({ cwd: root, drafts: [{ title: 'Pager woke the whole team at night', tags: [], body: '' }], now });
    expect(outcome).toMatchObject({ action: 'bumped', id: 'case-003' });
    expect(treeLoads()).toBe(1);
    // The whole-tree change remembers the index it wrote: the next capture goes through it, and writes what a rebuild gives.
    loads.count = 0;
    const [again] = await storeDrafts({ cwd: root, drafts: [{ title: 'Pager woke the whole team at night', tags: [], body: '' }], now });
    expect(again).toMatchObject({ action: 'bumped', id: 'case-003', occurrences: 3 });
    expect(treeLoads()).toBe(0);
    expect((await checkIndex({ cwd: root })).fresh).toBe(true);
  });

  it('counts the candidates waiting for review from the index, as the whole tree counts them', async () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-auto-1', title: 'Waiting one zebra', status: 'candidate', source: 'auto' }),
      ...lessonFile({ id: 'case-auto-2', title: 'Waiting two zebra', status: 'candidate', source: 'auto' }),
      // Not waiting auto candidates, though their lines hold the words.
      ...lessonFile({ id: 'case-curated', title: 'A curated candidate "status":"candidate","source":"auto"', status: 'candidate', source: 'curated' }),
      ...lessonFile({ id: 'case-auto-old', title: 'An accepted one', status: 'validated', source: 'auto' }),
      ...lessonFile({ id: 'case-a', title: 'Version bump missed the manifest' }),
    });
    const file = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as { lessons: { max_auto_candidates: number } };
    policy.lessons.max_auto_candidates = 3;
    fs.writeFileSync(file, JSON.stringify(policy));
    await writeIndex({ cwd: root });
    loads.count = 0;
    const [created] = await storeDrafts({ cwd: root, drafts: [{ title: 'Something entirely new happened', tags: [], body: '' }], now });
    expect(created).toMatchObject({ action: 'created' });
    await expect(storeDrafts({ cwd: root, drafts: [{ title: 'Another new thing altogether', tags: [], body: '' }], now })).rejects.toMatchObject({
      code: 'REFUSED',
      message: expect.stringContaining('capture would add 1 auto-captured candidate to the 3 waiting for review, past the policy cap of 3'),
    });
    expect(treeLoads()).toBe(0);
  });

  it('keeps the index a rebuild gives when the bumped lesson is a promotion source', async () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a', title: 'Version bump missed the manifest' }),
      ...lessonFile({ id: 'case-b', title: 'Release forgot the plugin manifest' }),
      ...lessonFile({ id: 'pattern-manifests', level: 'pattern', title: 'Every manifest moves together', source_case_ids: ['case-a', 'case-b'] }),
    });
    await writeIndex({ cwd: root });
    loads.count = 0;
    const [outcome] = await storeDrafts({ cwd: root, drafts: [{ title: 'Version bump missed the manifest', tags: [], body: '' }], now });
    expect(outcome).toMatchObject({ action: 'bumped', id: 'case-a', occurrences: 2 });
    expect(treeLoads()).toBe(0);
    expect((await checkIndex({ cwd: root })).fresh).toBe(true);
    expect(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')).toContain('"promoted_into":["pattern-manifests"]');
  });
});
