import path from 'node:path';
import { readText } from '../io/fs.js';
import { makeDir, pathExists } from '../io/paths.js';

/**
 * Every git call the sources make, in one module: argv only, never a shell, never a prompt.
 * A URL is always given after the options, and transports that run commands are off.
 */

export interface GitOutcome {
  ok: boolean;
  stdout: string;
  /** git's `fatal:` or `error:` line (else its last line on stderr): what went wrong, in git's words. */
  message: string;
}

const TIMEOUT_MS = 120_000;
const SAFE_CONFIG = ['-c', 'protocol.ext.allow=never', '-c', 'protocol.fd.allow=never', '-c', 'core.hooksPath=/dev/null', '-c', 'advice.detachedHead=false'];

async function git(cwd: string, args: readonly string[]): Promise<GitOutcome> {
  // Loaded here: execa takes about 110 ms to load, and most runs of the commands that import this module start no process.
  const { execa } = await import('execa');
  const result = await execa('git', [...SAFE_CONFIG, ...args], {
    cwd,
    reject: false,
    timeout: TIMEOUT_MS,
    stdin: 'ignore',
    env: { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '', GCM_INTERACTIVE: 'never', LC_ALL: 'C' },
  });
  const lines = String(result.stderr ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('warning:') && !line.startsWith('hint:'));
  const said = lines.find((line) => /^(fatal|error):/.test(line)) ?? lines.at(-1);
  const message = result.timedOut ? `git timed out after ${TIMEOUT_MS / 1000} s` : (said ?? (result.failed ? String(result.shortMessage ?? 'git failed') : ''));
  return { ok: !result.failed, stdout: String(result.stdout ?? ''), message: message.replace(/^(fatal|error): /, '') };
}

async function must(cwd: string, args: readonly string[]): Promise<string> {
  const outcome = await git(cwd, args);
  if (!outcome.ok) throw new SourceGitError(outcome.message);
  return outcome.stdout;
}

/** A git call that failed; the message is git's own. */
export class SourceGitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceGitError';
  }
}

/** A URL git understands as is, or a local path taken relative to the repository root. */
export function fetchUrl(root: string, url: string): string {
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^/\\]+@[^/\\]+:/.test(url);
  return isUrl ? url : path.resolve(root, url);
}

/** Makes `dir` a repository fetching from `url` whose work tree holds only `folders`. */
export async function prepareCheckout(dir: string, url: string, folders: readonly string[]): Promise<void> {
  if (!pathExists(path.join(dir, '.git'))) {
    makeDir(dir);
    await must(dir, ['init', '-q']);
  }
  const remote = await git(dir, ['config', '--get', 'remote.origin.url']);
  if (!remote.ok) await must(dir, ['remote', 'add', 'origin', '--', url]);
  else if (remote.stdout.trim() !== url) await must(dir, ['remote', 'set-url', 'origin', '--', url]);
  // Non-cone patterns: cone mode would also bring every file at the top of the repository.
  await must(dir, ['sparse-checkout', 'set', '--no-cone', '--', ...folders.map((folder) => `/${folder}/`)]);
}

/** Fetches the tip of `ref` (one commit deep) and returns its object name. */
export async function fetchRef(dir: string, ref: string): Promise<string> {
  await must(dir, ['fetch', '-q', '--depth', '1', '--no-tags', 'origin', '--', ref]);
  return (await must(dir, ['rev-parse', '--verify', '-q', 'FETCH_HEAD^{commit}'])).trim();
}

async function hasCommit(dir: string, commit: string): Promise<boolean> {
  return (await git(dir, ['cat-file', '-e', `${commit}^{commit}`])).ok;
}

/** Fetches exactly `commit` (one commit deep) unless the checkout has it already. */
export async function fetchCommit(dir: string, commit: string): Promise<void> {
  if (await hasCommit(dir, commit)) return;
  await must(dir, ['fetch', '-q', '--depth', '1', '--no-tags', 'origin', '--', commit]);
  if (!(await hasCommit(dir, commit))) throw new SourceGitError(`the remote did not send commit ${commit}`);
}

