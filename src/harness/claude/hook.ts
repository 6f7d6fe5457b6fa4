/**
 * Claude Code hooks (and Codex's, which use the same wire format; see ../codex/hook.ts).
 *
 * Contract used (Claude Code hooks reference, code.claude.com/docs/en/hooks):
 * - input on stdin, common fields `session_id`, `transcript_path`, `cwd`, `hook_event_name`;
 *   SessionStart adds `source`; UserPromptSubmit adds `prompt`; PreToolUse adds `tool_name`,
 *   `tool_input` (and `tool_use_id`); PostToolUse adds `tool_response`, PostToolUseFailure `error`
 *   and `is_interrupt` (src/agent/tool-outcome.ts); Stop adds `stop_hook_active` (and, in newer versions,
 *   `last_assistant_message`).
 * - output: exit 0 with JSON on stdout. SessionStart, UserPromptSubmit and PreToolUse add text
 *   to the model's context with `{"hookSpecificOutput": {"hookEventName": <event>,
 *   "additionalContext": <text>}}`. A PreToolUse answer without `permissionDecision` leaves the
 *   normal permission flow alone: these hooks never allow, ask or deny. Stop answers only with
 *   the common `systemMessage` (a note shown to the user); never `decision: "block"`, so it
 *   never keeps the agent from stopping. PostToolUse and PostToolUseFailure only record (the
 *   red -> green state) and answer nothing. An empty stdout with exit 0 is the neutral answer.
 */
import type { IndexEntry } from '../../index/build.js';
import type { Policy } from '../../policy/policy.js';
import { formatLessons, formatTiers, openCommand, TOOL_CALL_LIMIT } from '../../agent/format.js';
import { hookIndexEntries, hookPolicy, noticeOnce, type Problems } from '../../agent/health.js';
import { obj, str, toolAction, type HookInput, type HookRun } from '../../agent/input.js';
import { sessionStart } from '../../agent/moments.js';
import { readSession, updateSession } from '../../agent/session.js';
import { correctionPhrase, recordInstruction } from '../../agent/correction.js';
import { readTextOrUndefined } from '../../io/fs.js';
import { selectTiersForRequest } from '../../preflight/preflight.js';
import type { SelectedLesson as Selected } from '../../preflight/report.js';
import type { CLAUDE } from './declaration.js';

export type Dialect = 'claude' | 'codex';

type ClaudeEvent = keyof typeof CLAUDE.events;

const PROMPT_LIMIT = 5;

/** The JSON a Claude-style hook prints; nothing at all is the neutral answer. */
interface Answer {
  hookSpecificOutput?: Record<string, string>;
  systemMessage?: string;
}

