/**
 * `lessons preflight --rerank`: the reviewer subprocess reads the task and the lessons preflight
 * selected, and says for each whether it should be used and how it applies
 * (schemas/lesson-rerank.schema.json). Only what it approves is kept, with its reason. A reviewer
 * that fails leaves the plain ranking in place, and the outcome says so. Never on the hook path:
 * this module loads ajv and the subprocess code, and only the --rerank command imports it.
 */
import { findRepoRoot } from '../io/repo.js';
import { loadPolicy } from '../policy/validate-policy.js';
import type { ReviewerProblem } from './findings.js';
import { chooseDelimiter, dataBlock, dataPreamble } from './prompt.js';
import { askReviewer } from './run.js';
import type { ReviewPolicy } from '../policy/policy.js';
import type { SelectedLesson } from '../preflight/report.js';

export interface RerankAnswer {
  lessons: { id: string; should_use: boolean; applicability: string; relevance: number }[];
}

export interface RerankOutcome {
  /** `applied`: the reviewer's verdicts were used; `failed`: the plain ranking stands. */
  status: 'applied' | 'failed';
  /** The lessons the reviewer turned down (or did not mention), with its reason. */
  dropped: { id: string; applicability: string }[];
  problem: ReviewerProblem | null;
}

const INSTRUCTIONS = [
  'A developer is about to start the task below. A search over past lessons selected the lessons listed after it.',
  'For each lesson, decide whether it actually applies to this task (should_use: true) or only shares words with',
  'it (false), and say in one sentence how it applies or why not. Judge from the task and the lesson text alone.',
].join('\n');

const ANSWER_SHAPE =
  'Answer with one JSON object and nothing else: {"lessons": [{"id": string, "should_use": boolean, "applicability": string, "relevance": number 0..1}]}, one entry per lesson, by its id.';

export function buildRerankPrompt(task: string, lessons: readonly SelectedLesson[], summary: (id: string) => string): string {
  const listed = lessons
    .map((lesson) => [`${lesson.id} (${lesson.level}, ${lesson.severity}): ${lesson.title}`, `  ${summary(lesson.id)}`, ...lesson.checklist.map((item) => `  - ${item}`)].join('\n'))
    .join('\n\n');
  const token = chooseDelimiter([task, listed]);
  return `${INSTRUCTIONS}\n\n${dataPreamble(token)}\n\n${ANSWER_SHAPE}\n\n${dataBlock(token, 'task', task)}\n${dataBlock(token, 'lessons', listed)}`;
}

/** Keeps the lessons the answer approves, in preflight's order, each with the reviewer's reason first. */
export function applyVerdicts(lessons: readonly SelectedLesson[], answer: RerankAnswer): { kept: SelectedLesson[]; dropped: RerankOutcome['dropped'] } {
  const verdicts = new Map(answer.lessons.map((verdict) => [verdict.id, verdict]));
  const kept: SelectedLesson[] = [];
  const dropped: RerankOutcome['dropped'] = [];
  for (const lesson of lessons) {
    const verdict = verdicts.get(lesson.id);
    if (verdict?.should_use) kept.push({ ...lesson, reasons: [`reviewer: ${verdict.applicability.replace(/\s+/g, ' ').trim()}`, ...lesson.reasons] });
    else dropped.push({ id: lesson.id, applicability: verdict ? verdict.applicability.replace(/\s+/g, ' ').trim() : 'the reviewer did not mention it' });
  }
  return { kept, dropped };
}

export async function rerankLessons(options: {
  root: string;
  review: ReviewPolicy;
  task: string;
  selected: readonly SelectedLesson[];
  summary: (id: string) => string;
}): Promise<{ selected: SelectedLesson[]; outcome: RerankOutcome }> {
  if (options.selected.length === 0) return { selected: [], outcome: { status: 'applied', dropped: [], problem: null } };
  const prompt = buildRerankPrompt(options.task, options.selected, options.summary);
  const answer = await askReviewer({ root: options.root, review: options.review, schema: 'lesson-rerank', prompt });
  if (!answer.ok) return { selected: [...options.selected], outcome: { status: 'failed', dropped: [], problem: answer.problem } };
  const { kept, dropped } = applyVerdicts(options.selected, answer.data as RerankAnswer);
  return { selected: kept, outcome: { status: 'applied', dropped, problem: null } };
}

/** The reranker preflight calls for a task in the repository at `cwd`, with the policy's reviewer. */
export function repositoryReranker(cwd: string, task: string): (selected: SelectedLesson[], summary: (id: string) => string) => Promise<{ selected: SelectedLesson[]; outcome: RerankOutcome }> {
  const root = findRepoRoot(cwd);
  const { review } = loadPolicy(root);
  return async (selected, summary) => rerankLessons({ root, review, task, selected, summary });
}
