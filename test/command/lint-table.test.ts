import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import * as cachedLoad from '../../src/store/worktree.js';
import { FILE_CACHE_DIR } from '../../src/store/file-cache.js';
import { lint } from '../../src/lint/lint-repository.js';
import { fileFindings, lintTree } from '../../src/lint/lint.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { validateAgainst } from '../../src/schema/validate.js';
import { toIsoDate } from '../../src/util/dates.js';
import { corpus, mutate, random } from '../helpers/mutations.js';
import { tempLessonsRepo } from '../helpers/repo.js';

vi.mock('../../src/store/worktree.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/store/worktree.js')>();
  return { ...original, loadFacts: vi.fn(original.loadFacts) };
});

const NOW = new Date('2026-06-01T12:00:00Z');
const TABLE = `${FILE_CACHE_DIR}/lint-table`;
const DELTA = `${FILE_CACHE_DIR}/lint-table.delta`;

/** What lint over the whole working tree finds, read without any cache. */
async function wholeTreeLint(root: string, now = NOW): Promise<ReturnType<typeof lintTree>> {
  const cache = path.join(root, FILE_CACHE_DIR);
  const aside = `${cache}-aside`;
  fs.renameSync(cache, aside);
  try {
    const schemaErrors = (data: unknown) => validateAgainst('lesson', data);
    const { tree } = await cachedLoad.loadWorktreeFacts(root, cachedLoad.openLessonCache(root), { fileFindings: (item) => fileFindings(item, schemaErrors) });
    return lintTree({ tree, policy: DEFAULT_POLICY, today: toIsoDate(now), schemaErrors });
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
    fs.renameSync(aside, cache);
  }
}

/** How many lesson files had their facts read since the last call. */
function factsRead(): number {
  const count = vi.mocked(cachedLoad.loadFacts).mock.calls.reduce((sum, [items]) => sum + items.length, 0);
  vi.mocked(cachedLoad.loadFacts).mockClear();
  return count;
}

describe('lessons lint through its table of the working tree', () => {
  it('finds what lint over the whole tree finds, after random changes, reading only what a change touches', async () => {
    const root = tempLessonsRepo(corpus());
    const next = random(29);
    expect(JSON.stringify(await lint({ cwd: root, now: NOW }))).toBe(JSON.stringify(await wholeTreeLint(root)));
    expect(fs.existsSync(path.join(root, TABLE))).toBe(true);
    let warnings = 0;
    for (let round = 1; round <= 14; round++) {
      const changes = round === 9 ? 20 : 1 + Math.floor(next() * 3);
      for (let i = 0; i < changes; i++) mutate(root, next, round);
      const result = await lint({ cwd: root, now: NOW });
      // Byte for byte as `lessons lint --json` prints it.
      expect(JSON.stringify(result)).toBe(JSON.stringify(await wholeTreeLint(root)));
      warnings += result.warnings;
      if (round % 5 === 0) {
        fs.rmSync(path.join(root, TABLE));
        fs.rmSync(path.join(root, DELTA), { force: true });
        expect(JSON.stringify(await lint({ cwd: root, now: NOW }))).toBe(JSON.stringify(result));
      }
    }
    // Warnings are kept in the table as well as errors.
    expect(warnings).toBeGreaterThan(0);
    // One lesson retitled: that file and the lessons its id concerns are read, not the tree (ids used twice are read on every run, to say where).
    for (const name of fs.readdirSync(path.join(root, 'lessons/cases'))) if (/^(broken|a-dup)-/.test(name)) fs.rmSync(path.join(root, 'lessons/cases', name));
    await lint({ cwd: root, now: NOW });
    const one = fs.readdirSync(path.join(root, 'lessons/cases')).find((name) => name.startsWith('case-c'))!;
    const file = path.join(root, 'lessons/cases', one);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: Retitled once more'));
    factsRead();
    const result = await lint({ cwd: root, now: NOW });
    expect(factsRead()).toBeLessThan(10);
    expect(JSON.stringify(result)).toBe(JSON.stringify(await wholeTreeLint(root)));
    factsRead();
    expect(JSON.stringify(await lint({ cwd: root, now: NOW }))).toBe(JSON.stringify(result));
    expect(factsRead()).toBe(0);
  }, 60_000);

  it('keeps its table from one day to the next, and finds each stale date on the day it becomes stale, as lint over the whole tree does', async () => {
    const root = tempLessonsRepo(corpus());
    const today = await lint({ cwd: root, now: NOW });
    expect(today).toEqual(await wholeTreeLint(root));
    factsRead();
    for (const day of ['2026-06-02', '2026-09-15', '2027-12-01']) {
      const later = new Date(`${day}T12:00:00Z`);
      const next = await lint({ cwd: root, now: later });
      expect(factsRead()).toBe(0);
      expect(next).toEqual(await wholeTreeLint(root, later));
    }
    const stale = (result: typeof today) => result.findings.filter((finding) => finding.rule === 'stale').length;
    expect(stale(await lint({ cwd: root, now: new Date('2027-12-01T12:00:00Z') }))).toBeGreaterThan(stale(today));
  });
});
