import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runGuard, type GuardReport } from '../../src/guard/guard.js';
import { writeIndex } from '../../src/store/index-write.js';
import { committedLessonsRepo, stageIndex } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, writeFiles } from '../helpers/repo.js';

// Counts the reads of every staged lesson (the staged check's loadAll): knowing the staged index
// fresh through an update of the remembered index must make none.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/guard/staged.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/guard/staged.js')>();
  return {
    ...original,
    checkStaged: async (...args: Parameters<typeof original.checkStaged>) => {
      const checked = await original.checkStaged(...args);
      return {
        ...checked,
        loadAll: async () => {
          loads.count++;
          return checked.loadAll();
        },
      };
    },
  };
});

const NOW = new Date('2026-11-21T12:00:00Z');

async function indexFindings(root: string): Promise<GuardReport['findings']> {
  const report = await runGuard({ cwd: root, stage: 'pre-commit', now: NOW, env: {} });
  return report.findings.filter((finding) => finding.gate === 'index-fresh');
}

/** A repository with three cases and a pattern, committed; two more cases staged with their index. */
async function stagedRepo(): Promise<string> {
  const root = await committedLessonsRepo({
    ...lessonFile({ id: 'case-2026-01-01-one', title: 'One broke' }),
    ...lessonFile({ id: 'case-2026-01-02-two', title: 'Two broke' }),
  });
  writeFiles(root, { ...lessonFile({ id: 'case-2026-01-03-three', title: 'Three broke' }), ...lessonFile({ id: 'case-2026-01-04-four', title: 'Four broke' }) });
  await stageIndex(root);
  return root;
}

describe('the index-fresh gate when the working tree moved on after staging', () => {
  it('knows the staged index fresh from an update of the last index written, reading no other staged lesson', async () => {
    const root = await stagedRepo();
    // Work goes on: a lesson edited and a new one, indexed again, none of it staged.
    const one = path.join(root, 'lessons/cases/case-2026-01-01-one.md');
    fs.writeFileSync(one, fs.readFileSync(one, 'utf8').replace('title: One broke', 'title: One broke again'));
    writeFiles(root, lessonFile({ id: 'case-2026-01-05-five', title: 'Five broke' }));
    expect((await writeIndex({ cwd: root })).written).toBe(true);
    loads.count = 0;
    expect(await indexFindings(root)).toEqual([]);
    expect(loads.count).toBe(0);
  });

  it('blocks a staged index that misses a staged change, saying which, from the update too (no whole read)', async () => {
    const root = await stagedRepo();
    const two = path.join(root, 'lessons/cases/case-2026-01-02-two.md');
    fs.writeFileSync(two, fs.readFileSync(two, 'utf8').replace('title: Two broke', 'title: Two broke twice'));
    git(root, 'add', two);
    // The index on disk moves on with the change; the staged one does not.
    await writeIndex({ cwd: root });
    loads.count = 0;
    const findings = await indexFindings(root);
    expect(findings).toEqual([expect.objectContaining({ rule: 'index-stale', message: 'lessons/index.json is stale (changed: case-2026-01-02-two): run `lessons index` and `git add lessons/index.json`' })]);
    expect(loads.count).toBe(0);
  });

  it('agrees with a whole read after random stagings of edits, additions and deletions', async () => {
    const root = await stagedRepo();
    const ids = ['case-2026-01-01-one', 'case-2026-01-02-two', 'case-2026-01-03-three', 'case-2026-01-04-four'];
    let extra = 6;
    for (let round = 0; round < 8; round++) {
      const id = ids[round % ids.length]!;
      const file = path.join(root, `lessons/cases/${id}.md`);
      if (round % 3 === 0 && fs.existsSync(file)) fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^title: (.*)$/m, `title: $1 r${round}`));
      else if (round % 3 === 1) writeFiles(root, lessonFile({ id: `case-2026-01-${String(extra).padStart(2, '0')}-more`, title: `More ${extra++}` }));
      else if (fs.existsSync(file) && ids.filter((each) => fs.existsSync(path.join(root, `lessons/cases/${each}.md`))).length > 2) fs.rmSync(file);
      await writeIndex({ cwd: root });
      // Half the rounds stage everything (fresh), half stage the lessons without the index (stale).
      git(root, 'add', '-A', 'lessons/cases');
      if (round % 2 === 0) git(root, 'add', 'lessons/index.json');
      // The working tree moves on again after staging, and is indexed.
      writeFiles(root, lessonFile({ id: `case-2026-02-${String(round + 1).padStart(2, '0')}-later`, title: `Later ${round}` }));
      await writeIndex({ cwd: root });
      const fast = await indexFindings(root);
      // The whole read: with no remembered index, the gate reads every staged lesson.
      const cache = path.join(root, '.lessons/cache');
      fs.renameSync(cache, `${cache}-aside`);
      const whole = await indexFindings(root);
      fs.rmSync(cache, { recursive: true, force: true });
      fs.renameSync(`${cache}-aside`, cache);
      expect(fast, `round ${round}`).toEqual(whole);
      expect(fast.length, `round ${round}`).toBe(round % 2 === 0 ? 0 : 1);
      fs.rmSync(path.join(root, `lessons/cases/case-2026-02-${String(round + 1).padStart(2, '0')}-later.md`));
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '--no-verify', '--allow-empty', '-m', `round ${round}`);
    }
  });
});
