import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, peakRssMiB, printTable, timeProcess } from './shared.js';
import { generateRepo } from './synthetic.js';

/** Whole-process `lessons index` and `lessons lint` at 1,000 and 10,000 lessons, beside `node -e 0`. */
export async function bench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-bench-foundation-'));
  try {
    for (const count of [1_000, 10_000]) {
      const repo = path.join(root, String(count));
      await generateRepo(repo, count, count);
      const runs = count === 1_000 ? 15 : 7;
      const baseline = timeProcess('node -e 0', process.execPath, ['-e', '0'], { runs });
      const index = timeProcess(`lessons index (${count})`, process.execPath, [BIN, 'index'], { cwd: repo, runs });
      const lint = timeProcess(`lessons lint (${count})`, process.execPath, [BIN, 'lint'], { cwd: repo, runs });
      printTable(`index and lint, ${count} lessons (${runs} runs each)`, baseline, [index, lint], [
        `peak RSS: index ${peakRssMiB(BIN, ['index'], repo).toFixed(0)} MiB, lint ${peakRssMiB(BIN, ['lint'], repo).toFixed(0)} MiB`,
      ]);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
