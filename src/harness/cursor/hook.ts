/**
 * Cursor agent hooks (cursor.com/docs/agent/hooks; .cursor/hooks.json, `"version": 1`).
 *
 * Contract used: input on stdin with `hook_event_name`, `conversation_id`, `generation_id`,
 * `workspace_roots`; per event:
 * - `sessionStart`: answer `{"additional_context": <text>}` to add context to the session;
 * - `beforeShellExecution` (`command`, `cwd`): answer `{"permission": "allow"}`, with the
 *   lessons for the command in `agent_message` (the message for the agent; checklists and
 *   related titles the conversation already had are not repeated) and, once per conversation,
 *   what is broken (a truncated index, an invalid policy) in `user_message`. Never deny or ask;
 * - `beforeReadFile` (`file_path`): `{"permission": "allow"}` (that answer has no message field);
 * - `beforeSubmitPrompt` (`prompt`): `{"continue": true}` (no documented context field);
 * - `afterAgentResponse` (`text`): `[LESSON]` blocks in the agent's answer are captured; `{}`;
 * - `afterFileEdit`, `stop` and any other event: `{}`.
 * Every answer is the allowing one: a hook that errs still prints it (declaration.ts).
 */
import { sessionState, toolCallContext, toolCallLessons } from '../../agent/context.js';
import { hookIndexEntries, noticeOnce, type Problems } from '../../agent/health.js';
import { str, type HookInput, type HookRun } from '../../agent/input.js';
import { sessionStart } from '../../agent/moments.js';
import { updateSession } from '../../agent/session.js';
import { neutralAnswer } from '../registry.js';

function cursorNeutral(event: string): string {
  return neutralAnswer('cursor', event);
}

export async function cursorHook(event: string, input: HookInput, run: HookRun): Promise<string> {
  const sessionId = str(input, 'conversation_id');
  const problems: Problems = [];
  switch (event) {
    case 'sessionStart': {
      const { lessons, text } = sessionStart(await hookIndexEntries(run.root, problems));
      if (text === '') return cursorNeutral(event);
      if (sessionId && lessons.length > 0) await updateSession(run.root, sessionId, { shown: lessons.map((lesson) => lesson.id) });
      return `${JSON.stringify({ additional_context: text })}\n`;
    }
    case 'beforeShellExecution': {
      const command = str(input, 'command');
      if (!command) return cursorNeutral(event);
      const found = await toolCallLessons(run, { tool: 'Bash', paths: [], command }, problems);
      // What is broken goes once per conversation in `user_message`, the text Cursor shows the user.
      const notice = await noticeOnce(run.root, sessionId, problems);
      const shown = notice ? { user_message: notice } : {};
      const text = found ? await toolCallContext(run, sessionId, sessionState(run, sessionId), found, 'Lessons that apply to this command (from `lessons`; the command is not blocked):') : '';
      if (text === '') return notice ? `${JSON.stringify({ permission: 'allow', ...shown })}\n` : cursorNeutral(event);
      return `${JSON.stringify({ permission: 'allow', ...shown, agent_message: text })}\n`;
    }
    case 'afterAgentResponse': {
      const { captureBlocks } = await import('../../agent/capture.js');
      await captureBlocks(run, sessionId, str(input, 'text') ?? '');
      return cursorNeutral(event);
    }
    default:
      return cursorNeutral(event);
  }
}

