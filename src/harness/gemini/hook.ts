/**
 * Gemini CLI hooks (docs/hooks/reference.md and packages/core/src/hooks/types.ts in
 * google-gemini/gemini-cli; see declaration.ts for the commit). Input on stdin with
 * `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`; output one JSON
 * object on stdout. The events answered:
 * - SessionStart (`source`): `hookSpecificOutput.additionalContext` is wrapped in
 *   `<hook_context>` and, in non-interactive mode, prepended to the prompt
 *   (packages/cli/src/gemini.tsx), in interactive mode the first turn of the history;
 * - BeforeAgent (`prompt`): `additionalContext` is appended to the prompt for this turn
 *   (packages/core/src/core/client.ts). In non-interactive mode the `prompt` already carries
 *   SessionStart's `<hook_context>` block, which is not part of the task and is left out;
 * - AfterTool (`tool_name`, `tool_input`, `tool_response`): `additionalContext` is appended to
 *   the tool's result (packages/core/src/core/coreToolHookTriggers.ts). BeforeTool has no
 *   context field (only `decision`, `reason` and `tool_input` rewrites), so the lessons for a
 *   call come with its result, as Claude Code's PreToolUse context does. The call also goes
 *   into the red -> green state: `tool_response` is `{llmContent, returnDisplay, error?}`, and a
 *   shell command's `llmContent` holds `Output: ...` and, when it exited non-zero,
 *   `Exit Code: <n>` (packages/core/src/tools/shell.ts);
 * - AfterAgent (`prompt_response`, `stop_hook_active`): `[LESSON]` blocks captured and the
 *   checklists not covered, in `systemMessage` (shown to the user). Never `decision: "deny"`,
 *   which would reject the answer and make the agent retry.
 * Every answer has `decision` unset and `continue` unset: these hooks never block.
 * `additionalContext` has `<` and `>` escaped by the CLI (DefaultHookOutput.getAdditionalContext).
 */
import { promptContext, sessionStartContext, sessionState, toolCallContext, toolCallLessons, turnEndNotes } from '../../agent/context.js';
import { hookIndexEntries, hookPolicy, noticeOnce, type Problems } from '../../agent/health.js';
import { obj, str, toolAction, type HookInput, type HookRun } from '../../agent/input.js';
import type { Policy } from '../../policy/policy.js';
import { neutralAnswer } from '../registry.js';

/**
 * Gemini CLI's built-in tools (packages/core/src/tools/definitions/base-declarations.ts) in
 * Claude Code's vocabulary, which lesson triggers use; their `file_path` and `command`
 * parameters are the ones toolAction reads.
 */
export const TOOLS: Readonly<Record<string, string>> = { run_shell_command: 'Bash', write_file: 'Write', replace: 'Edit', read_file: 'Read' };

interface Answer {
  hookSpecificOutput?: Record<string, string>;
  systemMessage?: string;
}

