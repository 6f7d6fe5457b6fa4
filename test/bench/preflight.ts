import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { generateRepo } from './synthetic.js';

/**
 * Whole-process preflight times on synthetic repositories of 1,000 and 10,000 lessons,
 * beside `node -e 0` measured in the same run (interleaved, so machine load hits both),
 * with medians, ratios and peak RSS.
 */

const RUNS = 21;
const TASK = 'bump the version and publish the release of the ledger api';
const TARGETS: Record<number, number> = { 1000: 1.5, 10000: 2.5 };
const TIME = '/usr/bin/time';

function timeOnce(args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.toString()}`);
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Peak resident set size in MiB, from GNU time; undefined where it is not installed. */
function peakRssMiB(args: string[], cwd: string): number | undefined {
  if (!fs.existsSync(TIME)) return undefined;
  const result = spawnSync(TIME, ['-f', '%M', process.execPath, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const kib = Number(result.stderr.toString().trim().split('\n').pop());
  return Number.isFinite(kib) ? kib / 1024 : undefined;
}

export async function bench(): Promise<void> {
  const bin = path.join(packageRoot(), 'dist/cli/lessons.js');
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  out(`Preflight whole-process time (median of ${RUNS} runs, interleaved with \`node -e 0\`; task: "${TASK}")`);
  out('');
  out('| lessons | node -e 0 | empty ESM script | preflight | ratio | target | hook mode | ratio | peak RSS | cache build |');
  out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const count of [1000, 10000]) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lessons-bench-${count}-`));
    try {
      await generateRepo(dir, count, 42);
      const task = [bin, 'preflight', TASK];
      const hook = [bin, 'preflight', '--tool', 'Edit', '--path', 'services/api/package.json'];
      const build = timeOnce(task, dir); // first run builds the search cache
      // An ESM entry point alone costs more than `node -e 0`; shown so the ratio can be read against it.
      const empty = path.join(dir, 'empty.mjs');
      fs.writeFileSync(empty, '');
      const esm: number[] = [];
      const base: number[] = [];
      const ours: number[] = [];
      const hooks: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        base.push(timeOnce(['-e', '0'], dir));
        esm.push(timeOnce([empty], dir));
        ours.push(timeOnce(task, dir));
        hooks.push(timeOnce(hook, dir));
      }
      const [b, e, o, h] = [median(base), median(esm), median(ours), median(hooks)];
      const rss = peakRssMiB(task, dir);
      out(
        `| ${count} | ${b.toFixed(1)} ms | ${e.toFixed(1)} ms | ${o.toFixed(1)} ms | ${(o / b).toFixed(2)}x | <= ${TARGETS[count]}x | ${h.toFixed(1)} ms | ${(h / b).toFixed(2)}x | ${rss === undefined ? 'n/a' : `${rss.toFixed(1)} MiB`} | ${build.toFixed(0)} ms |`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}
