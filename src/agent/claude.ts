/**
 * Claude Code hooks (and Codex's, which use the same wire format; see codex.ts).
 *
 * Contract used (Claude Code hooks reference, code.claude.com/docs/en/hooks):
 * - input on stdin, common fields `session_id`, `transcript_path`, `cwd`, `hook_event_name`;
 *   SessionStart adds `source`; UserPromptSubmit adds `prompt`; PreToolUse adds `tool_name`,
 *   `tool_input` (and `tool_use_id`); Stop adds `stop_hook_active` (and, in newer versions,
 *   `last_assistant_message`).
 * - output: exit 0 with JSON on stdout. SessionStart, UserPromptSubmit and PreToolUse add text
 *   to the model's context with `{"hookSpecificOutput": {"hookEventName": <event>,
 *   "additionalContext": <text>}}`. A PreToolUse answer without `permissionDecision` leaves the
 *   normal permission flow alone: these hooks never allow, ask or deny. Stop answers only with
 *   the common `systemMessage` (a note shown to the user); never `decision: "block"`, so it
 *   never keeps the agent from stopping. An empty stdout with exit 0 is the neutral answer.
 */
import fs from 'node:fs';
import type { IndexEntry } from '../index/build.js';
import { formatLessons } from './format.js';
import { readIndexEntries } from './index-read.js';
import { obj, str, toolAction, type HookInput, type HookRun } from './input.js';
import { sessionStartLessons } from './moments.js';
import { selectForRequest } from '../preflight/command.js';
import { TOOL_CALL_LIMIT } from './format.js';
import { readSession, updateSession } from './session.js';

export type Dialect = 'claude' | 'codex';

export const CLAUDE_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop'] as const;
export type ClaudeEvent = (typeof CLAUDE_EVENTS)[number];

const PROMPT_LIMIT = 5;

function contextAnswer(event: ClaudeEvent, text: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })}\n`;
}

function messageAnswer(text: string): string {
  return `${JSON.stringify({ systemMessage: text })}\n`;
}

/** Remembers what was shown; lessons shown for the task (`pending`) are checked at the next Stop. */
async function record(run: HookRun, sessionId: string | undefined, ids: readonly string[], kind: 'shown' | 'pending'): Promise<void> {
  if (sessionId && ids.length > 0) await updateSession(run.root, sessionId, { [kind]: ids });
}

export async function claudeStyleHook(dialect: Dialect, event: string, input: HookInput, run: HookRun): Promise<string> {
  const sessionId = str(input, 'session_id');
  switch (event) {
    case 'SessionStart': {
      const entries = readIndexEntries(run.root) ?? [];
      const lessons = sessionStartLessons(entries);
      if (lessons.length === 0) return '';
      await record(run, sessionId, lessons.map((lesson) => lesson.id), 'shown');
      return contextAnswer(event, formatLessons('Lessons from this repository (critical and high severity, canonical); keep their checklists in mind:', lessons));
    }
    case 'UserPromptSubmit': {
      const prompt = str(input, 'prompt') ?? '';
      if (prompt.trim() === '') return '';
      const lessons = await selectForRequest(run.root, { task: prompt, limit: PROMPT_LIMIT, now: run.now });
      if (lessons.length === 0) return '';
      await record(run, sessionId, lessons.map((lesson) => lesson.id), 'pending');
      return contextAnswer(event, formatLessons('Lessons relevant to this request (from `lessons`); follow their checklists:', lessons, { reasons: true }));
    }
    case 'PreToolUse': {
      const action = toolAction(run.root, run.cwd, str(input, 'tool_name'), obj(input, 'tool_input'));
      if (!action.tool && action.paths.length === 0 && !action.command) return '';
      const lessons = await selectForRequest(run.root, { task: '', ...action, limit: TOOL_CALL_LIMIT, now: run.now });
      if (lessons.length === 0) return '';
      const state = sessionId ? readSession(run.root, sessionId) : undefined;
      const shown = new Set(state?.shown ?? []);
      const pending = new Set(state?.pending ?? []);
      await record(run, sessionId, lessons.map((lesson) => lesson.id).filter((id) => !shown.has(id) || !pending.has(id)), 'pending');
      const text = formatLessons(`Lessons that apply to this ${action.tool ?? 'tool'} call (from \`lessons\`; the call is not blocked):`, lessons, { reasons: true, repeated: shown });
      // Codex parses PreToolUse `additionalContext` but does not support it (its hooks docs;
      // openai/codex#19385), so there the text goes in the common `systemMessage`.
      return dialect === 'claude' ? contextAnswer(event, text) : messageAnswer(text);
    }
    case 'Stop':
      return stopHook(dialect, input, run, sessionId, readIndexEntries(run.root) ?? []);
    default:
      return '';
  }
}

async function stopHook(dialect: Dialect, input: HookInput, run: HookRun, sessionId: string | undefined, entries: IndexEntry[]): Promise<string> {
  const { assistantTexts, formatUncovered, uncoveredItems } = await import('./stop.js');
  const transcriptPath = str(input, 'transcript_path');
  // Codex's transcript is its own rollout format, not Claude's JSONL: there only the
  // documented `last_assistant_message` is read.
  let texts: string[] = [];
  if (dialect === 'claude' && transcriptPath) {
    try {
      texts = assistantTexts(fs.readFileSync(transcriptPath, 'utf8'));
    } catch {
      texts = [];
    }
  }
  const lastMessage = str(input, 'last_assistant_message');
  if (lastMessage && texts[texts.length - 1] !== lastMessage) texts.push(lastMessage);
  const notes: string[] = [];

  const { captureBlocks, capturedNote } = await import('./capture.js');
  const captured = capturedNote(await captureBlocks(run, sessionId, texts.join('\n')));
  if (captured !== '') notes.push(captured);

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
  return notes.length > 0 ? messageAnswer(notes.join('\n')) : '';
}
