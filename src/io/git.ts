import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { LessonsError } from '../errors.js';

/**
 * Git plumbing for the guard, the hooks and init. Every path git prints is read with `-z`
 * (no quoting of spaces or non-ASCII names); paths are POSIX and relative to the top level.
 */

/** What `git diff --name-status` says happened to one file. */
export interface ChangedFile {
  status: 'A' | 'M' | 'D' | 'T';
  path: string;
}

export interface TreeFile {
  path: string;
  blob: string;
}

export interface CommitInfo {
  sha: string;
  parents: string[];
  subject: string;
  /** Trailers as git parses them (`%(trailers:only,unfold)`), in message order. */
  trailers: { key: string; value: string }[];
}

export interface GitRepo {
  git: SimpleGit;
  /** The working tree's top level (absolute, real path). */
  topLevel: string;
  shallow: boolean;
}

const ZERO_SHA = /^0+$/;

export function isZeroSha(sha: string): boolean {
  return ZERO_SHA.test(sha);
}

function gitError(args: readonly string[], error: unknown): LessonsError {
  const message = error instanceof Error ? error.message.trim() : String(error);
  return new LessonsError('GIT', `git ${args.join(' ')} failed: ${message}`);
}

/** Opens the repository containing `cwd`; outside one, a usage error (exit 2) that says what to do. */
export async function openRepo(cwd: string): Promise<GitRepo> {
  const git = simpleGit({ baseDir: cwd, trimmed: false });
  let out: string;
  try {
    out = await git.raw(['rev-parse', '--show-toplevel', '--is-shallow-repository']);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (/not a git repository/i.test(text)) {
      throw new LessonsError('GIT', `not a git repository: ${cwd} is not inside a git working tree; run \`git init\` first or pass -C <repository>`);
    }
    if (/must be run in a work tree/i.test(text)) {
      throw new LessonsError('GIT', `${cwd} is not a git working tree (a bare repository?): run lessons inside a checkout`);
    }
    throw gitError(['rev-parse'], error);
  }
  const [topLevel = '', shallow = ''] = out.split('\n');
  return { git: simpleGit({ baseDir: topLevel, trimmed: false }), topLevel: fs.realpathSync(topLevel), shallow: shallow.trim() === 'true' };
}

async function raw(repo: GitRepo, args: string[]): Promise<string> {
  try {
    return await repo.git.raw(args);
  } catch (error) {
    throw gitError(args, error);
  }
}

/** The commit `rev` names, or undefined when it names none (an unborn HEAD, a ref not fetched). */
export async function resolveCommit(repo: GitRepo, rev: string): Promise<string | undefined> {
  try {
    const out = await repo.git.raw(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}

function splitZ(out: string): string[] {
  const parts = out.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/** `--name-status -z` output: status, path, status, path... (renames off, so one path each). */
function parseNameStatus(out: string): ChangedFile[] {
  const parts = splitZ(out);
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]!.charAt(0);
    if (status === 'A' || status === 'M' || status === 'D' || status === 'T') files.push({ status, path: parts[i + 1]! });
  }
  return files;
}

/** What the next commit changes: the index against HEAD (against nothing before the first commit). */
export async function stagedChanges(repo: GitRepo): Promise<ChangedFile[]> {
  return parseNameStatus(await raw(repo, ['diff', '--cached', '--name-status', '--no-renames', '-z']));
}

/** The tree the index would commit (`git write-tree`): the same id for the same staged content. */
export async function stagedTree(repo: GitRepo): Promise<string> {
  return (await raw(repo, ['write-tree'])).trim();
}

/** Files changed between two commits; `base` undefined means since the repository began. */
export async function changesBetween(repo: GitRepo, base: string | undefined, head: string): Promise<ChangedFile[]> {
  if (base !== undefined) return parseNameStatus(await raw(repo, ['diff', '--name-status', '--no-renames', '-z', base, head, '--']));
  const files = await treeFiles(repo, head, []);
  return files.map((file) => ({ status: 'A' as const, path: file.path }));
}

/** Tracked files that differ between the working tree and `base` (the empty tree when undefined), plus untracked ones. */
export async function worktreeChanges(repo: GitRepo, base: string | undefined): Promise<ChangedFile[]> {
  const tracked = base === undefined ? [] : parseNameStatus(await raw(repo, ['diff', '--name-status', '--no-renames', '-z', base, '--']));
  const listing = base === undefined ? ['--cached', '--others'] : ['--others'];
  const others = splitZ(await raw(repo, ['ls-files', ...listing, '--exclude-standard', '-z']));
  return [...tracked, ...others.map((file) => ({ status: 'A' as const, path: file }))];
}

/** Regular files in the index under the given folders (all when empty). */
export async function indexFiles(repo: GitRepo, folders: readonly string[]): Promise<TreeFile[]> {
  const out = await raw(repo, ['--literal-pathspecs', 'ls-files', '--stage', '-z', '--', ...folders]);
  const files: TreeFile[] = [];
  for (const entry of splitZ(out)) {
    const match = /^(\d+) ([0-9a-f]+) (\d)\t(.*)$/s.exec(entry);
    if (!match || match[3] !== '0' || !match[1]!.startsWith('100')) continue;
    files.push({ blob: match[2]!, path: match[4]! });
  }
  return files;
}

/** Regular files of a commit's tree under the given folders (all when empty). */
export async function treeFiles(repo: GitRepo, commit: string, folders: readonly string[]): Promise<TreeFile[]> {
  const out = await raw(repo, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...folders]);
  const files: TreeFile[] = [];
  for (const entry of splitZ(out)) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (!match || match[2] !== 'blob' || !match[1]!.startsWith('100')) continue;
    files.push({ blob: match[3]!, path: match[4]! });
  }
  return files;
}

