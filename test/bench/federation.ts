import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, peakRssMiB, runOnce, timeInterleaved, type Timing } from './shared.js';
import { baselines, NO_CA } from './search-bench.js';
import { generateRepo } from './synthetic.js';

/**
 * An organisation of many repositories (issue 18 item 6): N local bare repositories of 1,000
 * synthetic lessons each, taken as sources by a service repository with 1,000 lessons of its
 * own. 10 sources by default; LESSONS_BENCH_SOURCES=100 builds the issue's 100 (100,000 source
 * lessons; generating them takes minutes). Reports the first `lessons sources update` (fetches
 * every source and builds the merged search cache) and one with nothing new, the cache sizes,
 * and whole-process preflight and Claude Code PreToolUse hook times beside `node -e 0` in
 * interleaved rounds, with the environment as it is and with NODE_EXTRA_CA_CERTS unset for both;
 * peak RSS of each. Targets (issue 18, no CA variable): preflight over 100,000 federated lessons
 * within 2.5x of `node -e 0`, peak RSS under 150 MiB.
 */

const PER_SOURCE = 1_000;
const LOCAL = 1_000;
const ROUNDS = 21;
const TASK = 'bump the version and publish the release of the ledger api';
const TARGET = { ratio: 2.5, rssMiB: 150 };
const GIT_ENV = { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

function sourceCount(): number {
  const wanted = Number(process.env.LESSONS_BENCH_SOURCES ?? '');
  return Number.isInteger(wanted) && wanted > 0 ? wanted : 10;
}

/** A bare repository at `bare` holding `PER_SOURCE` lessons generated from `seed`. */
async function sourceRemote(work: string, bare: string, seed: number): Promise<void> {
  await generateRepo(work, PER_SOURCE, seed);
  const git = (cwd: string, ...args: string[]): number => runOnce('git', args, { cwd, env: GIT_ENV });
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '--no-verify', '-m', 'lessons');
  git(work, 'clone', '-q', '--bare', work, bare);
  fs.rmSync(work, { recursive: true, force: true });
}

function bytesOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

const ms = (value: Timing | number): string => `${(typeof value === 'number' ? value : value.median).toFixed(1)} ms`;
const ratio = (a: Timing, b: Timing): string => `${(a.median / b.median).toFixed(2)}x`;
const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;

export async function bench(): Promise<void> {
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  const count = sourceCount();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-bench-federation-'));
  try {
    const started = Date.now();
    const names = Array.from({ length: count }, (_, i) => `team-${String(i).padStart(3, '0')}`);
    for (const [i, name] of names.entries()) await sourceRemote(path.join(root, 'work', name), path.join(root, 'remotes', `${name}.git`), 1000 + i);
    const service = path.join(root, 'service');
    await generateRepo(service, LOCAL, 42);
    const policy = JSON.parse(fs.readFileSync(path.resolve(path.dirname(BIN), '../../policy/workflow-policy.json'), 'utf8')) as Record<string, unknown>;
    policy.sources = names.map((name) => ({ name, url: `../remotes/${name}.git`, ref: 'main' }));
    fs.mkdirSync(path.join(service, 'policy'));
    fs.writeFileSync(path.join(service, 'policy/workflow-policy.json'), `${JSON.stringify(policy, null, 2)}\n`);
    out(`${count} sources of ${PER_SOURCE} lessons (${count * PER_SOURCE} in all) and ${LOCAL} local lessons, generated in ${((Date.now() - started) / 1000).toFixed(0)} s`);

    const update = [BIN, 'sources', 'update', '--quiet'];
    const first = runOnce(process.execPath, update, { cwd: service, env: NO_CA });
    const again = runOnce(process.execPath, update, { cwd: service, env: NO_CA });
    const updateRss = peakRssMiB(BIN, update.slice(1), service, NO_CA);
    const task = [BIN, 'preflight', TASK];
    runOnce(process.execPath, task, { cwd: service, env: NO_CA }); // builds the local search cache
    const local = bytesOf(path.join(service, '.lessons/cache/search.bin'));
    const merged = bytesOf(path.join(service, '.lessons/cache/sources.bin'));
    const edit = JSON.stringify({ session_id: 'bench', transcript_path: path.join(service, 't.jsonl'), cwd: service, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(service, 'services/api/package.json'), old_string: 'a', new_string: 'b' } });
    const hook = [BIN, 'hook', 'claude', 'PreToolUse'];
    const [asIs, noCa, preflightAsIs, preflight, hookAsIs, hookNoCa] = timeInterleaved(
      [
        ...baselines(),
        { label: 'preflight (as is)', args: task },
        { label: 'preflight', args: task, env: NO_CA },
        { label: 'hook (as is)', args: hook, input: edit },
        { label: 'hook', args: hook, input: edit, env: NO_CA },
      ],
      ROUNDS,
      service,
    ) as [Timing, Timing, Timing, Timing, Timing, Timing];
    const preflightRss = peakRssMiB(BIN, task.slice(1), service, NO_CA);
    const hookRss = peakRssMiB(BIN, hook.slice(1), service, NO_CA, edit);

    out(`median of ${ROUNDS} interleaved rounds; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
    out('');
    out('| | environment as is | vs node -e 0 | NODE_EXTRA_CA_CERTS unset | vs node -e 0 | p95 (unset) | peak RSS |');
    out('|---|---:|---:|---:|---:|---:|---:|');
    out(`| node -e 0 | ${ms(asIs)} | 1.00x | ${ms(noCa)} | 1.00x | ${ms(noCa.p95)} | |`);
    out(`| preflight "${TASK}" | ${ms(preflightAsIs)} | ${ratio(preflightAsIs, asIs)} | ${ms(preflight)} | ${ratio(preflight, noCa)} | ${ms(preflight.p95)} | ${preflightRss.toFixed(1)} MiB |`);
    out(`| hook claude PreToolUse Edit | ${ms(hookAsIs)} | ${ratio(hookAsIs, asIs)} | ${ms(hookNoCa)} | ${ratio(hookNoCa, noCa)} | ${ms(hookNoCa.p95)} | ${hookRss.toFixed(1)} MiB |`);
    out('');
    out(`sources update: first (fetch ${count} sources, build the merged cache) ${(first / 1000).toFixed(1)} s, again with nothing new ${(again / 1000).toFixed(1)} s, peak RSS ${updateRss.toFixed(0)} MiB`);
    out(`search caches: sources (merged) ${mib(merged)}, local ${mib(local)}`);
    const met = (preflight.median / noCa.median <= TARGET.ratio ? 'met' : 'missed') + ' / ' + (preflightRss < TARGET.rssMiB ? 'met' : 'missed');
    out(`targets (NODE_EXTRA_CA_CERTS unset): preflight <= ${TARGET.ratio}x node -e 0, peak RSS < ${TARGET.rssMiB} MiB: ${met}${count < 100 ? ` (at ${count} sources; LESSONS_BENCH_SOURCES=100 for the issue's size)` : ''}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
