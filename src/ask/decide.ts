/**
 * The reviewer's verdict on `lessons ask`: given each question and the excerpts word matching
 * found for it, it says whether they answer it (schemas/ask-answer.schema.json), answering only
 * from them and citing them. A citation of anything the prompt did not show is dropped, and an
 * "answered" without a valid citation counts as unanswered.
 */
import type { ReviewPolicy } from '../policy/policy.js';
import type { ReviewerProblem } from '../review/findings.js';
import { chooseDelimiter, dataBlock, dataPreamble } from '../review/prompt.js';
import { askReviewer } from '../review/run.js';
import type { AskAnswer } from './search.js';

interface Verdict {
  question: string;
  status: 'answered' | 'unanswered';
  answer: string;
  citations: string[];
}

const INSTRUCTIONS = [
  'Before asking a person, a developer looked for answers to the questions below in the project\'s own lessons and',
  'reference documents; the excerpts found for each question follow it. For each question decide whether the',
  'excerpts state the answer (answered) or not (unanswered: they are silent, only hint at it, or contradict each',
  'other). Answer only from the excerpts, never from general knowledge, and cite the paths of the excerpts you used.',
].join('\n');

const ANSWER_SHAPE =
  'Answer with one JSON object and nothing else: {"answers": [{"question": string, "status": "answered"|"unanswered", "answer": string, "citations": string[]}]}, one entry per question, in order.';

export function buildAskPrompt(found: readonly AskAnswer[]): string {
  const blocks = found.map((item) =>
    [`Question: ${item.question}`, ...(item.sources.length === 0 ? ['(no excerpt found)'] : item.sources.map((source) => `[${source.path}] ${source.title}\n${source.excerpt}`))].join('\n\n'),
  );
  const token = chooseDelimiter(blocks);
  return `${INSTRUCTIONS}\n\n${dataPreamble(token)}\n\n${ANSWER_SHAPE}\n\n${blocks.map((block, i) => dataBlock(token, `question-${i + 1}`, block)).join('\n')}`;
}

/** Applies the verdicts: answered questions keep the sources they cite; the others keep none. */
export function applyVerdicts(found: readonly AskAnswer[], verdicts: readonly Verdict[]): AskAnswer[] {
  return found.map((item, i) => {
    const verdict = verdicts.find((candidate) => candidate.question.trim() === item.question.trim()) ?? verdicts[i];
    const cited = new Set(verdict?.citations ?? []);
    const sources = item.sources.filter((source) => cited.has(source.path));
    const answered = verdict?.status === 'answered' && verdict.answer.trim() !== '' && sources.length > 0;
    return { ...item, found: answered, answer: answered ? verdict.answer.replace(/\s+/g, ' ').trim() : null, sources: answered ? sources : [] };
  });
}

export async function decideWithReviewer(options: { root: string; review: ReviewPolicy; found: readonly AskAnswer[] }): Promise<{ ok: true; answers: AskAnswer[] } | { ok: false; problem: ReviewerProblem }> {
  const answer = await askReviewer({ root: options.root, review: options.review, schema: 'ask-answer', prompt: buildAskPrompt(options.found) });
  if (!answer.ok) return answer;
  return { ok: true, answers: applyVerdicts(options.found, (answer.data as { answers: Verdict[] }).answers) };
}
