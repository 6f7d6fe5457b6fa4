import { git, splitZ } from './run.js';
import type { GitRepo } from './repo.js';
import { treeFiles } from './tree.js';

/** What `git diff --name-status` says happened to one file. */
export interface ChangedFile {
  status: 'A' | 'M' | 'D' | 'T';
  path: string;
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
  return parseNameStatus(await git(repo.topLevel, ['diff', '--cached', '--name-status', '--no-renames', '-z']));
}

/** One file a change (the next commit, or a range) touches, with the blob of each side that is a regular file. */
export interface StagedChange {
  /** A (added), M (modified), D (deleted), T (type changed) or U (unmerged: its staged side is unknown). */
  status: string;
  path: string;
  /** HEAD's blob, when HEAD holds a regular file there. */
  before?: string;
  /** The staged blob, when the index holds a regular file there. */
  after?: string;
}

const ZERO = /^0+$/;

/**
 * The index against HEAD with each side's blob id (`git diff --cached --raw`): entries
 * `:<mode> <mode> <blob> <blob> <status>` NUL `<path>` NUL, renames off.
 */
export async function stagedBlobChanges(repo: GitRepo): Promise<StagedChange[]> {
  return rawChanges(await git(repo.topLevel, ['diff', '--cached', '--raw', '--no-renames', '--no-abbrev', '-z']));
}

/** The files changed between two commits, with each side's blob id (`git diff --raw`). */
export async function blobChangesBetween(repo: GitRepo, base: string, head: string): Promise<StagedChange[]> {
  return rawChanges(await git(repo.topLevel, ['diff', '--raw', '--no-renames', '--no-abbrev', '-z', base, head, '--']));
}

function rawChanges(out: string): StagedChange[] {
  const parts = splitZ(out);
  const changes: StagedChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [modeBefore, modeAfter, before, after, status] = parts[i]!.slice(1).split(' ');
    const change: StagedChange = { status: status!.charAt(0), path: parts[i + 1]! };
    if (modeBefore!.startsWith('100') && !ZERO.test(before!)) change.before = before!;
    if (modeAfter!.startsWith('100') && !ZERO.test(after!)) change.after = after!;
    changes.push(change);
  }
  return changes;
}

/** The staged changes in the shape of `--name-status` (what the gates read as the changed paths). */
export function nameStatus(changes: readonly StagedChange[]): ChangedFile[] {
  return changes.flatMap((change) => {
    const status = change.status;
    return status === 'A' || status === 'M' || status === 'D' || status === 'T' ? [{ status, path: change.path }] : [];
  });
}

/** The tree the index would commit (`git write-tree`): the same id for the same staged content. */
export async function stagedTree(repo: GitRepo): Promise<string> {
  return (await git(repo.topLevel, ['write-tree'])).trim();
}

/** Files changed between two commits; `base` undefined means since the repository began. */
export async function changesBetween(repo: GitRepo, base: string | undefined, head: string): Promise<ChangedFile[]> {
  if (base !== undefined) return parseNameStatus(await git(repo.topLevel, ['diff', '--name-status', '--no-renames', '-z', base, head, '--']));
  const files = await treeFiles(repo, head, []);
  return files.map((file) => ({ status: 'A' as const, path: file.path }));
}

/** Tracked files that differ between the working tree and `base` (the empty tree when undefined), plus untracked ones. */
export async function worktreeChanges(repo: GitRepo, base: string | undefined): Promise<ChangedFile[]> {
  const tracked = base === undefined ? [] : parseNameStatus(await git(repo.topLevel, ['diff', '--name-status', '--no-renames', '-z', base, '--']));
  const listing = base === undefined ? ['--cached', '--others'] : ['--others'];
  const others = splitZ(await git(repo.topLevel, ['ls-files', ...listing, '--exclude-standard', '-z']));
  return [...tracked, ...others.map((file) => ({ status: 'A' as const, path: file }))];
}
