/**
 * The installed git hooks that check commits and pushes, run as git runs them (the hook file
 * itself, from the top of the working tree, with git's arguments and stdin) in the temporary
 * copy: pre-commit with a sample change staged, prepare-commit-msg and commit-msg on a sample
 * message, pre-push for the sample commit. Git waits for a hook for ever; doctor stops one at
 * GIT_HOOK_TIMEOUT_S and says so.
 */
import path from 'node:path';
import { git } from '../io/git/run.js';
import { writeFileAtomic } from '../io/fs.js';
import { isExecutableFile, pathExists } from '../io/paths.js';
import type { CHECK_HOOKS } from '../githooks/scripts.js';
import { lastLine, notExited, timedRun, type HookRunRow } from './hook-run.js';
import type { Sandbox } from './hook-sandbox.js';

type CheckHook = (typeof CHECK_HOOKS)[number];

const GIT_HOOK_TIMEOUT_S = 120;
const SAMPLE_FILE = 'lessons-doctor-sample.txt';
const MESSAGE_FILE = '.git/COMMIT_EDITMSG';

/** What a failing hook does to the user, by hook. */
const EFFECT: Record<CheckHook, string> = {
  'pre-commit': 'the sample commit is blocked',
  'prepare-commit-msg': 'git stops the commit',
  'commit-msg': 'the sample commit is blocked',
  'pre-push': 'the sample push is blocked',
};

async function runHook(hooksDir: string, sandbox: Sandbox, hook: CheckHook, args: string[], input: string, pathValue: string): Promise<HookRunRow> {
  const file = path.join(hooksDir, hook);
  const base = { harness: 'git', event: hook, lessons: null };
  if (!isExecutableFile(file)) {
    return { ...base, exit: null, ms: 0, contract: false, status: 'fail', message: `${file} is not executable: git skips it`, fix: `chmod +x ${file}, or run \`lessons hooks install\`` };
  }
  const { outcome, ms } = await timedRun([file, ...args], sandbox.dir, input, GIT_HOOK_TIMEOUT_S * 1000, { PATH: pathValue });
  const stopped = notExited(outcome, GIT_HOOK_TIMEOUT_S, "doctor's bound; git itself waits for ever");
  if (stopped !== undefined || outcome.kind !== 'exited') return { ...base, exit: null, ms, contract: false, status: 'fail', message: stopped ?? 'did not exit', fix: 'run the hook by hand and see where it waits' };
  if (outcome.exitCode === 0) return { ...base, exit: 0, ms, contract: true, status: 'ok', message: `exit 0 in ${ms} ms` };
  const why = lastLine(outcome.stderr);
  return {
    ...base,
    exit: outcome.exitCode,
    ms,
    contract: false,
    status: 'fail',
    message: `exits ${outcome.exitCode} on a sample change: ${EFFECT[hook]}${why ? ` (${why})` : ''}`,
    fix: hook === 'pre-push' || hook === 'pre-commit' ? `run \`lessons guard --stage ${hook}\` and fix what it reports, or \`lessons hooks install\` if the hook is not lessons'` : 'run `lessons hooks install`',
  };
}

/** Runs `hooks` (those installed, in commit order) from `hooksDir` in the sandbox. */
export async function runGitHooks(hooksDir: string, hooks: readonly CheckHook[], sandbox: Sandbox, pathValue: string): Promise<HookRunRow[]> {
  const rows: HookRunRow[] = [];
  const has = (hook: CheckHook) => hooks.includes(hook) && pathExists(path.join(hooksDir, hook));
  writeFileAtomic(path.join(sandbox.dir, SAMPLE_FILE), 'A sample change staged by `lessons doctor --run-hooks`.\n');
  await git(sandbox.dir, ['add', SAMPLE_FILE]);
  const message = path.join(sandbox.dir, MESSAGE_FILE);
  writeFileAtomic(message, 'Add a sample file\n');
  if (has('pre-commit')) rows.push(await runHook(hooksDir, sandbox, 'pre-commit', [], '', pathValue));
  if (has('prepare-commit-msg')) rows.push(await runHook(hooksDir, sandbox, 'prepare-commit-msg', [MESSAGE_FILE, 'message'], '', pathValue));
  if (has('commit-msg')) rows.push(await runHook(hooksDir, sandbox, 'commit-msg', [MESSAGE_FILE], '', pathValue));
  if (has('pre-push')) {
    const head = await sandbox.commit('Add a sample file');
    const refs = `refs/heads/main ${head} refs/heads/main ${sandbox.base}\n`;
    rows.push(await runHook(hooksDir, sandbox, 'pre-push', ['origin', sandbox.dir], refs, pathValue));
  }
  return rows;
}
