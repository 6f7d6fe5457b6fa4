import { isLessonsError } from '../errors.js';
import type { Snapshot } from '../guard/snapshot.js';
import type { Policy } from '../policy/policy.js';
import type { HeadSearch } from '../guard/head-search.js';
import { EVALS_FILE, parseEvals } from './file.js';
import { evaluate, type EvalResult } from './run.js';

/** What the guard's retrieval gate judges: the evals' result, or why they could not run. */
export type RetrievalOutcome = { file: string; result: EvalResult } | { file: string; error: string };

/**
 * Runs lessons/evals.json of a guard side (a commit, the staged tree, the working tree)
 * against that side's own lessons (`search`, with the fetched sources beside them); undefined
 * when the side has no evals file.
 */
export async function evaluateSnapshot(snapshot: Snapshot, search: HeadSearch, policy: Policy, now: Date): Promise<RetrievalOutcome | undefined> {
  const bytes = (await snapshot.readFiles([EVALS_FILE])).get(EVALS_FILE);
  if (bytes === undefined) return undefined;
  try {
    const evals = parseEvals(Buffer.from(bytes).toString('utf8'), EVALS_FILE);
    const { index, digest } = await search.open();
    return { file: EVALS_FILE, result: evaluate(evals, index, digest, policy, now) };
  } catch (error) {
    if (isLessonsError(error)) return { file: EVALS_FILE, error: error.message };
    throw error;
  }
}
