import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, growthTable, peakRssMiB, runOnce, timeInterleaved, type Timing } from './shared.js';
import { baselines, benchSizes, cacheBytes, NO_CA, removeRepo, retitleIndexLines, toggleIndexLine, untilUnlocked, withDelta, writeProbe } from './search-bench.js';
import { generateRepo } from './synthetic.js';

/**
 * Whole-process preflight times on synthetic repositories (1,000 and 10,000 lessons;
 * LESSONS_BENCH_SCALE=100000 adds that size), beside `node -e 0` measured in the same run
 * (interleaved, so machine load hits both), with the environment as it is and with
 * NODE_EXTRA_CA_CERTS unset for both. Rows: warm preflight, hook mode, a probe that only reads
 * what preflight must read (the floor for the work), preflight after one lesson changed
 * (`lessons index` wrote a delta), preflight after 1% of the lessons changed (a delta as edits
 * leave it for a while: it is folded into the base only past 10% of the corpus), preflight that
 * updates the cache itself after the index changed under it, and the full build of the cache.
 */

const RUNS = 21;
const UPDATE_ROUNDS = 5;
const TASK = 'bump the version and publish the release of the ledger api';
/** Targets against `node -e 0` without the CA variable (issue 17): warm preflight, and after one change at most twice the warm time. */
const TARGETS: Record<number, number> = { 1000: 1.5, 10000: 1.5, 100000: 2 };

const ms = (timing: Timing | number): string => `${(typeof timing === 'number' ? timing : timing.median).toFixed(1)} ms`;
const x = (a: Timing | number, b: Timing): string => `${((typeof a === 'number' ? a : a.median) / b.median).toFixed(2)}x`;

export async function bench(): Promise<void> {
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  out(`Preflight whole-process time (median of ${RUNS} interleaved runs; task: "${TASK}")`);
  out('Ratios: to `node -e 0` with the environment as it is / with NODE_EXTRA_CA_CERTS unset for both (the honest floor).');
  out(`Load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores at the start.`);
  out('');
  out('| lessons | node -e 0 as is / no CA | preflight (p95) | ratio as is / no CA | target (no CA) | hook mode (p95) | ratio | floor probe | ratio | after one change (preflight / hook mode) | x warm | after 1% changed | x warm | updating after an index change | peak RSS warm / updating | cache | full build |');
  out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  // Per size, the medians above node -e 0 (no CA) of each row, for the growth exponents.
  const above = new Map<number, Record<string, number>>();
  for (const count of benchSizes()) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lessons-bench-${count}-`));
    try {
      await generateRepo(dir, count, 42);
      const task = [BIN, 'preflight', TASK];
      const hook = [BIN, 'preflight', '--tool', 'Edit', '--path', 'services/api/package.json'];
      const probe = writeProbe(dir);
      const build = runOnce(process.execPath, task, { cwd: dir, env: NO_CA }); // the first run builds the search cache
      const size = cacheBytes(dir);
      // A copy where one lesson changed: its index line changed and the cache was brought along (a delta), as `lessons index` does.
      const changedDir = withDelta(dir, task, (copy) => toggleIndexLine(copy, 0), 'changed');
      // And a copy where 1% of the lessons changed.
      const manyDir = withDelta(dir, task, (copy) => retitleIndexLines(copy, Math.ceil(count / 100)), 'many');
      const warm = timeInterleaved(
        [
          ...baselines(),
          { label: 'preflight (as is)', args: task },
          { label: 'preflight', args: task, env: NO_CA },
          { label: 'hook mode', args: hook, env: NO_CA },
          { label: 'probe', args: [probe, TASK], env: NO_CA },
          { label: 'preflight after one change', args: task, env: NO_CA, cwd: changedDir },
          { label: 'hook mode after one change', args: hook, env: NO_CA, cwd: changedDir },
          { label: 'preflight after 1% changed', args: task, env: NO_CA, cwd: manyDir },
        ],
        RUNS,
        dir,
      );
      removeRepo(changedDir);
      removeRepo(manyDir);
      const [asIs, noCa, preflightAsIs, preflight, hookMode, floor, changed, hookChanged, many] = warm as [Timing, Timing, Timing, Timing, Timing, Timing, Timing, Timing, Timing];
      const rss = peakRssMiB(BIN, task.slice(1), dir, NO_CA);

      // The index changed under the cache (a pull, a checkout): the next preflight updates it itself.
      const updates: number[] = [];
      let updateRss = 0;
      for (let round = 1; round <= UPDATE_ROUNDS; round++) {
        toggleIndexLine(dir, round);
        if (round === UPDATE_ROUNDS) updateRss = peakRssMiB(BIN, task.slice(1), dir, NO_CA);
        else updates.push(runOnce(process.execPath, task, { cwd: dir, env: NO_CA }));
        await untilUnlocked(dir);
      }
      const update = [...updates].sort((a, b) => a - b)[updates.length >>> 1]!;
      above.set(count, { preflight: preflight.median - noCa.median, 'hook mode': hookMode.median - noCa.median, 'floor probe': floor.median - noCa.median, 'preflight after one change': changed.median - noCa.median, 'preflight after 1% changed': many.median - noCa.median, 'updating after an index change': update - noCa.median });
      out(
        [
          count,
          `${ms(asIs)} / ${ms(noCa)}`,
          `${ms(preflight)} (${ms(preflight.p95)})`,
          `${x(preflightAsIs, asIs)} / ${x(preflight, noCa)}`,
          `<= ${TARGETS[count] ?? 2}x`,
          `${ms(hookMode)} (${ms(hookMode.p95)})`,
          x(hookMode, noCa),
          ms(floor),
          x(floor, noCa),
          `${ms(changed)} / hook mode ${ms(hookChanged)}`,
          `${(changed.median / preflight.median).toFixed(2)}x / ${(hookChanged.median / hookMode.median).toFixed(2)}x warm (target < 2x)`,
          ms(many),
          `${(many.median / preflight.median).toFixed(2)}x warm`,
          `${ms(update)} (${x(update, noCa)})`,
          `${rss.toFixed(1)} / ${updateRss.toFixed(1)} MiB`,
          `${(size / 1048576).toFixed(1)} MiB`,
          `${(build / 1000).toFixed(1)} s`,
        ].join(' | ').replace(/^/, '| ').replace(/$/, ' |'),
      );
    } finally {
      removeRepo(dir);
    }
  }
  out('');
  out('"after one change": an index line changed and the cache was brought along (as `lessons index` does), so preflight reads a base and a delta.');
  out('"after 1% changed": the titles of 1% of the lessons changed in the index and preflight brought the cache along: it reads a base and a delta of that many lessons.');
  out('"updating after an index change": the index changed under the cache (pull, checkout); that preflight compares the index line by line and writes the delta.');
  const sizes = [...above.keys()];
  if (sizes.length < 2) return;
  out('');
  out('Growth exponent of the time above node -e 0 (no CA) between sizes: 1 is linear in the corpus, 0 flat');
  out('');
  for (const line of growthTable(sizes, Object.keys(above.get(sizes[0]!)!).map((label) => ({ label, above: (size: number) => above.get(size)?.[label] })))) out(line);
}
