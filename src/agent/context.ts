/**
 * What an agent hook adds to the model's context at each moment of a session (its start, a
 * prompt, a tool call, the end of a turn) and what it records in the session's state, whatever
 * the harness. Each harness wraps these texts in its own contract (src/harness/<name>/hook.ts).
 */
import type { IndexEntry } from '../index/build.js';
import type { Policy } from '../policy/policy.js';
import type { RelatedLesson, SelectedLesson } from '../preflight/report.js';
import { selectTiersForRequest } from '../preflight/preflight.js';
import { correctionPhrase, recordInstruction } from './correction.js';
import { formatTiers, openCommand, TOOL_CALL_LIMIT } from './format.js';
import { hookIndexEntries, hookPolicy, type Problems } from './health.js';
import type { HookRun, ToolAction } from './input.js';
import { sessionStart } from './moments.js';
import { readSession, updateSession, type SessionState } from './session.js';

const PROMPT_LIMIT = 5;

/** Remembers what was shown; lessons shown for the task (`pending`) are checked at the end of the turn; related entries `listed`. */
export async function record(run: HookRun, sessionId: string | undefined, ids: { shown?: readonly string[]; pending?: readonly string[]; listed?: readonly string[] }): Promise<void> {
  if (sessionId && Object.values(ids).some((list) => list.length > 0)) await updateSession(run.root, sessionId, ids);
}

/** The lessons a session starts with (and the candidates waiting), recorded as shown; '' when there are none. */
export async function sessionStartContext(run: HookRun, sessionId: string | undefined, problems: Problems): Promise<string> {
  hookPolicy(run.root, problems);
  const { lessons, text } = sessionStart(await hookIndexEntries(run.root, problems));
  if (text !== '') await record(run, sessionId, { shown: lessons.map((lesson) => lesson.id) });
  return text;
}

/**
 * The lessons that apply to a prompt, recorded as pending, and the related ones' titles (all of
 * them: a prompt is a new task), recorded as listed; and, when the prompt corrects a repeated
 * mistake, the request for a `[LESSON]` block; '' when none.
 */
export async function promptContext(prompt: string, run: HookRun, sessionId: string | undefined, problems: Problems): Promise<string> {
  if (prompt.trim() === '') return '';
  const policy = hookPolicy(run.root, problems);
  const { selected: lessons, related } = await selectTiersForRequest(run.root, { task: prompt, limit: PROMPT_LIMIT, now: run.now, policy, problems, update: 'background' });
  const phrase = correctionPhrase(prompt);
  if (lessons.length === 0 && related.length === 0 && !phrase) return '';
  // Titles the session listed already are not written again: a prompt's lock and write only for what is new.
  const listed = new Set(related.length > 0 ? (sessionState(run, sessionId)?.listed ?? []) : []);
  await record(run, sessionId, { pending: lessons.map((lesson) => lesson.id), listed: related.map((lesson) => lesson.id).filter((id) => !listed.has(id)) });
  const tiers = formatTiers('Lessons relevant to this request (from `lessons`); follow their checklists:', lessons, related, { reasons: true, command: openCommand(run.root, related) });
  const parts = tiers === '' ? [] : [tiers];
  if (phrase) parts.push(recordInstruction(phrase, lessons[0]));
  return parts.join('\n\n');
}

/** The lessons a tool call's triggers select, and the policy they were selected under. */
export interface ToolCallLessons {
  lessons: SelectedLesson[];
  related: RelatedLesson[];
  policy: Policy;
}

/** The lessons for a tool call (its tool, paths and command), or undefined when it has none; `policy` when the hook has read it already. */
export async function toolCallLessons(run: HookRun, action: ToolAction, problems: Problems, policy?: Policy): Promise<ToolCallLessons | undefined> {
  if (!action.tool && action.paths.length === 0 && !action.command) return undefined;
  policy ??= hookPolicy(run.root, problems);
  const { selected: lessons, related } = await selectTiersForRequest(run.root, { task: '', ...action, limit: TOOL_CALL_LIMIT, now: run.now, policy, problems, update: 'background' });
  return lessons.length === 0 && related.length === 0 ? undefined : { lessons, related, policy };
}

/**
 * A tool call's lessons under `heading` (those the session already showed marked so), recorded
 * as pending, and the related entries the session has not listed or shown yet, recorded as
 * listed: the hook answers before every call, and a title the agent has judged once costs a line
 * on each call it is listed again. '' when nothing is left.
 */
export async function toolCallContext(run: HookRun, sessionId: string | undefined, state: SessionState | undefined, found: ToolCallLessons, heading: string): Promise<string> {
  const shown = new Set(state?.shown ?? []);
  const pending = new Set(state?.pending ?? []);
  const listed = new Set(state?.listed ?? []);
  const related = found.related.filter((lesson) => !listed.has(lesson.id) && !shown.has(lesson.id));
  await record(run, sessionId, {
    pending: found.lessons.map((lesson) => lesson.id).filter((id) => !shown.has(id) || !pending.has(id)),
    listed: related.map((lesson) => lesson.id),
  });
  return formatTiers(heading, found.lessons, related, { reasons: true, repeated: shown, command: openCommand(run.root, related) });
}

/** The session's state, when the harness names its session. */
export function sessionState(run: HookRun, sessionId: string | undefined): SessionState | undefined {
  return sessionId ? readSession(run.root, sessionId) : undefined;
}

/**
 * The notes for the user at the end of a turn, from the agent's texts (the final answer last):
 * the `[LESSON]` blocks captured, a red -> green pair drafted, and the checklist items of the
 * lessons shown for this turn's task that the final answer does not cover. `again`: the harness
 * is already continuing because of this hook; nothing is checked that could feed a loop.
 */
export async function turnEndNotes(run: HookRun, sessionId: string | undefined, texts: readonly string[], again: boolean, entries: IndexEntry[], policy: Policy): Promise<string[]> {
  const { formatUncovered, uncoveredItems } = await import('./stop.js');
  const notes: string[] = [];

  const { captureBlocks, capturedNote } = await import('./capture.js');
  const captured = capturedNote(await captureBlocks(run, sessionId, texts.join('\n')));
  if (captured !== '') notes.push(captured);

  const { draftRedGreen } = await import('./red-green-draft.js');
  const drafted = await draftRedGreen(run, sessionId, policy);
  if (drafted !== '') notes.push(drafted);

  // The lessons shown for this turn's task (not the session-start ones, which are background),
  // each checked once, at the end of the turn that showed it.
  const session = sessionState(run, sessionId);
  const finalAnswer = texts[texts.length - 1] ?? '';
  if (sessionId && session && !again && session.pending.length > 0 && finalAnswer.trim() !== '') {
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    const shown = session.pending.map((id) => byId.get(id)).filter((entry): entry is IndexEntry => entry !== undefined);
    const note = formatUncovered(uncoveredItems(shown, finalAnswer));
    if (note !== '') notes.push(note);
    await updateSession(run.root, sessionId, { settled: session.pending });
  }
  return notes;
}
