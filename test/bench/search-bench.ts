import fs from 'node:fs';
import { buildSync } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Case } from './measure.js';
import { runOnce } from './shared.js';
import { DELTA_FILE } from '../../src/search/open.js';

/**
 * What the preflight and hook benchmarks share: the sizes they run at, the two baselines, a
 * change to one lesson's index line (as `lessons index` writes it after an edit) or to many, a
 * copy whose search cache is a base and a delta, and a probe that does only the reading
 * preflight cannot avoid.
 */

/** 1,000 and 10,000 lessons; LESSONS_BENCH_SCALE=100000 adds that size (generating it takes minutes). */
export function benchSizes(base: readonly number[] = [1000, 10000]): number[] {
  const extra = Number(process.env.LESSONS_BENCH_SCALE ?? '');
  return Number.isInteger(extra) && extra > 0 && !base.includes(extra) ? [...base, extra] : [...base];
}

/**
 * This environment may set NODE_EXTRA_CA_CERTS, which makes every node start read a CA bundle
 * (`node -e 0` then costs about three times as much). Both baselines are measured; the honest
 * one runs both the baseline and the command with it unset.
 */
export const NO_CA = { NODE_EXTRA_CA_CERTS: undefined };

export function baselines(): Case[] {
  return [
    { label: 'node -e 0 (environment as is)', args: ['-e', '0'] },
    { label: 'node -e 0 (NODE_EXTRA_CA_CERTS unset)', args: ['-e', '0'], env: NO_CA },
  ];
}

/**
 * Changes one lesson's line of lessons/index.json as an edit of its title would (written
 * atomically, like `lessons index`), alternating between two titles; the lesson file is left
 * as it is, so only the index line differs.
 */
export function toggleIndexLine(root: string, round: number): void {
  const file = path.join(root, 'lessons/index.json');
  const text = fs.readFileSync(file, 'utf8');
  const at = text.indexOf('"title":"', text.length >>> 1);
  const start = at + '"title":"'.length;
  const marker = ' (revised)';
  const end = text.indexOf('"', start);
  const title = text.slice(start, end);
  const next = round % 2 === 0 ? `${title}${marker}` : title.endsWith(marker) ? title.slice(0, -marker.length) : `${title}${marker}`;
  writeIndexText(root, text.slice(0, start) + next + text.slice(end));
}

/** lessons/index.json replaced atomically, as `lessons index` writes it. */
function writeIndexText(root: string, text: string): void {
  const file = path.join(root, 'lessons/index.json');
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

/**
 * Changes the titles of `count` lessons' lines of lessons/index.json, spread evenly over it (as
 * `lessons index` would write them after those titles were edited; the files are left as they
 * are): what a delta holds after a day or two of edits.
 */
export function retitleIndexLines(root: string, count: number): void {
  const lines = fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8').split('\n');
  const entries = lines.flatMap((line, n) => (line.includes('"title":"') ? [n] : []));
  const step = Math.max(1, Math.floor(entries.length / count));
  for (let k = 0; k < count && k * step < entries.length; k++) {
    const n = entries[k * step]!;
    lines[n] = lines[n]!.replace('"title":"', '"title":"Revised: ');
  }
  writeIndexText(root, lines.join('\n'));
}

/**
 * A copy of the repository at `dir` whose search cache is a base and a delta: the copy builds
 * its own base first (a copied file has another inode, so the copied cache's stamps would call
 * every lesson changed, and the update would be a full build), then `change` and the preflight
 * that brings the cache along. Fails when no delta was written: the row would not measure one.
 */
export function withDelta(dir: string, task: string[], change: (copy: string) => void, name: string): string {
  const copy = `${dir}-${name}`;
  fs.cpSync(dir, copy, { recursive: true });
  runOnce(process.execPath, task, { cwd: copy, env: NO_CA });
  change(copy);
  runOnce(process.execPath, task, { cwd: copy, env: NO_CA });
  if (!fs.existsSync(path.join(copy, DELTA_FILE))) throw new Error(`bench: the ${name} copy's search cache has no delta`);
  return copy;
}

/**
 * Waits until no process holds the search-cache lock (a background update has finished). A
 * hook starts its updater detached, so the lock may not be taken yet: it is given `startMs` to
 * appear first.
 */
export async function untilUnlocked(root: string, timeoutMs = 120_000, startMs = 500): Promise<void> {
  const lock = path.join(root, '.lessons/locks/search-cache.lock');
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  const started = Date.now();
  while (!fs.existsSync(lock) && Date.now() - started < startMs) await sleep(25);
  const deadline = Date.now() + timeoutMs;
  while (fs.existsSync(lock) && Date.now() < deadline) await sleep(50);
}

/** Removes a benchmark's repository; a detached cache updater may still be writing in it, so removal is retried. */
export function removeRepo(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}

export function cacheBytes(root: string): number {
  let total = 0;
  for (const name of ['search.bin', 'search-delta.bin']) {
    try {
      total += fs.statSync(path.join(root, '.lessons/cache', name)).size;
    } catch {
      // no delta
    }
  }
  return total;
}

/**
 * The floor for preflight's work, as a script: open the cache, read the dictionary, the
 * postings of the task's exact terms (its words as preflight's query has them: stemmed, each
 * once, stopwords dropped) and the records of the seven best lessons by summed
 * score, print them as JSON. No ranking, policy, receipt or output formatting. Bundled into one
 * CommonJS file, as the binary's commands are (an ES module importing dist/'s modules one by
 * one would add Node's ESM loader to the floor).
 */
export function writeProbe(dir: string): string {
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
  const source = path.join(dir, 'probe-source.mjs');
  const probe = path.join(dir, 'probe.cjs');
  fs.writeFileSync(
    source,
    `import fs from 'node:fs';
import { Segment } from ${JSON.stringify(path.join(dist, 'search/segment.js'))};
import { buildQuery } from ${JSON.stringify(path.join(dist, 'preflight/query.js'))};
import { VOCABULARY } from ${JSON.stringify(path.join(dist, 'search/vocabulary.js'))};
const fd = fs.openSync('.lessons/cache/search.bin', 'r');
const segment = Segment.open({ size: fs.fstatSync(fd).size, read: (offset, length) => { const b = new Uint8Array(length); fs.readSync(fd, b, 0, length, offset); return b; } });
const scores = new Map();
for (const { term } of buildQuery({ task: process.argv[2], paths: [], tool: null, command: null, project: null }, VOCABULARY).terms) {
  const t = segment.findTerm(term);
  if (t < 0) continue;
  const p = segment.postings(t);
  for (let i = 0; i < p.docs.length; i++) scores.set(p.docs[i], (scores.get(p.docs[i]) ?? 0) + p.scores[i]);
}
const best = [...scores].sort((a, b) => b[1] - a[1]).slice(0, 7);
process.stdout.write(JSON.stringify(best.map(([doc]) => segment.record(doc))) + '\\n');
`,
  );
  buildSync({ entryPoints: [source], outfile: probe, bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'error' });
  return probe;
}
