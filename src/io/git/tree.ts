import { LessonsError } from '../../errors.js';
import type { GitRepo } from './repo.js';
import { git, gitFailed, spawnGit } from './run.js';

export interface TreeFile {
  path: string;
  blob: string;
}

/**
 * The entries of `-z` output whose fields before the tab are `<mode> … <blob> …` (ls-files
 * --stage: `<mode> <blob> <stage>`; ls-tree: `<mode> <type> <blob>`), read with indexOf: at
 * 100,000 lessons a regular expression per entry costs a tenth of a second.
 */
function regularFiles(out: string, keep: (fields: string[]) => string | undefined, links?: string[]): TreeFile[] {
  const files: TreeFile[] = [];
  let at = 0;
  while (at < out.length) {
    let end = out.indexOf('\0', at);
    if (end === -1) end = out.length;
    const tab = out.indexOf('\t', at);
    if (tab !== -1 && tab < end && out.startsWith('100', at)) {
      const blob = keep(out.slice(at, tab).split(' '));
      if (blob !== undefined) files.push({ blob, path: out.slice(tab + 1, end) });
    } else if (links && tab !== -1 && tab < end && out.startsWith('120000 ', at)) links.push(out.slice(tab + 1, end));
    at = end + 1;
  }
  return files;
}

const HEX = /^[0-9a-f]+$/;

/** Regular files in the index under the given folders (all when empty); the paths of symbolic links go into `links` when given. */
export async function indexFiles(repo: GitRepo, folders: readonly string[], links?: string[]): Promise<TreeFile[]> {
  const out = await git(repo.topLevel, ['--literal-pathspecs', 'ls-files', '--stage', '-z', '--', ...folders]);
  // `<mode> <blob> <stage>`: stage 0 only (a conflicted path has stages 1-3 instead).
  return regularFiles(out, (fields) => (fields.length === 3 && fields[2] === '0' && HEX.test(fields[1]!) ? fields[1] : undefined), links);
}

/** Regular files of a commit's tree under the given folders (all when empty); the paths of symbolic links go into `links` when given. */
export async function treeFiles(repo: GitRepo, commit: string, folders: readonly string[], links?: string[]): Promise<TreeFile[]> {
  const out = await git(repo.topLevel, ['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', commit, '--', ...folders]);
  return regularFiles(out, (fields) => (fields.length === 3 && fields[1] === 'blob' && HEX.test(fields[2]!) ? fields[2] : undefined), links);
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