function contextAnswer(event: ClaudeEvent, text: string): Answer {
  return { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

/** Remembers what was shown; lessons shown for the task (`pending`) are checked at the next Stop. */
async function record(run: HookRun, sessionId: string | undefined, ids: readonly string[], kind: 'shown' | 'pending'): Promise<void> {
  if (sessionId && ids.length > 0) await updateSession(run.root, sessionId, { [kind]: ids });
}

/**
 * The answer for one event. What is broken (an index or policy the hook had to work around)
 * goes once per session into `systemMessage`, the note Claude Code and Codex show the user.
 */
export async function claudeStyleHook(dialect: Dialect, event: string, input: HookInput, run: HookRun): Promise<string> {
  const sessionId = str(input, 'session_id');
  const problems: Problems = [];
  const answer = (await answerEvent(dialect, event, input, run, sessionId, problems)) ?? {};
  const notice = await noticeOnce(run.root, sessionId, problems);
  if (notice) answer.systemMessage = answer.systemMessage ? `${notice}\n${answer.systemMessage}` : notice;
  return Object.keys(answer).length > 0 ? `${JSON.stringify(answer)}\n` : '';
}

async function answerEvent(dialect: Dialect, event: string, input: HookInput, run: HookRun, sessionId: string | undefined, problems: Problems): Promise<Answer | undefined> {
  switch (event) {
    case 'SessionStart': {
      hookPolicy(run.root, problems);
      const { lessons, text } = sessionStart(await hookIndexEntries(run.root, problems));
      if (text === '') return undefined;
      await record(run, sessionId, lessons.map((lesson) => lesson.id), 'shown');
      return contextAnswer(event, text);
    }
    case 'UserPromptSubmit': {
      const prompt = str(input, 'prompt') ?? '';
      if (prompt.trim() === '') return undefined;
      const policy = hookPolicy(run.root, problems);
      const { selected: lessons, related } = await selectTiersForRequest(run.root, { task: prompt, limit: PROMPT_LIMIT, now: run.now, policy, problems, update: 'background' });
      const phrase = correctionPhrase(prompt);
      if (lessons.length === 0 && related.length === 0 && !phrase) return undefined;
      await record(run, sessionId, lessons.map((lesson) => lesson.id), 'pending');
      const tiers = formatTiers('Lessons relevant to this request (from `lessons`); follow their checklists:', lessons, related, { reasons: true, command: openCommand(run.root, related) });
      const parts = tiers === '' ? [] : [tiers];
      if (phrase) parts.push(recordInstruction(phrase, lessons[0]));
      return contextAnswer(event, parts.join('\n\n'));
    }
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const { recordToolOutcome } = await import('../../agent/tool-outcome.js');
      await recordToolOutcome(dialect, event, input, run, sessionId, hookPolicy(run.root, problems));
      return undefined;
    }
    case 'PreToolUse': {
      const action = toolAction(run.root, run.cwd, str(input, 'tool_name'), obj(input, 'tool_input'));
      if (!action.tool && action.paths.length === 0 && !action.command) return undefined;
      const policy = hookPolicy(run.root, problems);
      const { selected: lessons, related } = await selectTiersForRequest(run.root, { task: '', ...action, limit: TOOL_CALL_LIMIT, now: run.now, policy, problems, update: 'background' });
      if (lessons.length === 0 && related.length === 0) return undefined;
      const state = sessionId ? readSession(run.root, sessionId) : undefined;
      if (dialect === 'claude' && sessionId && state) {
        const gate = await criticalGate(run, sessionId, state.gated, lessons, policy, action.tool);
        if (gate) return gate;
      }
      const shown = new Set(state?.shown ?? []);
      const pending = new Set(state?.pending ?? []);
      await record(run, sessionId, lessons.map((lesson) => lesson.id).filter((id) => !shown.has(id) || !pending.has(id)), 'pending');
      const text = formatTiers(`Lessons that apply to this ${action.tool ?? 'tool'} call (from \`lessons\`; the call is not blocked):`, lessons, related, { reasons: true, repeated: shown, command: openCommand(run.root, related) });
      // Codex parses PreToolUse `additionalContext` but does not support it (its hooks docs;
      // openai/codex#19385), so there the text goes in the common `systemMessage`.
      return dialect === 'claude' ? contextAnswer(event, text) : { systemMessage: text };
    }
    case 'Stop':
      return stopHook(dialect, input, run, sessionId, await hookIndexEntries(run.root, problems), hookPolicy(run.root, problems));
    default:
      return undefined;
  }
}

/**
 * hooks.critical_gate: Claude Code puts PreToolUse `additionalContext` after the tool result,
 * too late for the call it was meant to shape. So the first call in a session that a critical
 * lesson matches is answered with the documented `permissionDecision` (`deny`: the reason goes
 * to the model; `ask`: to the user) carrying the checklist; the lesson is then gated for the
 * session and the retry goes through with the usual context.
 */
async function criticalGate(run: HookRun, sessionId: string, gated: readonly string[], lessons: readonly Selected[], policy: Policy, tool: string | undefined): Promise<Answer | undefined> {
  const decision = policy.hooks.critical_gate;
  if (decision === 'off') return undefined;
  const done = new Set(gated);
  const critical = lessons.filter((lesson) => lesson.severity === 'critical' && !done.has(lesson.id));
  if (critical.length === 0) return undefined;
  const ids = critical.map((lesson) => lesson.id);
  await updateSession(run.root, sessionId, { gated: ids, pending: ids });
  const heading = `Stopped once by \`lessons\` (policy hooks.critical_gate) before this ${tool ?? 'tool'} call: a critical lesson applies. Go through its checklist; then retry the call if it still holds (the retry is allowed).`;
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: formatLessons(heading, critical, { reasons: true }) } };
}

async function stopHook(dialect: Dialect, input: HookInput, run: HookRun, sessionId: string | undefined, entries: IndexEntry[], policy: Policy): Promise<Answer | undefined> {
  const { assistantTexts, formatUncovered, uncoveredItems } = await import('../../agent/stop.js');
  const transcriptPath = str(input, 'transcript_path');
  // Codex's transcript is its own rollout format, not Claude's JSONL: there only the
  // documented `last_assistant_message` is read.
  const transcript = dialect === 'claude' && transcriptPath ? readTextOrUndefined(transcriptPath) : undefined;
  const texts = transcript === undefined ? [] : assistantTexts(transcript);
  const lastMessage = str(input, 'last_assistant_message');
  if (lastMessage && texts[texts.length - 1] !== lastMessage) texts.push(lastMessage);
  const notes: string[] = [];

  const { captureBlocks, capturedNote } = await import('../../agent/capture.js');
  const captured = capturedNote(await captureBlocks(run, sessionId, texts.join('\n')));
  if (captured !== '') notes.push(captured);

  const { draftRedGreen } = await import('../../agent/red-green-draft.js');
  const drafted = await draftRedGreen(run, sessionId, policy);
  if (drafted !== '') notes.push(drafted);

  // The lessons shown for this turn's task (not the session-start ones, which are background),
  // each checked once, at the end of the turn that showed it. stop_hook_active: Claude Code is
  // already continuing because of a Stop hook; add nothing that could feed a loop.
  const session = sessionId ? readSession(run.root, sessionId) : undefined;
  const finalAnswer = texts[texts.length - 1] ?? '';
  if (sessionId && session && input.stop_hook_active !== true && session.pending.length > 0 && finalAnswer.trim() !== '') {
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    const shown = session.pending.map((id) => byId.get(id)).filter((entry): entry is IndexEntry => entry !== undefined);
    const note = formatUncovered(uncoveredItems(shown, finalAnswer));
    if (note !== '') notes.push(note);
    await updateSession(run.root, sessionId, { settled: session.pending });
  }
  return notes.length > 0 ? { systemMessage: notes.join('\n') } : undefined;
}
