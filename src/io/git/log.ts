import type { GitRepo } from './repo.js';
import { FIELD, RECORD, git, gitAnswer, gitFailed, spawnGit } from './run.js';

export interface CommitInfo {
  sha: string;
  parents: string[];
  subject: string;
  /** Trailers as git parses them (`%(trailers:only,unfold)`), in message order. */
  trailers: { key: string; value: string }[];
}

/** The commits reachable from `head` and not from `base`, oldest first, with git's own trailer parsing. */
export async function commitsInRange(repo: GitRepo, base: string | undefined, head: string): Promise<CommitInfo[]> {
  const range = base === undefined ? [head] : [`${base}..${head}`];
  const format = ['%H', '%P', '%s', '%(trailers:only,unfold)'].join('%x1f') + '%x1e';
  const out = await git(repo.topLevel, ['log', '--reverse', `--format=${format}`, ...range, '--']);
  return out
    .split(RECORD)
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record !== '')
    .map((record) => {
      const [sha = '', parents = '', subject = '', trailerText = ''] = record.split(FIELD);
      return { sha, parents: parents.split(' ').filter(Boolean), subject, trailers: parseTrailerLines(trailerText) };
    });
}

/** `Key: value` lines as `%(trailers:only,unfold)` and `git interpret-trailers --parse` print them. */
export function parseTrailerLines(text: string): { key: string; value: string }[] {
  const trailers: { key: string; value: string }[] = [];
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z0-9-]+)\s*:\s?(.*)$/.exec(line);
    if (match) trailers.push({ key: match[1]!, value: match[2]!.trim() });
  }
  return trailers;
}

/** Adds a trailer to a message file the way git does (`git interpret-trailers`), unless one with that key is there. */
export async function addTrailerIfAbsent(repo: GitRepo, file: string, key: string, value: string): Promise<void> {
  await git(repo.topLevel, ['interpret-trailers', '--in-place', '--if-exists', 'doNothing', '--trailer', `${key}: ${value}`, file]);
}

/** The trailers of a message file, as git parses them. */
export async function messageTrailers(repo: GitRepo, file: string): Promise<{ key: string; value: string }[]> {
  return parseTrailerLines(await git(repo.topLevel, ['interpret-trailers', '--parse', file]));
}

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

function toDate(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** Whether `root` is in a git repository that has a commit (so that `git log` has a history to read). */
async function hasHistory(root: string): Promise<boolean> {
  return (await gitAnswer(root, ['rev-parse', '--verify', '--quiet', 'HEAD'])) !== undefined;
}

/**
 * `git <args>`'s output when `probe` (a git question asked beside it) says there is something to
 * read, else undefined. Both git calls start at once, before this returns: a caller that goes on
 * with work of its own while they run waits for neither.
 */
async function outputIf(probe: Promise<boolean>, root: string, args: readonly string[]): Promise<string | undefined> {
  const [wanted, out] = await Promise.all([probe, spawnGit(root, args)]);
  if (!wanted) return undefined;
  if (out.exitCode !== 0) throw gitFailed(args, out.stderr);
  return out.stdout.toString('utf8');
}

/** outputIf() there is a history to read. */
function logIfHistory(root: string, args: readonly string[]): Promise<string | undefined> {
  return outputIf(hasHistory(root), root, args);
}

/**
 * Every commit reachable from HEAD, newest first, with its trailers. Undefined when `root` is
 * not in a git repository or it has no commits yet; any other git failure is an error.
 */
export async function commitLog(root: string): Promise<LoggedCommit[] | undefined> {
  const output = await logIfHistory(root, ['log', `--format=%H${FIELD}%ct${FIELD}%s${FIELD}%(trailers:only,unfold)${RECORD}`]);
  if (output === undefined) return undefined;
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

/** The changes of the commits reachable from HEAD committed in [since, until]; undefined outside git or before the first commit. */
export async function changesBetweenDates(root: string, since: Date, until: Date): Promise<RecentChanges | undefined> {
  const output = await logIfHistory(root, [
    '-c',
    'core.quotePath=false',
    'log',
    `--since=@${Math.floor(since.getTime() / 1000)}`,
    `--until=@${Math.floor(until.getTime() / 1000)}`,
    '--relative',
    '--name-only',
    `--format=${RECORD}%s`,
  ]);
  if (output === undefined) return undefined;
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
  const inGit = gitAnswer(root, ['rev-parse', '--show-toplevel']).then((top) => top !== undefined);
  const output = await outputIf(inGit, root, ['-c', 'core.quotePath=false', 'ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  return output?.split('\0').filter((name) => name !== '');
}
