import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, printTable, timeProcess } from './shared.js';
import { generateRepo } from './synthetic.js';

/**
 * Whole-process `lessons hook claude PreToolUse` on 1,000 lessons beside `node -e 0`, measured
 * in the same run. Targets: median within 1.5x of the baseline, p95 under 100 ms.
 */
export async function bench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-bench-hooks-'));
  try {
    const count = 1_000;
    generateRepo(root, count, 7);
    const index = fs.existsSync(path.join(root, 'lessons/index.json'));
    if (!index) {
      const { spawnSync } = await import('node:child_process');
      spawnSync(process.execPath, [BIN, 'index'], { cwd: root, stdio: 'ignore' });
    }
    const runs = 25;
    const edit = JSON.stringify({ session_id: 'bench', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(root, 'package.json'), old_string: 'a', new_string: 'b' } });
    const bash = JSON.stringify({ session_id: 'bench', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test && npm publish --tag next' } });
    const read = JSON.stringify({ session_id: 'bench', cwd: root, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: path.join(root, 'README.md') } });
    const baseline = timeProcess('node -e 0', process.execPath, ['-e', '0'], { runs });
    const rows = [
      timeProcess(`hook claude PreToolUse Edit (${count})`, process.execPath, [BIN, 'hook', 'claude', 'PreToolUse'], { cwd: root, runs, input: edit }),
      timeProcess(`hook claude PreToolUse Bash (${count})`, process.execPath, [BIN, 'hook', 'claude', 'PreToolUse'], { cwd: root, runs, input: bash }),
      timeProcess(`hook claude PreToolUse Read, no match (${count})`, process.execPath, [BIN, 'hook', 'claude', 'PreToolUse'], { cwd: root, runs, input: read }),
    ];
    process.env.LESSONS_DISABLE = '1';
    try {
      rows.push(timeProcess('hook with LESSONS_DISABLE=1', process.execPath, [BIN, 'hook', 'claude', 'PreToolUse'], { cwd: root, runs, input: edit }));
    } finally {
      delete process.env.LESSONS_DISABLE;
    }
    const worst = rows.slice(0, 3);
    const ratio = Math.max(...worst.map((row) => row.median / baseline.median));
    const p95 = Math.max(...worst.map((row) => row.p95));
    printTable(`agent hooks, ${count} lessons (${runs} runs each)`, baseline, rows, [
      `PreToolUse: worst median ${ratio.toFixed(2)}x node -e 0 (target <= 1.5x), worst p95 ${p95.toFixed(1)} ms (target < 100 ms)`,
    ]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
