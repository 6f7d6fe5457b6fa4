import fs from 'node:fs';
import path from 'node:path';
import { LessonsError } from '../../errors.js';
import { git, gitAnswer, spawnGit } from './run.js';

/**
 * The repository and its refs. Every path git prints is read with `-z` (no quoting of spaces
 * or non-ASCII names); paths are POSIX and relative to the top level.
 */
export interface GitRepo {
  /** The working tree's top level (absolute, real path); every command runs there. */
  topLevel: string;
  shallow: boolean;
}

const ZERO_SHA = /^0+$/;

export function isZeroSha(sha: string): boolean {
  return ZERO_SHA.test(sha);
}

/** Opens the repository containing `cwd`; outside one, a usage error (exit 2) that says what to do. */
export async function openRepo(cwd: string): Promise<GitRepo> {
  const args = ['rev-parse', '--show-toplevel', '--is-shallow-repository'];
  const out = await spawnGit(cwd, args);
  if (out.exitCode !== 0) {
    if (/not a git repository/i.test(out.stderr)) {
      throw new LessonsError('GIT', `not a git repository: ${cwd} is not inside a git working tree; run \`git init\` first or pass -C <repository>`);
    }
    if (/must be run in a work tree/i.test(out.stderr)) {
      throw new LessonsError('GIT', `${cwd} is not a git working tree (a bare repository?): run lessons inside a checkout`);
    }
    throw new LessonsError('GIT', `git rev-parse failed: ${out.stderr.trim()}`);
  }
  const [topLevel = '', shallow = ''] = out.stdout.toString('utf8').split('\n');
  return { topLevel: fs.realpathSync(topLevel), shallow: shallow.trim() === 'true' };
}

/** The commit `rev` names, or undefined when it names none (an unborn HEAD, a ref not fetched). */
export function resolveCommit(repo: GitRepo, rev: string): Promise<string | undefined> {
  return gitAnswer(repo.topLevel, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
}

export function mergeBase(repo: GitRepo, a: string, b: string): Promise<string | undefined> {
  return gitAnswer(repo.topLevel, ['merge-base', a, b]);
}

/** The upstream of the current branch, when it has one. */
export function upstreamOf(repo: GitRepo, rev = 'HEAD'): Promise<string | undefined> {
  return gitAnswer(repo.topLevel, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', `${rev === 'HEAD' ? '' : rev}@{upstream}`]);
}

/**
 * The remote's default branch (origin/HEAD), else origin/main or origin/master; with
 * `includeLocal`, else local main or master.
 */
export async function defaultBranch(repo: GitRepo, includeLocal: boolean): Promise<string | undefined> {
  // origin/HEAD is not set in every clone; the usual names follow.
  const originHead = await gitAnswer(repo.topLevel, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  if (originHead) return originHead.replace(/^refs\/remotes\//, '');
  for (const name of includeLocal ? ['origin/main', 'origin/master', 'main', 'master'] : ['origin/main', 'origin/master']) {
    if (await resolveCommit(repo, name)) return name;
  }
  return undefined;
}

/** A path inside the git directory (`hooks`, `SQUASH_MSG`; core.hooksPath aware), absolute. */
export async function gitPath(repo: GitRepo, name: string): Promise<string> {
  const out = (await git(repo.topLevel, ['rev-parse', '--git-path', name])).trim();
  return path.resolve(repo.topLevel, out);
}

/** The directory git runs hooks from, absolute. */
export function hooksDir(repo: GitRepo): Promise<string> {
  return gitPath(repo, 'hooks');
}

export function configValue(repo: GitRepo, key: string): Promise<string | undefined> {
  return gitAnswer(repo.topLevel, ['config', '--get', key]);
}

/** Sets a key in the repository's own config (.git/config), as `git config --local <key> <value>` does. */
export async function setConfigValue(repo: GitRepo, key: string, value: string): Promise<void> {
  await git(repo.topLevel, ['config', '--local', key, value]);
}

/** Removes a section of the repository's own config; a section that is not there is no error. */
export async function removeConfigSection(repo: GitRepo, section: string): Promise<boolean> {
  const out = await spawnGit(repo.topLevel, ['config', '--local', '--remove-section', section]);
  return out.exitCode === 0;
}
