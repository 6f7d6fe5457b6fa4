import type { GitRepo } from './repo.js';
import { git } from './run.js';

/** Lines one commit added to one file, one hunk: what a history scan reads of it. */
export interface AddedHunk {
  commit: string;
  /** Repository-relative POSIX path of the file after the commit. */
  path: string;
  /** The file line of the first added line. */
  line: number;
  lines: string[];
}

const COMMIT_MARK = '\x1eCOMMIT ';

/** `+++ b/<path>` as git prints it: C-quoted when the path holds unusual bytes. */
function patchPath(header: string): string | undefined {
  const raw = header.slice(4);
  if (raw === '/dev/null') return undefined;
  if (!raw.startsWith('"')) return raw.startsWith('b/') ? raw.slice(2) : raw;
  const unquoted = JSON.parse(raw.replace(/\\([0-7]{3})/g, (_all, octal: string) => `\\u00${parseInt(octal, 8).toString(16).padStart(2, '0')}`)) as string;
  // Octal escapes are bytes of UTF-8: read them back as such.
  const text = Buffer.from(unquoted, 'latin1').toString('utf8');
  return text.startsWith('b/') ? text.slice(2) : text;
}

/**
 * The lines each commit of `base..head` (all of head's history without a base) added to the
 * files under `pathspecs`, hunk by hunk, from one `git log -p -U0`: no context lines, no
 * renames (a moved file's lines count as added), binary files and merge commits' own diffs left
 * out (a merge's sides are commits of the range themselves).
 */
export async function addedLinesInRange(repo: GitRepo, base: string | undefined, head: string, pathspecs: readonly string[]): Promise<AddedHunk[]> {
  const range = base === undefined ? [head] : [`${base}..${head}`];
  const out = await git(repo.topLevel, ['-c', 'core.quotePath=true', 'log', '--reverse', '-p', '-U0', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv', `--format=${COMMIT_MARK}%H`, ...range, '--', ...pathspecs]);
  const hunks: AddedHunk[] = [];
  let commit = '';
  let path: string | undefined;
  let current: AddedHunk | undefined;
  for (const line of out.split('\n')) {
    if (line.startsWith(COMMIT_MARK)) {
      commit = line.slice(COMMIT_MARK.length);
      path = undefined;
      current = undefined;
    } else if (line.startsWith('diff --git ')) {
      path = undefined;
      current = undefined;
    } else if (line.startsWith('+++ ') && current === undefined) {
      path = patchPath(line);
    } else if (line.startsWith('@@ ')) {
      const start = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      current = path !== undefined && start ? { commit, path, line: Number(start[1]), lines: [] } : undefined;
      if (current) hunks.push(current);
    } else if (line.startsWith('+') && current) {
      current.lines.push(line.slice(1));
    }
  }
  return hunks.filter((hunk) => hunk.lines.length > 0);
}
