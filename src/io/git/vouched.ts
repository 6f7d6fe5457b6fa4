import fs from 'node:fs';
import path from 'node:path';
import { spawnGit, type GitOutput } from './run.js';
import { readText } from '../fs.js';

/**
 * Whether git answers for `files` lesson files at less cost than a stat of each: git reads its
 * whole index (every file of the repository) to answer for a few, so in a repository much larger
 * than its lessons (a monorepo) the stats cost less. The index's size over 128 bytes (a short
 * entry) counts its entries from above; git is asked when they are at most 8 times the lessons.
 * With no index found where git would look, or one named by the environment, git is asked.
 */
export function gitAnswersCheaply(cwd: string, files: number): boolean {
  // No index found, or one the environment names: git is asked.
  const index = gitIndexFile(cwd);
  if (index === undefined) return true;
  try {
    return fs.statSync(index).size / 128 <= 8 * files;
  } catch {
    return true;
  }
}

/**
 * The git index file git would use for a working tree at `cwd`: `<git dir>/index`, following the
 * `.git` file of a worktree or a submodule. Undefined outside a working tree, or when the
 * environment names the git folder or the index (git's answer may then differ).
 */
export function gitIndexFile(cwd: string): string | undefined {
  if (process.env.GIT_INDEX_FILE !== undefined || process.env.GIT_DIR !== undefined) return undefined;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    try {
      // A worktree or a submodule has a file naming its git folder.
      const gitDir = fs.statSync(dotGit).isFile() ? path.resolve(dir, /^gitdir: (.+)$/m.exec(readText(dotGit, 'state'))?.[1]?.trim() ?? '.git') : dotGit;
      return path.join(gitDir, 'index');
    } catch {
      if (path.dirname(dir) === dir) return undefined;
    }
  }
}

/**
 * The working-tree files git vouches for, with their blob ids: a file whose content git's own
 * stat check (in C, with its handling of racily clean entries) finds to be what the git index
 * holds needs neither a stat of ours nor a read. At 100,000 lessons git answers in about 0.35 s
 * where a stat of every file and the stat table cost about 1.6 s.
 *
 * Two git calls, run side by side: `git ls-files --stage -v` gives each tracked file's blob,
 * tagged `H` for an ordinary entry (`S` skip-worktree, `M` unmerged, lowercase when marked
 * assume-unchanged, whose stat git no longer looks at); `git diff-files --name-only` names the
 * files whose stat or content is not as the index holds (a deleted one too). A regular file
 * (mode 100644 or 100755) at stage 0, tagged `H`, and not named by diff-files is vouched for.
 * Paths are relative to `cwd`, as the folders are. Undefined when git cannot answer (not a git
 * working tree, git missing, a refused directory): the caller stats the files itself.
 */
export async function gitVouchedBlobs(cwd: string, folders: readonly string[], started?: GitListing): Promise<Map<string, string> | undefined> {
  if (folders.length === 0) return new Map();
  const fresh = started?.listed === undefined ? startGitListing(cwd, folders, { changed: started === undefined }) : undefined;
  const listedRun = started?.listed ?? fresh!.listed;
  const changedRun = started?.changed ?? fresh!.changed;
  let listed;
  let changed;
  try {
    [listed, changed] = await Promise.all([listedRun, changedRun]);
  } catch {
    return undefined;
  }
  if (listed.exitCode !== 0 || changed.exitCode !== 0) return undefined;
  const out = listed.stdout.toString('utf8');
  const vouched = new Map<string, string>();
  let at = 0;
  while (at < out.length) {
    let end = out.indexOf('\0', at);
    if (end === -1) end = out.length;
    // `<tag> <mode> <blob> <stage>\t<path>`, read by position (a split and a pattern per entry cost a tenth of a second at 100,000).
    const tab = out.indexOf('\t', at);
    if (tab !== -1 && tab < end) {
      const blobLength = tab - 2 - (at + 9);
      const vouch =
        (out.startsWith('H 100644 ', at) || out.startsWith('H 100755 ', at)) && out.startsWith(' 0', tab - 2) && (blobLength === 40 || blobLength === 64);
      if (vouch) vouched.set(out.slice(tab + 1, end), out.slice(at + 9, tab - 2));
    }
    at = end + 1;
  }
  for (const path of changed.stdout.toString('utf8').split('\0')) vouched.delete(path);
  return vouched;
}

/** The git calls gitVouchedBlobs() reads, started: each resolves with git's answer, or rejects when git cannot run. */
export interface GitListing {
  /** `git diff-files --name-only` of the folders: the tracked files whose stat or content is not as the git index holds. */
  changed: Promise<GitOutput>;
  /** `git ls-files --stage -v` of the folders, when started. */
  listed?: Promise<GitOutput>;
}

/** Starts the git calls of gitVouchedBlobs() for `folders` (relative to `cwd`, each ending in `/`): diff-files, and ls-files unless `listed` is false. */
export function startGitListing(cwd: string, folders: readonly string[], which: { listed?: boolean; changed?: boolean } = {}): Required<GitListing> {
  const run = (args: string[]): Promise<GitOutput> => {
    const output = spawnGit(cwd, ['--literal-pathspecs', ...args, '--', ...folders]);
    // Whoever reads it handles a failure; one nobody reads is not an unhandled rejection.
    output.catch(() => undefined);
    return output;
  };
  const never = Promise.resolve({ exitCode: 1, stdout: Buffer.alloc(0), stderr: 'not started' });
  return {
    listed: which.listed === false ? never : run(['ls-files', '--stage', '-v', '-z']),
    changed: which.changed === false ? never : run(['diff-files', '--relative', '--name-only', '-z']),
  };
}
