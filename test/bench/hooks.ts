import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, printTable, timeInterleaved } from './shared.js';
import { generateRepo } from './synthetic.js';

/**
 * Whole-process `lessons hook claude PreToolUse` on 1,000 lessons beside `node -e 0`, measured
 * in the same run. Targets: median within 1.5x of the baseline, p95 under 100 ms. PostToolUse
 * and PostToolUseFailure run after every shell command and edit: the same targets.
 */
export async function bench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-bench-hooks-'));
  try {
    const count = 1_000;
    await generateRepo(root, count, 7);
    const pre = (tool: string, toolInput: Record<string, unknown>) => JSON.stringify({ session_id: 'bench', transcript_path: path.join(root, 't.jsonl'), cwd: root, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: toolInput });
    const hook = [BIN, 'hook', 'claude', 'PreToolUse'];
    const post = (event: string, extra: Record<string, unknown>) => JSON.stringify({ session_id: 'bench-post', transcript_path: path.join(root, 't.jsonl'), cwd: root, hook_event_name: event, tool_name: 'Bash', tool_input: { command: 'npm test' }, ...extra });
    const failure = `Exit code 1\n${Array.from({ length: 400 }, (_, i) => (i % 50 === 0 ? `FAIL test/t${i}.test.ts > case ${i}` : `  at step ${i} (src/module${i}.ts:${i}:7)`)).join('\n')}`;
    const rounds = 30;
    const [baseline, ...rows] = timeInterleaved(
      [
        { label: 'node -e 0', args: ['-e', '0'] },
        { label: `hook claude PreToolUse Edit (${count})`, args: hook, input: pre('Edit', { file_path: path.join(root, 'package.json'), old_string: 'a', new_string: 'b' }) },
        { label: `hook claude PreToolUse Bash (${count})`, args: hook, input: pre('Bash', { command: 'npm test && npm publish --tag next' }) },
        { label: `hook claude PreToolUse Read, no match (${count})`, args: hook, input: pre('Read', { file_path: path.join(root, 'README.md') }) },
        { label: 'hook claude PostToolUse Bash, passed', args: [BIN, 'hook', 'claude', 'PostToolUse'], input: post('PostToolUse', { tool_response: { stdout: 'ok', stderr: '', interrupted: false } }) },
        { label: 'hook claude PostToolUseFailure Bash, 400 lines', args: [BIN, 'hook', 'claude', 'PostToolUseFailure'], input: post('PostToolUseFailure', { error: failure, is_interrupt: false }) },
        { label: 'hook with LESSONS_DISABLE=1', args: hook, input: pre('Edit', { file_path: 'package.json' }), env: { LESSONS_DISABLE: '1' } },
      ],
      rounds,
      root,
    );
    const preToolUse = rows.slice(0, 3);
    const postToolUse = rows.slice(3, 5);
    const postRatio = Math.max(...postToolUse.map((row) => row.median / baseline!.median));
    const postP95 = Math.max(...postToolUse.map((row) => row.p95));
    const ratio = Math.max(...preToolUse.map((row) => row.median / baseline!.median));
    const p95 = Math.max(...preToolUse.map((row) => row.p95));
    printTable(`agent hooks, ${count} lessons (${rounds} interleaved rounds)`, baseline!, rows, [
      `PreToolUse: worst median ${ratio.toFixed(2)}x node -e 0 (target <= 1.5x), worst p95 ${p95.toFixed(1)} ms (target < 100 ms); load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
      `PostToolUse / PostToolUseFailure: worst median ${postRatio.toFixed(2)}x node -e 0 (target <= 1.5x), worst p95 ${postP95.toFixed(1)} ms (target < 100 ms)`,
    ]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
