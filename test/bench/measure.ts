import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Timing {
  label: string;
  median: number;
  p95: number;
  min: number;
  runs: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Runs a whole process `runs` times (after one warm-up) and returns wall-clock figures in ms. */
export function timeProcess(label: string, command: string, args: string[], options: { cwd?: string; runs?: number; input?: string } = {}): Timing {
  const runs = options.runs ?? 15;
  const samples: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(command, args, { cwd: options.cwd, input: options.input ?? '', stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0 && result.status !== 1) {
      throw new Error(`${label}: exit ${result.status}: ${result.stderr?.toString().slice(0, 500)}`);
    }
    if (i > 0) samples.push(elapsed);
  }
  samples.sort((a, b) => a - b);
  return { label, median: quantile(samples, 0.5), p95: quantile(samples, 0.95), min: samples[0]!, runs };
}

const PROBE = `process.on('exit', () => { require('fs').writeFileSync(process.env.LESSONS_RSS_FILE, String(process.resourceUsage().maxRSS)); });`;

/** Peak resident memory of one run of a node script, in MiB (a preload records maxRSS at exit). */
export function peakRssMiB(script: string, args: string[], cwd?: string): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-rss-'));
  try {
    const probe = path.join(dir, 'probe.cjs');
    const out = path.join(dir, 'rss');
    fs.writeFileSync(probe, PROBE);
    spawnSync(process.execPath, ['--require', probe, script, ...args], { cwd, stdio: 'ignore', env: { ...process.env, LESSONS_RSS_FILE: out } });
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
