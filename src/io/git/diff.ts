import { LessonsError, UsageError } from '../../errors.js';
import { uniqueSorted } from '../../util/compare.js';
import { git, spawnGit } from './run.js';

export interface DiffSection {
  /** What the section holds, like `committed since main` or `uncommitted`. */
  label: string;
  text: string;
}

/** What a review looks at: the diff in sections, the commit messages, the paths touched. */
export interface ChangeSet {
  base: string | null;
  sections: DiffSection[];
  commitMessages: string;
  paths: string[];
}

const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-renames'];
/** A diff bigger than this is not read whole; the prompt budget is far smaller anyway. */
const MAX_GIT_OUTPUT = 64 * 1024 * 1024;

/** Text output with paths unquoted (`--name-only` without `-z` would quote non-ASCII names). */
function diffText(root: string, args: string[]): Promise<string> {
  return git(root, ['-c', 'core.quotepath=false', ...args], { maxBytes: MAX_GIT_OUTPUT });
}

async function succeeds(root: string, args: string[]): Promise<boolean> {
  return (await spawnGit(root, args)).exitCode === 0;
}

function names(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

/**
 * The change to review. With a base: `git diff <base>...HEAD` (what the branch added since it
 * left the base) and the messages of those commits. Always: what is not committed yet,
 * staged and unstaged (`git diff HEAD`, or the index and the work tree before a first commit).
 */
export async function collectChanges(root: string, base: string | undefined): Promise<ChangeSet> {
  if (!(await succeeds(root, ['rev-parse', '--is-inside-work-tree']))) {
    throw new LessonsError('GIT', 'not inside a git work tree: `lessons review` reviews a git diff; run it in a clone (or pass -C <dir>)');
  }
  const hasHead = await succeeds(root, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  const sections: DiffSection[] = [];
  const paths: string[] = [];
  let commitMessages = '';
  if (base !== undefined) {
    if (!hasHead) throw new UsageError(`--base ${base}: the repository has no commits yet; commit first or leave out --base`);
    if (!(await succeeds(root, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`]))) {
      throw new UsageError(`unknown base \`${base}\`: pass a branch, tag or commit that exists here (in CI, fetch it first: git fetch origin ${base})`);
    }
    const range = `${base}...HEAD`;
    sections.push({ label: `committed since ${base}`, text: await diffText(root, ['diff', ...DIFF_FLAGS, range]) });
    paths.push(...names(await diffText(root, ['diff', '--name-only', ...DIFF_FLAGS, range])));
    commitMessages = await diffText(root, ['log', '--no-color', '--format=%B%n', `${base}..HEAD`]);
  }
  if (hasHead) {
    sections.push({ label: 'uncommitted (staged and unstaged)', text: await diffText(root, ['diff', ...DIFF_FLAGS, 'HEAD']) });
    paths.push(...names(await diffText(root, ['diff', '--name-only', ...DIFF_FLAGS, 'HEAD'])));
  } else {
    sections.push({ label: 'staged', text: await diffText(root, ['diff', '--cached', ...DIFF_FLAGS]) });
    sections.push({ label: 'unstaged', text: await diffText(root, ['diff', ...DIFF_FLAGS]) });
    paths.push(...names(await diffText(root, ['diff', '--cached', '--name-only', ...DIFF_FLAGS])), ...names(await diffText(root, ['diff', '--name-only', ...DIFF_FLAGS])));
  }
  return { base: base ?? null, sections: sections.filter((section) => section.text.trim() !== ''), commitMessages: commitMessages.trim(), paths: uniqueSorted(paths) };
}
