import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, growthTable, peakRssMiB, printTable, runOnce, timeInterleaved, type Timing } from './shared.js';
import { baselines, benchSizes, NO_CA, removeRepo, retitleIndexLines, toggleIndexLine, untilUnlocked, withDelta } from './search-bench.js';
import { generateRepo } from './synthetic.js';

/**
 * Whole-process `lessons hook claude PreToolUse` beside `node -e 0` measured in the same run,
 * with the environment as it is and with NODE_EXTRA_CA_CERTS unset for both; 1,000 and 10,000
 * lessons, and LESSONS_BENCH_SCALE=100000 adds that size. Targets (no CA variable): median within 1.3x
 * of the baseline at 1,000 lessons and 1.6x at 100,000, p95 under 100 ms. Also the first hook
 * after the index changed under the cache: it answers from the cache as it was and leaves the
 * update to a detached process. PostToolUse and PostToolUseFailure run after every shell command
 * and edit: the same targets.
 */

const TARGETS: Record<number, number> = { 1000: 1.3, 100000: 1.6 };
const STALE_ROUNDS = 5;

export async function bench(): Promise<void> {
  // Per size, the medians above node -e 0 (no CA) of each row, for the growth exponents.
  const above = new Map<number, Map<string, number>>();
  for (const count of benchSizes()) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-bench-hooks-'));
    try {
      await generateRepo(root, count, 7);
      const preIn = (dir: string, tool: string, toolInput: Record<string, unknown>) => JSON.stringify({ session_id: 'bench', transcript_path: path.join(dir, 't.jsonl'), cwd: dir, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: toolInput });
      const pre = (tool: string, toolInput: Record<string, unknown>) => preIn(root, tool, toolInput);
      const hook = [BIN, 'hook', 'claude', 'PreToolUse'];
      const post = (event: string, extra: Record<string, unknown>) => JSON.stringify({ session_id: 'bench-post', transcript_path: path.join(root, 't.jsonl'), cwd: root, hook_event_name: event, tool_name: 'Bash', tool_input: { command: 'npm test' }, ...extra });
      const failure = `Exit code 1\n${Array.from({ length: 400 }, (_, i) => (i % 50 === 0 ? `FAIL test/t${i}.test.ts > case ${i}` : `  at step ${i} (src/module${i}.ts:${i}:7)`)).join('\n')}`;
      const edit = pre('Edit', { file_path: path.join(root, 'package.json'), old_string: 'a', new_string: 'b' });
      runOnce(process.execPath, [BIN, 'preflight', 'warm the cache'], { cwd: root, env: NO_CA });
      // A copy where 1% of the lessons changed since the cache's base was built: the hook reads a base and a delta.
      const manyRoot = withDelta(root, [BIN, 'preflight', 'warm the cache'], (copy) => retitleIndexLines(copy, Math.ceil(count / 100)), 'many');
      const editMany = preIn(manyRoot, 'Edit', { file_path: path.join(manyRoot, 'package.json'), old_string: 'a', new_string: 'b' });
      const rounds = 30;
      const [asIs, noCa, ...rows] = timeInterleaved(
        [
          ...baselines(),
          { label: `hook claude PreToolUse Edit (${count}, as is)`, args: hook, input: edit },
          { label: `hook claude PreToolUse Edit (${count})`, args: hook, input: edit, env: NO_CA },
          { label: `hook claude PreToolUse Bash (${count})`, args: hook, input: pre('Bash', { command: 'npm test && npm publish --tag next' }), env: NO_CA },
          { label: `hook claude PreToolUse Read, no match (${count})`, args: hook, input: pre('Read', { file_path: path.join(root, 'README.md') }), env: NO_CA },
          { label: 'hook with LESSONS_DISABLE=1', args: hook, input: edit, env: { ...NO_CA, LESSONS_DISABLE: '1' } },
          { label: 'hook claude PostToolUse Bash, passed', args: [BIN, 'hook', 'claude', 'PostToolUse'], input: post('PostToolUse', { tool_response: { stdout: 'ok', stderr: '', interrupted: false } }), env: NO_CA },
          { label: 'hook claude PostToolUseFailure Bash, 400 lines', args: [BIN, 'hook', 'claude', 'PostToolUseFailure'], input: post('PostToolUseFailure', { error: failure, is_interrupt: false }), env: NO_CA },
          { label: `hook claude PreToolUse Edit, 1% of the lessons changed (${count})`, args: hook, input: editMany, env: NO_CA, cwd: manyRoot },
        ],
        rounds,
        root,
      ) as [Timing, Timing, ...Timing[]];
      const preToolUse = rows.slice(1, 4);
      const ratio = Math.max(...preToolUse.map((row) => row.median / noCa.median));
      const p95 = Math.max(...preToolUse.map((row) => row.p95));
      const postToolUse = rows.slice(5, 7);
      const postRatio = Math.max(...postToolUse.map((row) => row.median / noCa.median));
      const postP95 = Math.max(...postToolUse.map((row) => row.p95));
      const rss = peakRssMiB(BIN, hook.slice(1), root, NO_CA, edit); // the Edit call, as the rows above
      removeRepo(manyRoot);
      const many = rows[7]!;

      // The index changed under the cache: the hook answers at once; a detached process updates the cache.
      const stale: number[] = [];
      for (let round = 0; round < STALE_ROUNDS; round++) {
        toggleIndexLine(root, round);
        stale.push(runOnce(process.execPath, hook, { cwd: root, input: edit, env: NO_CA }));
        await untilUnlocked(root);
      }
      const staleMedian = [...stale].sort((a, b) => a - b)[stale.length >>> 1]!;
      // The rows' labels without the size, so sizes line up.
      above.set(count, new Map([...rows.map((row): [string, number] => [row.label.replace(` (${count})`, ''), row.median - noCa.median]), ['first hook after the index changed', staleMedian - noCa.median]]));
      printTable(`agent hooks, ${count} lessons (${rounds} interleaved rounds)`, noCa, [asIs, ...rows], [
        `PreToolUse: worst median ${ratio.toFixed(2)}x node -e 0 without NODE_EXTRA_CA_CERTS (${TARGETS[count] === undefined ? 'no target at this size' : `target <= ${TARGETS[count]}x`}), ${(rows[0]!.median / asIs.median).toFixed(2)}x with the environment as is; worst p95 ${p95.toFixed(1)} ms (target < 100 ms); peak RSS ${rss.toFixed(1)} MiB`,
        `first hook after the index changed (answers from the cache as it was, updates in the background): median ${staleMedian.toFixed(1)} ms, ${(staleMedian / noCa.median).toFixed(2)}x node, ${(staleMedian / rows[1]!.median).toFixed(2)}x the warm hook (target < 2x)`,
        `Edit after 1% of the lessons changed (a base and a delta): median ${many.median.toFixed(1)} ms, ${(many.median / noCa.median).toFixed(2)}x node, ${(many.median / rows[1]!.median).toFixed(2)}x the warm Edit hook`,
        `PostToolUse / PostToolUseFailure: worst median ${postRatio.toFixed(2)}x node -e 0 without NODE_EXTRA_CA_CERTS, worst p95 ${postP95.toFixed(1)} ms (target < 100 ms)`,
        `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
      ]);
    } finally {
      removeRepo(root);
    }
  }
  const sizes = [...above.keys()];
  if (sizes.length < 2) return;
  console.log('\nGrowth exponent of the time above node -e 0 (no CA) between sizes: 1 is linear in the corpus, 0 flat\n');
  for (const line of growthTable(sizes, [...above.get(sizes[0]!)!.keys()].map((label) => ({ label, above: (size: number) => above.get(size)?.get(label) })))) console.log(line);
}
