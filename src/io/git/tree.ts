import { LessonsError } from '../../errors.js';
import type { GitRepo } from './repo.js';
import { git, gitFailed, spawnGit, splitZ } from './run.js';

export interface TreeFile {
  path: string;
  blob: string;
}

/** Regular files in the index under the given folders (all when empty). */
export async function indexFiles(repo: GitRepo, folders: readonly string[]): Promise<TreeFile[]> {
  const out = await git(repo.topLevel, ['--literal-pathspecs', 'ls-files', '--stage', '-z', '--', ...folders]);
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
  const out = await git(repo.topLevel, ['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', commit, '--', ...folders]);
  const files: TreeFile[] = [];
  for (const entry of splitZ(out)) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (!match || match[2] !== 'blob' || !match[1]!.startsWith('100')) continue;
    files.push({ blob: match[3]!, path: match[4]! });
  }
  return files;
}

/** The contents of many blobs through one `git cat-file --batch` (a process per blob would cost seconds on a thousand lessons). */
export async function readBlobs(repo: GitRepo, blobs: readonly string[]): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(blobs)];
  if (wanted.length === 0) return new Map();
  const args = ['cat-file', '--batch'];
  const result = await spawnGit(repo.topLevel, args, { input: wanted.map((blob) => `${blob}\n`).join('') });
  if (result.exitCode !== 0) throw gitFailed(args, result.stderr || `exit ${result.exitCode}`);
  const out = result.stdout;
  const contents = new Map<string, Buffer>();
  let offset = 0;
  for (const blob of wanted) {
    const end = out.indexOf(0x0a, offset);
    const header = out.subarray(offset, end).toString();
    const size = Number(header.split(' ')[2]);
    if (header.endsWith(' missing') || !Number.isFinite(size)) {
      throw new LessonsError('GIT', `git object ${blob} is missing: the clone is incomplete; run \`git fetch\``);
    }
    contents.set(blob, out.subarray(end + 1, end + 1 + size));
    offset = end + 1 + size + 1;
  }
  return contents;
}
