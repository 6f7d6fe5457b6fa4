import { simpleGit } from 'simple-git';
import { parseTrailerLines } from './git.js';

/** One commit of the history the report reads. */
export interface LoggedCommit {
  commit: string;
  /** Committer time, milliseconds since the epoch. */
  time: number;
  /** Committer date in UTC, YYYY-MM-DD. */
  date: string;
  subject: string;
  /** Trailers as git parses them, in message order. */
  trailers: { key: string; value: string }[];
}

const FIELD = '\x1f';
const RECORD = '\x1e';

function toDate(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/**
 * Every commit reachable from HEAD, newest first, with its trailers. Undefined when `root` is
 * not in a git repository or it has no commits yet.
 */
export async function commitLog(root: string): Promise<LoggedCommit[] | undefined> {
  let output: string;
  try {
    output = await simpleGit(root).raw(['log', `--format=%H${FIELD}%ct${FIELD}%s${FIELD}%(trailers:only,unfold)${RECORD}`]);
  } catch {
    return undefined;
  }
  const commits: LoggedCommit[] = [];
  for (const record of output.split(RECORD)) {
    const [commit, seconds, subject = '', trailers = ''] = record.replace(/^\n/, '').split(FIELD);
    if (!commit || !seconds) continue;
    const time = Number(seconds) * 1000;
    commits.push({ commit, time, date: toDate(time), subject, trailers: parseTrailerLines(trailers) });
  }
  return commits;
}

/** What the repository changed in a window of time: the files (relative to `root`) and the commit subjects. */
export interface RecentChanges {
  files: string[];
  subjects: string[];
}

/** The changes of the commits reachable from HEAD committed in [since, until]; undefined outside git. */
export async function changesBetweenDates(root: string, since: Date, until: Date): Promise<RecentChanges | undefined> {
  let output: string;
  try {
    output = await simpleGit(root).raw([
      '-c',
      'core.quotePath=false',
      'log',
      `--since=@${Math.floor(since.getTime() / 1000)}`,
      `--until=@${Math.floor(until.getTime() / 1000)}`,
      '--relative',
      '--name-only',
      `--format=${RECORD}%s`,
    ]);
  } catch {
    return undefined;
  }
  const files = new Set<string>();
  const subjects: string[] = [];
  for (const record of output.split(RECORD)) {
    const [subject, ...names] = record.split('\n');
    if (subject === undefined || (subject === '' && names.length === 0)) continue;
    subjects.push(subject);
    for (const name of names) if (name !== '') files.add(name);
  }
  return { files: [...files], subjects };
}

/** The files git knows under `root` (tracked, and untracked but not ignored), relative to it; undefined outside git. */
export async function repositoryFiles(root: string): Promise<string[] | undefined> {
  try {
    const output = await simpleGit(root).raw(['-c', 'core.quotePath=false', 'ls-files', '-z', '--cached', '--others', '--exclude-standard']);
    return output.split('\0').filter((name) => name !== '');
  } catch {
    return undefined;
  }
}
