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
import type { Policy } from '../../policy/policy.js';
import { formatLessons } from '../../agent/format.js';
import { hookIndexEntries, hookPolicy, noticeOnce, type Problems } from '../../agent/health.js';
import { obj, str, toolAction, type HookInput, type HookRun } from '../../agent/input.js';
import { promptContext, sessionStartContext, sessionState, toolCallContext, toolCallLessons, turnEndNotes } from '../../agent/context.js';
import { updateSession } from '../../agent/session.js';
import { readTextOrUndefined } from '../../io/fs.js';
import type { SelectedLesson as Selected } from '../../preflight/report.js';
import type { CLAUDE } from './declaration.js';

export type Dialect = 'claude' | 'codex';

type ClaudeEvent = keyof typeof CLAUDE.events;

/** The JSON a Claude-style hook prints; nothing at all is the neutral answer. */
interface Answer {
  hookSpecificOutput?: Record<string, string>;
  systemMessage?: string;
}

function contextAnswer(event: ClaudeEvent, text: string): Answer | undefined {
  return text === '' ? undefined : { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
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
    case 'SessionStart':
      return contextAnswer(event, await sessionStartContext(run, sessionId, problems));
    case 'UserPromptSubmit':
      return contextAnswer(event, await promptContext(str(input, 'prompt') ?? '', run, sessionId, problems));
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const { recordToolOutcome } = await import('../../agent/tool-outcome.js');
      await recordToolOutcome(dialect, event, input, run, sessionId, hookPolicy(run.root, problems));
      return undefined;
    }
    case 'PreToolUse': {
      const action = toolAction(run.root, run.cwd, str(input, 'tool_name'), obj(input, 'tool_input'));
      const found = await toolCallLessons(run, action, problems);
      if (!found) return undefined;
      const state = sessionState(run, sessionId);
      if (dialect === 'claude' && sessionId && state) {
        const gate = await criticalGate(run, sessionId, state.gated, found.lessons, found.policy, action.tool);
        if (gate) return gate;
      }
      const text = await toolCallContext(run, sessionId, state, found, `Lessons that apply to this ${action.tool ?? 'tool'} call (from \`lessons\`; the call is not blocked):`);
      // Codex parses PreToolUse `additionalContext` but does not support it (its hooks docs;
      // openai/codex#19385), so there the text goes in the common `systemMessage`.
      return dialect === 'claude' || text === '' ? contextAnswer(event, text) : { systemMessage: text };
    }
    case 'Stop':
      return stopHook(dialect, input, run, sessionId, problems);
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

async function stopHook(dialect: Dialect, input: HookInput, run: HookRun, sessionId: string | undefined, problems: Problems): Promise<Answer | undefined> {
  const { assistantTexts } = await import('../../agent/stop.js');
  const transcriptPath = str(input, 'transcript_path');
  // Codex's transcript is its own rollout format, not Claude's JSONL: there only the
  // documented `last_assistant_message` is read.
  const transcript = dialect === 'claude' && transcriptPath ? readTextOrUndefined(transcriptPath) : undefined;
  const texts = transcript === undefined ? [] : assistantTexts(transcript);
  const lastMessage = str(input, 'last_assistant_message');
  if (lastMessage && texts[texts.length - 1] !== lastMessage) texts.push(lastMessage);
  // stop_hook_active: Claude Code is already continuing because of a Stop hook.
  const notes = await turnEndNotes(run, sessionId, texts, input.stop_hook_active === true, await hookIndexEntries(run.root, problems), hookPolicy(run.root, problems));
  return notes.length > 0 ? { systemMessage: notes.join('\n') } : undefined;
}
