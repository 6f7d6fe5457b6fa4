/**
 * The temporary copy of a repository that `lessons doctor --run-hooks` runs the hooks in: a new
 * git repository holding the working tree's files as they are now (tracked and untracked, what
 * .gitignore leaves out left out), the lessons state without its sessions, and a link to the
 * project's node_modules, so a hook finds the same `lessons` binary and the same scripts. The
 * repository's object store is the copy's alternate, so committing the copy writes only what is
 * not committed yet.
 * Receipts, sessions, caches and drafts the hooks write land in the copy, never in the user's
 * repository.
 */
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { git, inheritedRepositoryVariables, splitZ } from '../io/git/run.js';
import { copyFile, copyTree, makeDir, makeSymlink, makeTempDir, pathExists, pathKind, realPath, removeTree } from '../io/paths.js';
import { writeFileAtomic } from '../io/fs.js';
import { STATE_DIR } from '../io/repo.js';


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
  // Inside a git hook these name the user's repository: the copy's commits and the hooks would write there.
  const inherited = inheritedRepositoryVariables();
  if (inherited.length > 0) throw new LessonsError('USAGE', `${inherited.join(', ')} ${inherited.length === 1 ? 'is' : 'are'} set (run from a git hook?), so git would write in your repository: run \`lessons doctor --run-hooks\` from a plain shell`);
  const dir = realPath(makeTempDir('lessons-doctor-'));
  try {
    const files = splitZ(await git(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']));
    const made = new Set<string>();
    for (const file of [...new Set(files)]) {
      // A tracked file deleted in the working tree is not there to copy; a folder is a submodule,
      // whose git folder the copy cannot reach; node_modules is linked below.
      const kind = pathKind(path.join(root, file));
      if (file.startsWith('node_modules/') || kind === 'missing' || kind === 'directory') continue;
      const to = path.join(dir, file);
      const folder = path.dirname(to);
      if (!made.has(folder)) {
        makeDir(folder);
        made.add(folder);
      }
      if (kind === 'file') copyFile(path.join(root, file), to);
      else copyTree(path.join(root, file), to);
    }
    if (pathExists(path.join(root, STATE_DIR))) copyTree(path.join(root, STATE_DIR), path.join(dir, STATE_DIR));
    removeTree(path.join(dir, STATE_DIR, 'sessions'));
    if (pathExists(path.join(root, 'node_modules'))) makeSymlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    if (!pathExists(path.join(dir, '.gitignore'))) writeFileAtomic(path.join(dir, '.gitignore'), `${STATE_DIR}/\nnode_modules\n`);
    await git(dir, ['init', '-q']);
    // The repository's objects are the copy's alternates: what is committed there is not compressed
    // and written again (git only reads through an alternate, never writes).
    const objects = path.resolve(root, (await git(root, ['rev-parse', '--git-path', 'objects'])).trim());
    if (pathExists(objects)) writeFileAtomic(path.join(dir, '.git/objects/info/alternates'), `${objects}\n`);
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
