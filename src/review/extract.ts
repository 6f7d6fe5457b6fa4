import type { Draft } from '../capture/store.js';
import { CHECKLIST_HEADING, type Insight, type Severity } from '../lesson/model.js';
import { slugify } from '../lifecycle/new.js';
import type { ReviewPolicy } from '../policy/policy.js';
import type { ReviewerProblem } from './findings.js';
import { byteLength, chooseDelimiter, cutToBytes, dataBlock, dataPreamble } from './prompt.js';
import { askReviewer } from './run.js';

/** What the log shows: an error to generalise into a lesson, or a success to draw a best practice from. */
export type LogOutcome = 'error' | 'success';

/** The answer `schemas/lesson-draft.schema.json` describes, once validated. */
export interface LessonDraftAnswer {
  title: string;
  lesson: string;
  trigger_conditions: string;
  suggested_fix: string;
  checklist: string[];
  type: Insight;
  severity: Severity;
  confidence: number;
  tags: string[];
  keywords: string[];
}

const EXTRACT_INSTRUCTIONS = [
  'Below is the log of an error from a software project. Generalise it into one lesson that would stop the same',
  'mistake in other work: not a retelling of this run, but what to know or check next time. Name the situation in',
  'which it applies, the fix, and a short checklist. Set confidence low (under 0.5) when the log shows no clear,',
  'reusable cause (a flaky network, a typo fixed in passing, too little context). Do not copy secrets, tokens,',
  'host names or personal data from the log into the lesson.',
].join('\n');

const SUCCESS_INSTRUCTIONS = [
  'Below is the log of work in a software project that succeeded. Draw from it one best practice that would help',
  'other work succeed the same way: not a retelling of this run, but what to do or check next time. Name the',
  'situation in which it applies, the practice, and a short checklist. Answer with type "best_practice". Set',
  'confidence low (under 0.5) when the log shows nothing reusable (a routine run, luck, too little context). Do not',
  'copy secrets, tokens, host names or personal data from the log into the lesson.',
].join('\n');

const ANSWER_SHAPE =
  'Answer with one JSON object and nothing else: {"title", "lesson", "trigger_conditions", "suggested_fix": string, "checklist": string[], "type": "critical_error"|"best_practice"|"domain_knowledge", "severity": "low"|"medium"|"high"|"critical", "confidence": number 0..1, "tags": string[], "keywords": string[]}.';

/** The head and the tail of a long log: where commands start and where errors end up. */
export function boundLog(log: string, maxBytes: number): { text: string; cut: boolean } {
  if (byteLength(log) <= maxBytes) return { text: log, cut: false };
  const headBytes = Math.floor(maxBytes / 5);
  const head = cutToBytes(log, headBytes);
  const tailBytes = Buffer.from(log, 'utf8');
  let start = tailBytes.length - (maxBytes - headBytes - 64);
  while (start < tailBytes.length && (tailBytes[start]! & 0xc0) === 0x80) start++;
  return { text: `${head}\n[… ${start - byteLength(head)} bytes of the log cut …]\n${tailBytes.subarray(start).toString('utf8')}`, cut: true };
}

export function buildDraftPrompt(log: string, maxBytes: number, outcome: LogOutcome = 'error'): string {
  const { text } = boundLog(log, Math.max(1024, maxBytes - 2048));
  const token = chooseDelimiter([text]);
  const instructions = outcome === 'error' ? EXTRACT_INSTRUCTIONS : SUCCESS_INSTRUCTIONS;
  return `${instructions}\n\n${dataPreamble(token)}\n\n${ANSWER_SHAPE}\n\n${dataBlock(token, `${outcome}-log`, text)}`;
}

/** Lower-case tags the lesson format accepts, the insight type among them. */
function draftTags(answer: LessonDraftAnswer): string[] {
  const tags = [...answer.tags, answer.type]
    .filter((tag) => /[a-z0-9]/i.test(tag))
    .map((tag) => slugify(tag, 40));
  return [...new Set(tags)];
}

/** The reviewer's confidence (0..1) on the lesson scale (1..5). */
export function lessonConfidence(confidence: number): number {
  return Math.min(5, Math.max(1, Math.round(confidence * 5)));
}

/**
 * The validated answer as a candidate case: sections from its fields, provenance at the end.
 * From a success log the lesson is a best practice whatever type the reviewer chose.
 */
export function draftFromAnswer(answer: LessonDraftAnswer, outcome: LogOutcome = 'error'): Draft {
  const insight: Insight = outcome === 'success' ? 'best_practice' : answer.type;
  const checklist = answer.checklist.map((item) => item.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const body = [
    '## Situation',
    '',
    answer.trigger_conditions.trim(),
    '',
    outcome === 'success' ? '## Practice' : '## Mistake',
    '',
    answer.lesson.trim(),
    '',
    '## Fix',
    '',
    answer.suggested_fix.trim(),
    '',
    `## ${CHECKLIST_HEADING}`,
    '',
    ...(checklist.length === 0 ? ['- [ ] '] : checklist.map((item) => `- [ ] ${item}`)),
    '',
    '## Source',
    '',
    `Drafted by \`lessons capture --from-${outcome}\` from ${outcome === 'error' ? 'an error' : 'a success'} log (${insight.replace(/_/g, ' ')}, reviewer confidence ${answer.confidence.toFixed(2)}). Check it before accepting it.`,
    '',
  ].join('\n');
  const keywords = [...new Set(answer.keywords.map((word) => word.replace(/\s+/g, ' ').trim().toLowerCase()).filter(Boolean))];
  return {
    title: answer.title.replace(/\s+/g, ' ').trim().slice(0, 200),
    summary: answer.lesson.replace(/\s+/g, ' ').trim(),
    tags: draftTags({ ...answer, type: insight }),
    insight,
    severity: answer.severity,
    body,
    triggers: keywords.length === 0 ? {} : { keywords },
    confidence: lessonConfidence(answer.confidence),
  };
}

export type Extraction =
  | { kind: 'draft'; answer: LessonDraftAnswer; draft: Draft }
  | { kind: 'low-confidence'; answer: LessonDraftAnswer; minConfidence: number }
  | { kind: 'problem'; problem: ReviewerProblem };

/** Asks the reviewer to generalise `log` into a lesson; below `min_confidence` there is no draft. */
export async function extractLesson(options: { root: string; review: ReviewPolicy; log: string; outcome?: LogOutcome }): Promise<Extraction> {
  const outcome = options.outcome ?? 'error';
  const prompt = buildDraftPrompt(options.log, options.review.max_prompt_bytes, outcome);
  const answer = await askReviewer({ root: options.root, review: options.review, schema: 'lesson-draft', prompt });
  if (!answer.ok) return { kind: 'problem', problem: answer.problem };
  const draft = answer.data as LessonDraftAnswer;
  if (draft.confidence < options.review.min_confidence || draft.title.trim() === '') {
    return { kind: 'low-confidence', answer: draft, minConfidence: options.review.min_confidence };
  }
  return { kind: 'draft', answer: draft, draft: draftFromAnswer(draft, outcome) };
}
