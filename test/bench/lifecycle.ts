import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { storeDrafts } from '../../src/capture/store.js';
import { promoteLessons } from '../../src/lifecycle/promote.js';
import { reportLessons } from '../../src/report/command.js';

const WORDS = 'release manifest version cron timezone retry queue charge invoice rounding cache header token secret log email migration index lock deploy rollback flag probe certificate dns bundle upload mime session password'.split(' ');

function word(seed: number): string {
  return WORDS[seed % WORDS.length]!;
}

/** A lessons tree of `count` validated cases with varied words, in a temp dir. */
function syntheticRepo(count: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-bench-'));
  for (const folder of ['cases', 'patterns', 'principles']) fs.mkdirSync(path.join(root, 'lessons', folder), { recursive: true });
  for (let i = 0; i < count; i++) {
    const id = `case-${String(i).padStart(5, '0')}`;
    const title = `${word(i)} ${word(i * 7 + 3)} broke the ${word(i * 13 + 5)} ${i}`;
    fs.writeFileSync(
      path.join(root, 'lessons/cases', `${id}.md`),
      `---\nid: ${id}\ntitle: ${title}\nlevel: case\nstatus: validated\nlast_validated_at: 2026-11-01\n---\n\n## Situation\n\nThe ${word(i * 3)} step failed after the ${word(i * 5 + 1)} change.\n\n## Prevention Checklist\n\n- [ ] Check the ${word(i * 11)} before the ${word(i * 17 + 2)}.\n`,
    );
  }
  return root;
}

async function time<T>(fn: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export async function bench(): Promise<void> {
  const now = new Date('2026-11-21T12:00:00Z');
  for (const count of [100, 1000]) {
    const root = syntheticRepo(count);
    try {
      const bump = await time(() => storeDrafts({ cwd: root, drafts: [{ title: 'release manifest broke the cron 0', tags: [], body: '' }], now }));
      const create = await time(() => storeDrafts({ cwd: root, drafts: [{ title: 'Something nobody saw before', tags: [], body: '' }], now }));
      const promote = await time(() => promoteLessons({ cwd: root, sources: ['case-00001', 'case-00002'], to: 'pattern', title: 'Bench pattern', now }));
      const report = await time(() => reportLessons({ cwd: root, now }));
      console.log(
        `lifecycle, ${count} lessons: capture bump ${bump.toFixed(0)} ms, capture create ${create.toFixed(0)} ms, promote ${promote.toFixed(0)} ms, report ${report.toFixed(0)} ms`,
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await bench();
