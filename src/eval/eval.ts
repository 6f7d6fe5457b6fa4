import path from 'node:path';
import { LessonsError } from '../errors.js';
import { readText } from '../io/fs.js';
import { findRepoRoot } from '../io/repo.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { openSearch, type SearchIndex } from '../search/engine.js';
import { EVALS_FILE, parseEvals, type EvalCase } from './file.js';
import type { Policy } from '../policy/policy.js';
import { reviewPolicy, selectFromIndex, type Selection } from '../preflight/preflight.js';
import { isHookMode } from '../preflight/query.js';
import { evaluate, type EvalResult } from './run.js';

export interface EvalOptions {
  cwd: string;
  /** The evals file, relative to `cwd`; default lessons/evals.json in the repository. */
  file?: string | undefined;
  now: Date;
  /** --rerank: each task-mode case's two tiers go through the policy's reviewer first, as `preflight --rerank` does. */
  rerank?: boolean;
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
    if (!options.rerank) return { result: evaluate(evals, opened.index, opened.digest, policy, options.now), warning: opened.warning };
    const reranked = await rerankCases(root, evals.cases, opened.index, policy, options.now);
    const result = evaluate(evals, opened.index, opened.digest, policy, options.now, (evalCase) => reranked.get(evalCase)!);
    return { result: { ...result, rerank: { cases: reranked.judged, failed: reranked.failed } }, warning: opened.warning };
  } finally {
    opened.close();
  }
}

/**
 * One input's selection after the policy's reviewer, as `preflight --rerank` makes it: the
 * related tier REVIEW_POOL deep for the reviewer, at most `related_max` after. Hook mode has no
 * reviewer. `asked`: there was something to judge and the reviewer ran; `failed`: its answer
 * was not usable and the plain ranking stands.
 */
export async function reviewedSelection(root: string, input: EvalCase['input'], index: SearchIndex, policy: Policy, now: Date): Promise<{ selection: Selection; asked: boolean; failed: boolean }> {
  if (isHookMode(input)) return { selection: selectFromIndex(index, input, policy, now), asked: false, failed: false };
  const { rerankLessons } = await import('../review/rerank.js');
  const plain = selectFromIndex(index, input, reviewPolicy(policy), now);
  const summary = (id: string): string => plain.records.get(id)?.summary ?? '';
  const judged = await rerankLessons({ root, review: policy.review, task: input.task, selected: plain.selected, related: plain.related, relatedMax: policy.preflight.related_max, summary });
  return { selection: { ...plain, selected: judged.selected, related: judged.related }, asked: plain.selected.length + plain.related.length > 0, failed: judged.outcome.status === 'failed' };
}

/**
 * Every case's selection after the reviewer (task mode; hook mode has no reviewer), one case
 * at a time: what a team measures its own model with. A failed answer leaves that case's plain ranking.
 */
async function rerankCases(root: string, cases: readonly EvalCase[], index: SearchIndex, policy: Policy, now: Date): Promise<Map<EvalCase, Selection> & { judged: number; failed: number }> {
  const result = Object.assign(new Map<EvalCase, Selection>(), { judged: 0, failed: 0 });
  for (const evalCase of cases) {
    const { selection, failed } = await reviewedSelection(root, evalCase.input, index, policy, now);
    if (!isHookMode(evalCase.input)) result.judged++;
    if (failed) result.failed++;
    result.set(evalCase, selection);
  }
  return result;
}
