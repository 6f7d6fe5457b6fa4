import path from 'node:path';
import { LessonsError } from '../errors.js';
import { readText } from '../io/fs.js';
import { findRepoRoot } from '../io/repo.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { openSearch } from '../search/cache.js';
import { EVALS_FILE, parseEvals } from './file.js';
import { evaluate, type EvalResult } from './run.js';

export interface EvalOptions {
  cwd: string;
  /** The evals file, relative to `cwd`; default lessons/evals.json in the repository. */
  file?: string | undefined;
  now: Date;
}

export interface EvalRun {
  result: EvalResult;
  /** One line for stderr, e.g. when the index was missing or stale. */
  warning: string | undefined;
}

/** The file's name in messages: repo-relative and POSIX when it is inside the repository. */
function displayName(root: string, file: string): string {
  const relative = path.relative(root, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}

function readEvals(root: string, cwd: string, file: string | undefined): { text: string; name: string } {
  const absolute = file === undefined ? path.join(root, EVALS_FILE) : path.resolve(cwd, file);
  const name = displayName(root, absolute);
  try {
    return { text: readText(absolute, 'evals'), name };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && file === undefined) {
      throw new LessonsError('INVALID_CONFIG', `there is no ${EVALS_FILE}: write one (see "Writing evals" in the README), or name a file: lessons eval <file>`);
    }
    throw new LessonsError('INVALID_CONFIG', `cannot read ${name}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}; check the path`);
  }
}

/** `lessons eval`: the repository's retrieval regression tests, run through preflight's selection. */
export async function runEval(options: EvalOptions): Promise<EvalRun> {
  const root = findRepoRoot(options.cwd);
  const policy = loadPolicy(root);
  const { text, name } = readEvals(root, options.cwd, options.file);
  const evals = parseEvals(text, name);
  const opened = await openSearch(root);
  try {
    return { result: evaluate(evals, opened.index, opened.digest, policy, options.now), warning: opened.warning };
  } finally {
    opened.close();
  }
}
