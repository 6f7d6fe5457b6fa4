import type { GitRepo } from './repo.js';
import { FIELD, RECORD, VALUE, git, gitAnswer } from './run.js';

export interface CommitInfo {
  sha: string;
  parents: string[];
  subject: string;
  /** Trailers as git parses them (`%(trailers:only,unfold)`), in message order. */
  trailers: { key: string; value: string }[];
}

/** The lesson ids one commit's `Lessons-Preflight:` trailers name (`none` names none). */
export interface PreflightTrailer {
  commit: string;
  /** Committer date, YYYY-MM-DD. */
  date: string;
  ids: string[];
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

/**
 * Every commit reachable from HEAD that carries a `Lessons-Preflight:` trailer, newest first.
 * Undefined when `root` is not in a git repository or it has no commits yet; any other git
 * failure is an error.
 */
export async function preflightTrailers(root: string): Promise<PreflightTrailer[] | undefined> {
  if ((await gitAnswer(root, ['rev-parse', '--verify', '--quiet', 'HEAD'])) === undefined) return undefined;
  const output = await git(root, ['log', `--format=%H${FIELD}%cs${FIELD}%(trailers:key=Lessons-Preflight,valueonly,separator=%x1d)${RECORD}`]);
  const trailers: PreflightTrailer[] = [];
  for (const record of output.split(RECORD)) {
    const [commit, date, values] = record.trim().split(FIELD);
    if (!commit || !date || !values) continue;
    const ids = values
      .split(VALUE)
      .flatMap((value) => value.split(/[\s,]+/))
      .filter((id) => id !== '' && id.toLowerCase() !== 'none');
    trailers.push({ commit, date, ids: [...new Set(ids)] });
  }
  return trailers;
}