function contextAnswer(event: string, text: string): Answer | undefined {
  return text === '' ? undefined : { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

/** The prompt without the `<hook_context>` blocks Gemini CLI put in it (SessionStart's, in non-interactive mode). */
export function userPrompt(prompt: string): string {
  return prompt.replace(/<hook_context>[\s\S]*?<\/hook_context>/g, '').trim();
}

/** The text a tool gave the model (its `llmContent`, parts joined), without the <untrusted_context> wrapper. */
function toolOutput(input: HookInput): string {
  const content = obj(input, 'tool_response').llmContent;
  const parts = Array.isArray(content) ? content : [content];
  const text = parts.map((part) => (typeof part === 'string' ? part : typeof (part as { text?: unknown })?.text === 'string' ? (part as { text: string }).text : '')).join('\n');
  return text.replace(/<\/?untrusted_context>/g, '').trim();
}

/**
 * The tool call as Claude Code's PostToolUse or PostToolUseFailure input, the form the red ->
 * green record reads (src/agent/tool-outcome.ts): a shell command that exited non-zero is a
 * failure with `error` "Exit code <n>" and its output; a cancelled one tells nothing.
 */
export function claudeOutcome(input: HookInput): { event: string; input: HookInput } | undefined {
  const name = str(input, 'tool_name');
  const tool = name === undefined ? undefined : TOOLS[name];
  if (tool === undefined || tool === 'Read') return undefined;
  const base = { tool_name: tool, tool_input: obj(input, 'tool_input') };
  // A file tool that failed (`error` set) changed nothing.
  if (tool !== 'Bash') return obj(input, 'tool_response').error === undefined ? { event: 'PostToolUse', input: base } : undefined;
  const output = toolOutput(input);
  if (/^Command (?:was cancelled|was automatically cancelled|moved to background)/.test(output)) return undefined;
  const exit = /^Exit Code: (\d+)$/m.exec(output);
  if (!exit || exit[1] === '0') return { event: 'PostToolUse', input: { ...base, tool_response: {} } };
  // The command's own output: without the `Output: ` label and the lines the tool adds after it.
  const printed = output.replace(/^Output: /, '').replace(/\n(?:Exit Code|Signal|Background PIDs|Process Group PGID): .*$/gm, '');
  return { event: 'PostToolUseFailure', input: { ...base, error: `Exit code ${exit[1]}\n${printed}` } };
}

async function recordOutcome(input: HookInput, run: HookRun, sessionId: string | undefined, policy: Policy): Promise<void> {
  const outcome = claudeOutcome(input);
  if (!outcome || !sessionId) return;
  const { recordToolOutcome } = await import('../../agent/tool-outcome.js');
  await recordToolOutcome('claude', outcome.event, outcome.input, run, sessionId, policy);
}

/** The answer for one event; what is broken goes once per session into `systemMessage`. */
export async function geminiHook(event: string, input: HookInput, run: HookRun): Promise<string> {
  const sessionId = str(input, 'session_id');
  const problems: Problems = [];
  const answer = (await answerEvent(event, input, run, sessionId, problems)) ?? {};
  const notice = await noticeOnce(run.root, sessionId, problems);
  if (notice) answer.systemMessage = answer.systemMessage ? `${notice}\n${answer.systemMessage}` : notice;
  return Object.keys(answer).length > 0 ? `${JSON.stringify(answer)}\n` : neutralAnswer('gemini', event);
}

async function answerEvent(event: string, input: HookInput, run: HookRun, sessionId: string | undefined, problems: Problems): Promise<Answer | undefined> {
  switch (event) {
    case 'SessionStart':
      return contextAnswer(event, await sessionStartContext(run, sessionId, problems));
    case 'BeforeAgent':
      return contextAnswer(event, await promptContext(userPrompt(str(input, 'prompt') ?? ''), run, sessionId, problems));
    case 'AfterTool': {
      const name = str(input, 'tool_name');
      // One read of the policy for both: the call's outcome and its lessons.
      const policy = hookPolicy(run.root, problems);
      await recordOutcome(input, run, sessionId, policy);
      const action = toolAction(run.root, run.cwd, name === undefined ? undefined : (TOOLS[name] ?? name), obj(input, 'tool_input'));
      const found = await toolCallLessons(run, action, problems, policy);
      if (!found) return undefined;
      return contextAnswer(event, await toolCallContext(run, sessionId, sessionState(run, sessionId), found, `Lessons that apply to this ${name ?? 'tool'} call (from \`lessons\`):`));
    }
    case 'AfterAgent': {
      const response = str(input, 'prompt_response') ?? '';
      const notes = await turnEndNotes(run, sessionId, [response], input.stop_hook_active === true, await hookIndexEntries(run.root, problems), hookPolicy(run.root, problems));
      return notes.length > 0 ? { systemMessage: notes.join('\n') } : undefined;
    }
    default:
      return undefined;
  }
}
