/**
 * `lessons ask`: before an agent asks a human, look for the answer in the lessons and
 * references/. Word matching finds the excerpts; with the reviewer configured
 * (policy review.enabled) it decides, from those excerpts only, whether they answer the
 * question. `lessons ask --record` keeps a human's answer (record.ts) so the next `ask` finds it.
 */
import { UsageError } from '../errors.js';
import { buildIndex } from '../index/build.js';
import { findRepoRoot } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { loadPolicy } from '../policy/validate-policy.js';
import type { ReviewerProblem } from '../review/findings.js';
import { answerQuestions, type AskAnswer } from './search.js';
import { lessonDocs, referenceDocs } from './sources.js';

export { ANSWERS_DIR, MIN_ANSWER_CHARS, recordAnswer, type RecordResult } from './record.js';

export interface AskResult {
  /** Who decided answered / unanswered. */
  method: 'reviewer' | 'words';
  /** Set when the reviewer is configured but failed: word matching decided instead. */
  reviewer_problem: ReviewerProblem | null;
  questions: AskAnswer[];
}

export async function askQuestions(options: { cwd: string; questions: string[]; perQuestion?: number; reviewer?: boolean }): Promise<AskResult> {
  const questions = options.questions.map((question) => question.trim()).filter(Boolean);
  if (questions.length === 0) throw new UsageError('no question: lessons ask "<question>" ["<question>" ...]');
  const root = findRepoRoot(options.cwd);
  const policy = loadPolicy(root);
  const local = buildIndex(loadLessons(root).lessons).lessons;
  // The sources' lessons as they are checked out: an answer is not committed, so no lock is needed.
  const fromSources = policy.sources.length === 0 ? [] : (await import('../sources/entries.js')).sourceEntriesBeside(root, policy, local, { locked: false });
  const docs = [...lessonDocs([...local, ...fromSources]), ...referenceDocs(root)];
  const found = answerQuestions(docs, questions, options.perQuestion);
  if (options.reviewer === false) return { method: 'words', reviewer_problem: null, questions: found };
  const { review } = policy;
  if (!review.enabled && options.reviewer !== true) return { method: 'words', reviewer_problem: null, questions: found };
  const { decideWithReviewer } = await import('./decide.js');
  const decided = await decideWithReviewer({ root, review, found });
  if (!decided.ok) return { method: 'words', reviewer_problem: decided.problem, questions: found };
  return { method: 'reviewer', reviewer_problem: null, questions: decided.answers };
}
