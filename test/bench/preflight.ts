import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, peakRssMiB, runOnce, timeInterleaved } from './shared.js';
import { generateRepo } from './synthetic.js';

/**
 * Whole-process preflight times on synthetic repositories of 1,000 and 10,000 lessons,
 * beside `node -e 0` measured in the same run (interleaved, so machine load hits both),
 * with medians, ratios and peak RSS.
 */

const RUNS = 21;
const TASK = 'bump the version and publish the release of the ledger api';
const TARGETS: Record<number, number> = { 1000: 1.5, 10000: 2.5 };
export async function bench(): Promise<void> {
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  out(`Preflight whole-process time (median of ${RUNS} runs, interleaved with \`node -e 0\`; task: "${TASK}")`);
  out('');
  out('| lessons | node -e 0 | empty ESM script | preflight | ratio | target | hook mode | ratio | peak RSS | cache build |');
  out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const count of [1000, 10000]) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lessons-bench-${count}-`));
    try {
      await generateRepo(dir, count, 42);
      const task = [BIN, 'preflight', TASK];
      const hook = [BIN, 'preflight', '--tool', 'Edit', '--path', 'services/api/package.json'];
      const build = runOnce(process.execPath, task, { cwd: dir }); // the first run builds the search cache
      // An ESM entry point alone costs more than `node -e 0`; shown so the ratio can be read against it.
      const empty = path.join(dir, 'empty.mjs');
      fs.writeFileSync(empty, '');
      const [b, e, o, h] = timeInterleaved(
        [
          { label: 'node -e 0', args: ['-e', '0'] },
          { label: 'empty ESM script', args: [empty] },
          { label: 'preflight', args: task },
          { label: 'hook mode', args: hook },
        ],
        RUNS,
        dir,
      ).map((timing) => timing.median) as [number, number, number, number];
      const rss = peakRssMiB(BIN, task.slice(1), dir);
      out(
        `| ${count} | ${b.toFixed(1)} ms | ${e.toFixed(1)} ms | ${o.toFixed(1)} ms | ${(o / b).toFixed(2)}x | <= ${TARGETS[count]}x | ${h.toFixed(1)} ms | ${(h / b).toFixed(2)}x | ${rss.toFixed(1)} MiB | ${build.toFixed(0)} ms |`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}
