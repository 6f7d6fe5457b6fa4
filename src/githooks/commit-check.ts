/**
 * Whether the pre-commit check ran for the commit being made. Git runs prepare-commit-msg even
 * under `git commit --no-verify` and tells it nothing about the flag (husky and the pre-commit
 * framework cannot tell either), but --no-verify skips the pre-commit hook. So
 * `lessons guard --stage pre-commit` leaves a mark naming the staged tree, and
 * prepare-commit-msg adds the trailer only for the tree the guard saw. commit-msg, which
 * --no-verify also skips, clears it.
 */
import path from 'node:path';
import { readText, writeFileAtomic } from '../io/fs.js';
import { removeIfExists } from '../io/paths.js';
import { stagedTree } from '../io/git/changes.js';
import type { GitRepo } from '../io/git/repo.js';
import { STATE_DIR } from '../io/repo.js';
import { ensureStateDir } from '../io/state.js';

const MARK_FILE = `${STATE_DIR}/hooks/pre-commit-tree`;

/** Records that the staged tree `tree` (stagedTree(), which a caller may start before its check to run beside it) was checked. */
export async function markPreCommitChecked(root: string, tree: Promise<string>): Promise<void> {
  ensureStateDir(root);
  writeFileAtomic(path.join(root, MARK_FILE), `${await tree}\n`);
}

export async function preCommitChecked(root: string, repo: GitRepo): Promise<boolean> {
  let mark: string;
  try {
    mark = readText(path.join(root, MARK_FILE)).trim();
  } catch {
    return false;
  }
  return mark !== '' && mark === (await stagedTree(repo));
}

export function clearPreCommitMark(root: string): void {
  removeIfExists(path.join(root, MARK_FILE));
}