/**
 * Whether `older` is an ancestor of `newer`, asking the remote: `older` is fetched by its id
 * when the checkout lacks it (a fresh checkout, as in CI; a remote that no longer has it has
 * rewritten `ref`), then `ref`'s history back to `older`'s date.
 */
export async function followsFrom(dir: string, ref: string, older: string, newer: string): Promise<boolean> {
  try {
    await fetchCommit(dir, older);
  } catch (error) {
    if (error instanceof SourceGitError) return false;
    throw error;
  }
  const time = (await must(dir, ['show', '-s', '--format=%ct', older])).trim();
  await git(dir, ['fetch', '-q', `--shallow-since=${Number(time) - 1}`, '--no-tags', 'origin', '--', ref]);
  return (await git(dir, ['merge-base', '--is-ancestor', older, newer])).ok;
}

/**
 * Whether `ref`, now at `newer`, was rewritten since `older` (followsFrom, fetching into the
 * checkout's objects only); undefined when the remote's commit could not be fetched to tell.
 */
export async function rewrittenSince(dir: string, ref: string, older: string, newer: string): Promise<boolean | undefined> {
  const follows = await followsFrom(dir, ref, older, newer);
  if (follows) return false;
  return (await hasCommit(dir, newer)) ? true : undefined;
}

export async function checkoutCommit(dir: string, commit: string): Promise<void> {
  await must(dir, ['checkout', '-q', '--force', '--detach', commit]);
}

/** The commit checked out in `dir`, or undefined when there is no checkout. */
export async function headCommit(dir: string): Promise<string | undefined> {
  if (!pathExists(path.join(dir, '.git'))) return undefined;
  const outcome = await git(dir, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  return outcome.ok ? outcome.stdout.trim() : undefined;
}

/** The commit `ref` names on the remote now, without fetching anything. */
export async function remoteCommit(cwd: string, url: string, ref: string): Promise<string> {
  const out = await must(cwd, ['ls-remote', '--', url, ref]);
  const names = new Map(
    out
      .split('\n')
      .filter((line) => line.includes('\t'))
      .map((line) => [line.split('\t')[1]!, line.split('\t')[0]!] as const),
  );
  const commit = [`refs/heads/${ref}`, `refs/tags/${ref}^{}`, `refs/tags/${ref}`, ref].map((name) => names.get(name)).find((sha) => sha !== undefined);
  if (commit === undefined) throw new SourceGitError(`the remote has no ref \`${ref}\``);
  return commit;
}

/** Commits `files` (checkout-relative) on a new branch made from `from`, then checks `from` out again; returns the new commit. */
export async function commitOnNewBranch(dir: string, branch: string, from: string, files: readonly string[], message: string): Promise<string> {
  await must(dir, ['check-ref-format', '--branch', branch]);
  await must(dir, ['checkout', '-q', '-b', branch, from]);
  await must(dir, ['add', '--sparse', '--', ...files]);
  await must(dir, ['commit', '-q', '--no-verify', '-m', message]);
  const commit = (await must(dir, ['rev-parse', '--verify', 'HEAD'])).trim();
  // Back to the commit the lock names: the branch waits to be pushed, the checkout stays locked.
  await must(dir, ['checkout', '-q', '--force', '--detach', from]);
  return commit;
}

export async function branchExists(dir: string, branch: string): Promise<boolean> {
  return (await git(dir, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`])).ok;
}

/**
 * The commit checked out in `dir`, read from .git/HEAD without starting git (the loader runs
 * on every lint and preflight): a checkout made by `sources update` is always detached.
 */
export function checkedOutCommit(dir: string): string | undefined {
  try {
    const head = readText(path.join(dir, '.git', 'HEAD')).trim();
    return /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(head) ? head : undefined;
  } catch {
    return undefined;
  }
}
