import { simpleGit } from 'simple-git';

/** The lesson ids one commit's `Lessons-Preflight:` trailers name (`none` names none). */
export interface PreflightTrailer {
  commit: string;
  /** Committer date, YYYY-MM-DD. */
  date: string;
  ids: string[];
}

const FIELD = '\x1f';
const RECORD = '\x1e';
const VALUE = '\x1d';

/**
 * Every commit reachable from HEAD that carries a `Lessons-Preflight:` trailer, newest first.
 * Undefined when `root` is not in a git repository or it has no commits yet.
 */
export async function preflightTrailers(root: string): Promise<PreflightTrailer[] | undefined> {
  let output: string;
  try {
    output = await simpleGit(root).raw([
      'log',
      `--format=%H${FIELD}%cs${FIELD}%(trailers:key=Lessons-Preflight,valueonly,separator=%x1d)${RECORD}`,
    ]);
  } catch {
    return undefined;
  }
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
