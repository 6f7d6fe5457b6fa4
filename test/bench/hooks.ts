import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, printTable, timeProcess, type Timing } from './shared.js';
import { generateRepo } from './synthetic.js';

interface Case {
  label: string;
  args: string[];
  input?: string;
  env?: Record<string, string>;
}

/**
 * Times every case in interleaved rounds (one run of each per round, after timeProcess's own
 * warm-up), so that the baseline and the hooks see the same load on a shared machine.
 */
function interleaved(cases: Case[], cwd: string, rounds: number): Timing[] {
  const samples = cases.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    cases.forEach((c, i) => {
      const saved = { ...process.env };
      Object.assign(process.env, c.env ?? {});
      try {
        samples[i]!.push(timeProcess(c.label, process.execPath, c.args, { cwd, runs: 1, input: c.input ?? '' }).median);
      } finally {
        for (const key of Object.keys(c.env ?? {})) if (saved[key] === undefined) delete process.env[key];
      }
    });
  }
  return cases.map((c, i) => {
    const sorted = samples[i]!.sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    return { label: c.label, median: at(0.5), p95: at(0.95), min: sorted[0]!, runs: rounds };
  });
}

/**
 * Whole-process `lessons hook claude PreToolUse` on 1,000 lessons beside `node -e 0`, measured
 * in the same run. Targets: median within 1.5x of the baseline, p95 under 100 ms.
 */
export async function bench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-bench-hooks-'));
  try {
    const count = 1_000;
    generateRepo(root, count, 7);
    spawnSync(process.execPath, [BIN, 'index'], { cwd: root, stdio: 'ignore' });
    const pre = (tool: string, toolInput: Record<string, unknown>) => JSON.stringify({ session_id: 'bench', transcript_path: path.join(root, 't.jsonl'), cwd: root, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: toolInput });
    const hook = [BIN, 'hook', 'claude', 'PreToolUse'];
    const rounds = 30;
    const [baseline, ...rows] = interleaved(
      [
        { label: 'node -e 0', args: ['-e', '0'] },
        { label: `hook claude PreToolUse Edit (${count})`, args: hook, input: pre('Edit', { file_path: path.join(root, 'package.json'), old_string: 'a', new_string: 'b' }) },
        { label: `hook claude PreToolUse Bash (${count})`, args: hook, input: pre('Bash', { command: 'npm test && npm publish --tag next' }) },
        { label: `hook claude PreToolUse Read, no match (${count})`, args: hook, input: pre('Read', { file_path: path.join(root, 'README.md') }) },
        { label: 'hook with LESSONS_DISABLE=1', args: hook, input: pre('Edit', { file_path: 'package.json' }), env: { LESSONS_DISABLE: '1' } },
      ],
      root,
      rounds,
    );
    const preToolUse = rows.slice(0, 3);
    const ratio = Math.max(...preToolUse.map((row) => row.median / baseline!.median));
    const p95 = Math.max(...preToolUse.map((row) => row.p95));
    printTable(`agent hooks, ${count} lessons (${rounds} interleaved rounds)`, baseline!, rows, [
      `PreToolUse: worst median ${ratio.toFixed(2)}x node -e 0 (target <= 1.5x), worst p95 ${p95.toFixed(1)} ms (target < 100 ms); load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    ]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
