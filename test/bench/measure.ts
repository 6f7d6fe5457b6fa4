import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Whole-process timing for the benchmarks. Machines here are shared and noisy, so every figure
 * is printed beside a baseline measured in the same run, and cases are interleaved round by
 * round so that load hits them all alike.
 */

export interface Timing {
  label: string;
  median: number;
  p95: number;
  min: number;
  runs: number;
}

export interface RunOptions {
  cwd?: string | undefined;
  input?: string | Buffer | undefined;
  /** Added to the environment; a variable set to undefined is removed from it. */
  env?: Record<string, string | undefined> | undefined;
}

/** The environment a measured process runs in: this one, NO_COLOR, then `extra` (undefined removes). */
export function processEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

/** One run of a process, in ms; exits other than 0 and 1 (1: something was blocked or stale) throw. */
export function runOnce(command: string, args: readonly string[], options: RunOptions = {}): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: options.cwd, input: options.input ?? '', stdio: ['pipe', 'ignore', 'pipe'], env: processEnv(options.env) });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 && result.status !== 1) throw new Error(`${command} ${args.join(' ')}: exit ${result.status}: ${result.stderr?.toString().slice(0, 500)}`);
  return elapsed;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function summarize(label: string, samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { label, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), min: sorted[0]!, runs: sorted.length };
}

/** `runs` runs of one process after a warm-up run. */
export function timeProcess(label: string, command: string, args: string[], options: RunOptions & { runs?: number } = {}): Timing {
  runOnce(command, args, options);
  return summarize(label, Array.from({ length: options.runs ?? 15 }, () => runOnce(command, args, options)));
}

export interface Case extends RunOptions {
  label: string;
  /** The program; node itself when left out. */
  command?: string;
  args: string[];
}

/** Every case once per round, for `rounds` rounds after a warm-up round. */
export function timeInterleaved(cases: readonly Case[], rounds: number, cwd?: string): Timing[] {
  const samples = cases.map(() => [] as number[]);
  for (let round = 0; round <= rounds; round++) {
    cases.forEach((c, i) => {
      const ms = runOnce(c.command ?? process.execPath, c.args, { cwd: c.cwd ?? cwd, input: c.input, env: c.env });
      if (round > 0) samples[i]!.push(ms);
    });
  }
  return cases.map((c, i) => summarize(c.label, samples[i]!));
}

/**
 * At exit: the process's peak resident memory in KiB. Linux's VmHWM is this process's own; its
 * getrusage maxRSS counts the parent's resident memory at the fork too (a benchmark holding a
 * 100,000-lesson repository made every child report 235 MiB), so it is only the fallback.
 */
const PROBE = `process.on('exit', () => {
  const fs = require('fs');
  let kib = process.resourceUsage().maxRSS;
  try { kib = Number(/^VmHWM:\\s*(\\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]); } catch {}
  fs.writeFileSync(process.env.LESSONS_RSS_FILE, String(kib));
});`;

/** Peak resident memory of one run of a node script, in MiB (a preload records it at exit). */
export function peakRssMiB(script: string, args: string[], cwd?: string, env: Record<string, string | undefined> = {}, input?: string): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-rss-'));
  try {
    const probe = path.join(dir, 'probe.cjs');
    const out = path.join(dir, 'rss');
    fs.writeFileSync(probe, PROBE);
    spawnSync(process.execPath, ['--require', probe, script, ...args], { cwd, input: input ?? '', stdio: ['pipe', 'ignore', 'ignore'], env: processEnv({ ...env, LESSONS_RSS_FILE: out }) });
    return Number(fs.readFileSync(out, 'utf8')) / 1024;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A table row: label, median, p95, ratio to the baseline's median. */
export function formatRow(timing: Timing, baseline: Timing): string {
  const ratio = timing.median / baseline.median;
  return `${timing.label.padEnd(44)} ${timing.median.toFixed(1).padStart(8)} ms  p95 ${timing.p95.toFixed(1).padStart(8)} ms  ${ratio.toFixed(2).padStart(6)}x`;
}

export function printTable(title: string, baseline: Timing, rows: Timing[], notes: string[] = []): void {
  console.log(`\n${title}`);
  console.log(`${'command'.padEnd(44)} ${'median'.padStart(11)}  ${'p95'.padStart(15)}  ${'vs base'.padStart(7)}`);
  console.log(formatRow(baseline, baseline));
  for (const row of rows) console.log(formatRow(row, baseline));
  for (const note of notes) console.log(note);
}

/**
 * How a command's time above `node -e 0` grows between corpus sizes, as the exponent e in
 * time ~ size^e: 1 is linear in the corpus, 0 flat. Above-baseline times under 1 ms count as 1 ms.
 */
export function growthExponent(sizes: readonly [number, number], above: readonly [number, number]): number {
  return Math.log(Math.max(1, above[1]) / Math.max(1, above[0])) / Math.log(sizes[1] / sizes[0]);
}

/** A markdown table of growth exponents between consecutive sizes, one row per command; `above(size)` is its median above the baseline, undefined when not measured. */
export function growthTable(sizes: readonly number[], rows: readonly { label: string; above: (size: number) => number | undefined }[]): string[] {
  if (sizes.length < 2) return [];
  const pairs = sizes.slice(1).map((size, i) => [sizes[i]!, size] as const);
  const lines = [`| command | ${pairs.map(([a, b]) => `${a} -> ${b}`).join(' | ')} |`, `|---|${pairs.map(() => '---:').join('|')}|`];
  for (const row of rows) {
    const cells = pairs.map(([a, b]) => {
      const [x, y] = [row.above(a), row.above(b)];
      return x === undefined || y === undefined ? '' : growthExponent([a, b], [x, y]).toFixed(2);
    });
    lines.push(`| ${row.label} | ${cells.join(' | ')} |`);
  }
  return lines;
}
