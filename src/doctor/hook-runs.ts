/**
 * `lessons doctor --run-hooks`: every installed hook, git's and each agent harness's, run with a
 * sample event in a temporary copy of the repository, and what git or the agent would receive.
 * The rows go into the report as they are; each harness's rows are summed up in one check
 * (`hook-runs:<harness>`) whose status is the worst row's, so a failing hook fails the doctor.
 */
import { hookIndexEntries } from '../agent/health.js';
import { errorMessage } from '../errors.js';
import type { CHECK_HOOKS } from '../githooks/scripts.js';
import { compareStrings } from '../util/compare.js';
import { installedAgentHooks, runAgentHooks, type SampleLesson } from './agent-hook-runs.js';
import { check, type Check, type CheckStatus } from './check.js';
import { runGitHooks } from './git-hook-runs.js';
import type { HookRunRow } from './hook-run.js';
import { makeSandbox } from './hook-sandbox.js';

export interface HookRunsInput {
  root: string;
  /** PATH as git and the harnesses give it to a hook. */
  pathValue: string;
  /** Where git runs hooks from, and the hooks there that run lessons. */
  gitHooks: { dir: string; running: readonly (typeof CHECK_HOOKS)[number][] };
}

export interface HookRuns {
  rows: HookRunRow[];
  checks: Check[];
}

const RANK: Record<CheckStatus, number> = { skip: 0, ok: 1, warn: 2, fail: 3 };

/** The lesson a sample task names: the first validated or canonical one by id, else the first that is not retired. */
async function sampleLesson(root: string): Promise<SampleLesson | undefined> {
  const entries = [...(await hookIndexEntries(root, []))].sort((a, b) => compareStrings(a.id, b.id));
  const chosen = entries.find((entry) => entry.status === 'validated' || entry.status === 'canonical') ?? entries.find((entry) => entry.status !== 'retired');
  return chosen && { id: chosen.id, title: chosen.title };
}

/** One check for one harness's rows: the worst status, the failing rows named, the first fix. */
function summarize(harness: string, rows: readonly HookRunRow[]): Check {
  const worst = rows.reduce((status, row) => (RANK[row.status] > RANK[status] ? row.status : status), 'ok' as CheckStatus);
  const name = `hook-runs:${harness}`;
  if (worst === 'ok') {
    const arrived = rows.some((row) => row.lessons === true) ? '; the sample lesson arrived' : '';
    return check(name, 'ok', `${rows.length} hook${rows.length === 1 ? '' : 's'} answered as ${harness === 'git' ? 'git' : 'the harness'} expects (slowest ${Math.max(...rows.map((row) => row.ms))} ms)${arrived}`);
  }
  const bad = rows.filter((row) => row.status === worst);
  const fixes = [...new Set(bad.flatMap((row) => (row.fix ? [row.fix] : [])))];
  return check(name, worst, bad.map((row) => `${row.event}: ${row.message}`).join('; '), fixes.length > 0 ? fixes.join('; ') : undefined);
}

export async function runHookChecks(input: HookRunsInput): Promise<HookRuns> {
  const installed = installedAgentHooks(input.root);
  if (installed.length === 0 && input.gitHooks.running.length === 0) {
    return { rows: [], checks: [check('hook-runs', 'skip', 'no installed hook runs lessons', 'run `lessons hooks install` (add --claude, --codex or --cursor for an agent)')] };
  }
  let sandbox: Awaited<ReturnType<typeof makeSandbox>>;
  try {
    sandbox = await makeSandbox(input.root);
  } catch (error) {
    return { rows: [], checks: [check('hook-runs', 'fail', `cannot make a temporary copy to run the hooks in: ${errorMessage(error)}`, 'run it from a plain shell (not from a git hook), with a writable temporary folder and git on PATH')] };
  }
  try {
    const lesson = await sampleLesson(sandbox.dir);
    const agentRows = await runAgentHooks(installed, { dir: sandbox.dir, pathValue: input.pathValue, lesson });
    const gitRows = await runGitHooks(input.gitHooks.dir, input.gitHooks.running, sandbox, input.pathValue);
    const rows = [...gitRows, ...agentRows];
    const harnesses = [...new Set(rows.map((row) => row.harness))];
    const checks = harnesses.map((harness) => summarize(harness, rows.filter((row) => row.harness === harness)));
    if (lesson === undefined && agentRows.length > 0) checks.push(check('hook-runs', 'warn', 'the repository has no lesson to make a sample task of: whether lessons arrive is not checked', 'record one with `lessons new "<title>"`'));
    return { rows, checks };
  } finally {
    sandbox.remove();
  }
}