/**
 * The contents of many blobs through one `git cat-file --batch` (a process per blob would cost
 * seconds on a thousand lessons). simple-git cannot feed stdin, so this one call spawns git itself.
 */
export function readBlobs(repo: GitRepo, blobs: readonly string[]): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(blobs)];
  if (wanted.length === 0) return Promise.resolve(new Map());
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: repo.topLevel, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => reject(gitError(['cat-file', '--batch'], error)));
    child.on('close', (code) => {
      if (code !== 0) return reject(gitError(['cat-file', '--batch'], new Error(stderr || `exit ${code}`)));
      const out = Buffer.concat(chunks);
      const result = new Map<string, Buffer>();
      let offset = 0;
      for (const blob of wanted) {
        const end = out.indexOf(0x0a, offset);
        const header = out.subarray(offset, end).toString();
        const size = Number(header.split(' ')[2]);
        if (header.endsWith(' missing') || !Number.isFinite(size)) {
          return reject(new LessonsError('GIT', `git object ${blob} is missing: the clone is incomplete; run \`git fetch\``));
        }
        result.set(blob, out.subarray(end + 1, end + 1 + size));
        offset = end + 1 + size + 1;
      }
      resolve(result);
    });
    child.stdin.end(wanted.map((blob) => `${blob}\n`).join(''));
  });
}

const FIELD = '\x1f';
const RECORD = '\x1e';

/** The commits reachable from `head` and not from `base`, oldest first, with git's own trailer parsing. */
export async function commitsInRange(repo: GitRepo, base: string | undefined, head: string): Promise<CommitInfo[]> {
  const range = base === undefined ? [head] : [`${base}..${head}`];
  const format = ['%H', '%P', '%s', '%(trailers:only,unfold)'].join('%x1f') + '%x1e';
  const out = await raw(repo, ['log', '--reverse', `--format=${format}`, ...range, '--']);
  return out
    .split(RECORD)
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record !== '')
    .map((record) => {
      const [sha = '', parents = '', subject = '', trailerText = ''] = record.split(FIELD);
      return { sha, parents: parents.split(' ').filter(Boolean), subject, trailers: parseTrailerLines(trailerText) };
    });
}

/** `Key: value` lines as `%(trailers:only,unfold)` and `git interpret-trailers --parse` print them. */
export function parseTrailerLines(text: string): { key: string; value: string }[] {
  const trailers: { key: string; value: string }[] = [];
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z0-9-]+)\s*:\s?(.*)$/.exec(line);
    if (match) trailers.push({ key: match[1]!, value: match[2]!.trim() });
  }
  return trailers;
}

export async function mergeBase(repo: GitRepo, a: string, b: string): Promise<string | undefined> {
  try {
    return (await repo.git.raw(['merge-base', a, b])).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The upstream of the current branch, when it has one. */
export async function upstreamOf(repo: GitRepo, rev = 'HEAD'): Promise<string | undefined> {
  try {
    const out = await repo.git.raw(['rev-parse', '--abbrev-ref', '--symbolic-full-name', `${rev === 'HEAD' ? '' : rev}@{upstream}`]);
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The remote's default branch (origin/HEAD), else origin/main or origin/master; with
 * `includeLocal`, else local main or master.
 */
export async function defaultBranch(repo: GitRepo, includeLocal: boolean): Promise<string | undefined> {
  try {
    const out = (await repo.git.raw(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'])).trim();
    if (out) return out.replace(/^refs\/remotes\//, '');
  } catch {
    // origin/HEAD is not set in every clone; the usual names follow.
  }
  for (const name of includeLocal ? ['origin/main', 'origin/master', 'main', 'master'] : ['origin/main', 'origin/master']) {
    if (await resolveCommit(repo, name)) return name;
  }
  return undefined;
}

/** The directory git runs hooks from (core.hooksPath aware), absolute. */
export async function hooksDir(repo: GitRepo): Promise<string> {
  const out = (await raw(repo, ['rev-parse', '--git-path', 'hooks'])).trim();
  return path.resolve(repo.topLevel, out);
}

export async function configValue(repo: GitRepo, key: string): Promise<string | undefined> {
  try {
    return (await repo.git.raw(['config', '--get', key])).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sets a key in the repository's own config (.git/config), as `git config <key> <value>` does.
 * Spawned directly: simple-git refuses to write keys that name commands (merge drivers), which
 * is exactly what the caller means to write.
 */
export async function setConfigValue(repo: GitRepo, key: string, value: string): Promise<void> {
  const args = ['config', '--local', key, value];
  await new Promise<void>((resolve, reject) => {
    execFile('git', args, { cwd: repo.topLevel }, (error, _stdout, stderr) => (error ? reject(gitError(args, new Error(stderr || error.message))) : resolve()));
  });
}

/** Removes a section of the repository's own config; a section that is not there is no error. */
export async function removeConfigSection(repo: GitRepo, section: string): Promise<boolean> {
  try {
    await repo.git.raw(['config', '--local', '--remove-section', section]);
    return true;
  } catch {
    return false;
  }
}

/** Adds a trailer to a message file the way git does (`git interpret-trailers`), unless one with that key is there. */
export async function addTrailerIfAbsent(repo: GitRepo, file: string, key: string, value: string): Promise<void> {
  await raw(repo, ['interpret-trailers', '--in-place', '--if-exists', 'doNothing', '--trailer', `${key}: ${value}`, file]);
}

/** The trailers of a message file, as git parses them. */
export async function messageTrailers(repo: GitRepo, file: string): Promise<{ key: string; value: string }[]> {
  return parseTrailerLines(await raw(repo, ['interpret-trailers', '--parse', file]));
}
