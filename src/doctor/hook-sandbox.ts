/**
 * The temporary copy of a repository that `lessons doctor --run-hooks` runs the hooks in: a new
 * git repository holding copies of what the hooks read (lessons/, policy/, the harness settings,
 * the lessons state without its sessions, hook-manager configs) and a link to the project's
 * node_modules, so a hook finds the same `lessons` binary. Receipts, sessions, caches and drafts
 * the hooks write land in the copy, never in the user's repository.
 */
import path from 'node:path';
import { git } from '../io/git/run.js';
import { copyTree, makeSymlink, makeTempDir, pathExists, realPath, removeTree } from '../io/paths.js';
import { writeFileAtomic } from '../io/fs.js';
import { STATE_DIR } from '../io/repo.js';

/** What is copied when it exists; the rest of the working tree is not needed to answer an event. */
const COPIED = ['lessons', 'policy', STATE_DIR, '.claude', '.codex', '.cursor', '.husky', 'package.json', '.pre-commit-config.yaml', 'lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.gitignore'];

/** A fixed identity and no signing: the copy's commits are the doctor's, not the user's. */
const IDENTITY = ['-c', 'user.name=lessons doctor', '-c', 'user.email=doctor@lessons.invalid', '-c', 'commit.gpgsign=false'];

export interface Sandbox {
  dir: string;
  /** The commit holding the copy. */
  base: string;
  /** Commits what is staged with `message`, the hooks skipped; returns the new commit. */
  commit(message: string): Promise<string>;
  remove(): void;
}

export async function makeSandbox(root: string): Promise<Sandbox> {
  const dir = realPath(makeTempDir('lessons-doctor-'));
  try {
    for (const name of COPIED) if (pathExists(path.join(root, name))) copyTree(path.join(root, name), path.join(dir, name));
    removeTree(path.join(dir, STATE_DIR, 'sessions'));
    if (pathExists(path.join(root, 'node_modules'))) makeSymlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    if (!pathExists(path.join(dir, '.gitignore'))) writeFileAtomic(path.join(dir, '.gitignore'), `${STATE_DIR}/\nnode_modules\n`);
    await git(dir, ['init', '-q']);
    await git(dir, ['add', '-A']);
    const commit = async (message: string): Promise<string> => {
      await git(dir, [...IDENTITY, 'commit', '-q', '--no-verify', '--allow-empty', '-m', message]);
      return (await git(dir, ['rev-parse', 'HEAD'])).trim();
    };
    const base = await commit('lessons doctor: a copy of the repository\'s lessons');
    return { dir, base, commit, remove: () => removeTree(dir) };
  } catch (error) {
    removeTree(dir);
    throw error;
  }
}
