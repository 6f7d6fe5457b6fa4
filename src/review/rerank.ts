/**
 * `lessons preflight --rerank`: the reviewer subprocess reads the task and both tiers of what
 * preflight found (the lessons that apply and the related ones, REVIEW_POOL deep), and says for
 * each whether it should be used and how it applies (schemas/lesson-rerank.schema.json). What it
 * approves applies, with its reason: a related lesson it approves is promoted (at most
 * `related_max`, best-ranked first; one approved past them stays listed), an applied one it
 * turns down is dropped, and a related one it turns down is no longer listed. The answer lists
 * at most `related_max` related lessons, as a plain one does. A reviewer that fails leaves the
 * plain ranking in place, and the outcome says so. Never on the hook path:
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
  /** The lessons that applied and the reviewer turned down (or did not mention), with its reason. */
  dropped: { id: string; applicability: string }[];
  /** The related lessons the reviewer found to apply, moved into the apply tier. */
  promoted: string[];
  problem: ReviewerProblem | null;
}

const INSTRUCTIONS = [
  'A developer is about to start the task below. A search over past lessons found the lessons listed after it.',
  'For each lesson, decide whether it actually applies to this task (should_use: true) or only shares words with',
  'it (false), and say in one sentence how it applies or why not. Judge from the task and the lesson text alone.',
].join('\n');

const ANSWER_SHAPE =
  'Answer with one JSON object and nothing else: {"lessons": [{"id": string, "should_use": boolean, "applicability": string, "relevance": number 0..1}]}, one entry per lesson, by its id.';

export function buildRerankPrompt(task: string, lessons: readonly SelectedLesson[], summary: (id: string) => string): string {
  const listed = [...lessons]
    .map((lesson) => [`${lesson.id} (${lesson.level}, ${lesson.severity}): ${lesson.title}`, `  ${summary(lesson.id)}`, ...lesson.checklist.map((item) => `  - ${item}`)].join('\n'))
    .join('\n\n');
  const token = chooseDelimiter([task, listed]);
  return `${INSTRUCTIONS}\n\n${dataPreamble(token)}\n\n${ANSWER_SHAPE}\n\n${dataBlock(token, 'task', task)}\n${dataBlock(token, 'lessons', listed)}`;
}

/** What the reviewer made of both tiers. */
export interface Verdicts {
  /** The lessons that apply now, in preflight's order (applied ones first, then the promoted), each with the reviewer's reason first. */
  kept: SelectedLesson[];
  /** The related lessons it neither approved nor was asked about: still listed as related. */
  related: SelectedLesson[];
  dropped: RerankOutcome['dropped'];
  promoted: string[];
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Sorts both tiers by the answer (see the module comment); at most `promoteMax` related lessons are promoted. */
export function applyVerdicts(lessons: readonly SelectedLesson[], answer: RerankAnswer, related: readonly SelectedLesson[] = [], promoteMax = Number.POSITIVE_INFINITY): Verdicts {
  const verdicts = new Map(answer.lessons.map((verdict) => [verdict.id, verdict]));
  const approved = (lesson: SelectedLesson): SelectedLesson | undefined => {
    const verdict = verdicts.get(lesson.id);
    return verdict?.should_use ? { ...lesson, reasons: [`reviewer: ${oneLine(verdict.applicability)}`, ...lesson.reasons] } : undefined;
  };
  const result: Verdicts = { kept: [], related: [], dropped: [], promoted: [] };
  for (const lesson of lessons) {
    const kept = approved(lesson);
    if (kept) result.kept.push(kept);
    else result.dropped.push({ id: lesson.id, applicability: verdicts.has(lesson.id) ? oneLine(verdicts.get(lesson.id)!.applicability) : 'the reviewer did not mention it' });
  }
  for (const lesson of related) {
    const kept = approved(lesson);
    if (kept && result.promoted.length < promoteMax) {
      result.kept.push(kept);
      result.promoted.push(lesson.id);
    } else if (kept || !verdicts.has(lesson.id)) result.related.push(kept ?? lesson);
  }
  return result;
}

/** What a reranker gives back: both tiers after the reviewer, and what it did. */
export interface Reranked {
  selected: SelectedLesson[];
  related: SelectedLesson[];
  outcome: RerankOutcome;
}

export type Reranker = (selected: SelectedLesson[], related: SelectedLesson[], summary: (id: string) => string) => Promise<Reranked>;

export async function rerankLessons(options: {
  root: string;
  review: ReviewPolicy;
  task: string;
  selected: readonly SelectedLesson[];
  /** The related lessons the reviewer judges, in rank order (REVIEW_POOL of them). */
  related?: readonly SelectedLesson[];
  /** How many related lessons the answer promotes and lists at most: the policy's `related_max`. */
  relatedMax?: number;
  summary: (id: string) => string;
}): Promise<Reranked> {
  const related = [...(options.related ?? [])];
  const relatedMax = options.relatedMax ?? related.length;
  if (options.selected.length === 0 && related.length === 0) return { selected: [], related: [], outcome: { status: 'applied', dropped: [], promoted: [], problem: null } };
  const prompt = buildRerankPrompt(options.task, [...options.selected, ...related], options.summary);
  const answer = await askReviewer({ root: options.root, review: options.review, schema: 'lesson-rerank', prompt });
  if (!answer.ok) return { selected: [...options.selected], related: related.slice(0, relatedMax), outcome: { status: 'failed', dropped: [], promoted: [], problem: answer.problem } };
  const verdicts = applyVerdicts(options.selected, answer.data as RerankAnswer, related, relatedMax);
  return { selected: verdicts.kept, related: verdicts.related.slice(0, relatedMax), outcome: { status: 'applied', dropped: verdicts.dropped, promoted: verdicts.promoted, problem: null } };
}

/** The reranker preflight calls for a task in the repository at `cwd`, with the policy's reviewer. */
export function repositoryReranker(cwd: string, task: string): Reranker {
  const root = findRepoRoot(cwd);
  const { review, preflight } = loadPolicy(root);
  return async (selected, related, summary) => rerankLessons({ root, review, task, selected, related, relatedMax: preflight.related_max, summary });
}
