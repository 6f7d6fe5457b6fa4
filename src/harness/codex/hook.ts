/**
 * Codex CLI hooks (developers.openai.com/codex/hooks; the generated schemas in openai/codex
 * codex-rs/hooks/schema/generated/*.command.{input,output}.schema.json). Codex uses Claude
 * Code's wire format, with these differences that matter here:
 * - SessionStart and UserPromptSubmit accept `hookSpecificOutput.additionalContext`;
 * - PreToolUse parses `additionalContext` but does not support it, so lessons go in the common
 *   `systemMessage`; its input is `tool_name` (Bash, apply_patch, MCP tools) and
 *   `tool_input.command`;
 * - PostToolUse fires for Bash and apply_patch with `tool_response` (for Bash the output as one
 *   string, no exit status; src/agent/tool-outcome.ts); there is no PostToolUseFailure;
 * - Stop gets `last_assistant_message` and `stop_hook_active`; `transcript_path` may be null and
 *   is not Claude's JSONL, so only `last_assistant_message` is read.
 */
import type { HookInput, HookRun } from '../../agent/input.js';
import { claudeStyleHook } from '../claude/hook.js';

export function codexHook(event: string, input: HookInput, run: HookRun): Promise<string> {
  return claudeStyleHook('codex', event, input, run);
}
