/**
 * After a tool call: shell commands that failed or passed, and files edited, go into the
 * session's red -> green state (red-green.ts). Nothing is answered (empty stdout leaves the
 * harness alone); the Stop hook drafts from the pair.
 *
 * What the harnesses send, as read from their contracts and checked against the real clients
 * (test/claude, and Codex 0.169.0 with the same payloads):
 * - Claude Code (code.claude.com/docs/en/hooks, "PostToolUse" and "PostToolUseFailure"):
 *   PostToolUse fires only after a tool succeeded; for Bash its `tool_response` is
 *   `{stdout, stderr, interrupted, isImage, noOutputExpected}`, with no exit status. A Bash
 *   command that exits non-zero fires PostToolUseFailure instead, with `error` ("Exit code 3",
 *   then the output) and `is_interrupt`. Edit/Write/MultiEdit/NotebookEdit name their file in
 *   `tool_input` as for PreToolUse.
 * - Codex (developers.openai.com/codex/hooks; openai/codex
 *   codex-rs/hooks/schema/generated/post-tool-use.command.input.schema.json): PostToolUse for
 *   Bash and apply_patch, `tool_response` any JSON. For Bash it is the command's output as one
 *   string and carries no exit status, and no event reports a failure; so under Codex a command
 *   failed when its output has error lines (red-green.ts `hasErrorOutput`) and passed otherwise.
 */
import { compileSecretRules, redactSecrets, type CompiledRule } from '../secrets/rules.js';
import type { Policy } from '../policy/policy.js';
import { obj, str, toolAction, type HookInput, type HookRun } from './input.js';
import { commandKind, hasErrorOutput, keyErrorLines, onEdit, onFailure, onSuccess } from './red-green.js';
import type { Dialect } from '../harness/claude/hook.js';
import { readSession, updateSession } from './session.js';

const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

type Outcome = { passed: true } | { passed: false; exit: number | null; output: string };

/** Whether a Bash call passed, from one PostToolUse / PostToolUseFailure input; undefined when it tells nothing (interrupted). */
export function shellOutcome(dialect: Dialect, event: string, input: HookInput): Outcome | undefined {
  if (event === 'PostToolUseFailure') {
    if (input.is_interrupt === true) return undefined;
    const error = str(input, 'error') ?? '';
    const exit = /^Exit code (\d+)/.exec(error);
    return { passed: false, exit: exit ? Number(exit[1]) : null, output: exit ? error.slice(exit[0].length) : error };
  }
  if (event !== 'PostToolUse') return undefined;
  const response = input.tool_response;
  if (dialect === 'codex') {
    const output = typeof response === 'string' ? response : JSON.stringify(response ?? '');
    return hasErrorOutput(output) ? { passed: false, exit: null, output } : { passed: true };
  }
  if (response && typeof response === 'object' && (response as { interrupted?: unknown }).interrupted === true) return undefined;
  return { passed: true };
}

function secretRules(policy: Policy): readonly CompiledRule[] | undefined {
  const rules = compileSecretRules(policy.secrets);
  return Array.isArray(rules) ? rules : undefined;
}

/** Records one PostToolUse / PostToolUseFailure call in the session. Never throws past its caller's catch. */
export async function recordToolOutcome(dialect: Dialect, event: string, input: HookInput, run: HookRun, sessionId: string | undefined, policy: Policy): Promise<void> {
  if (!sessionId) return;
  const tool = str(input, 'tool_name');
  const toolInput = obj(input, 'tool_input');
  if (tool === 'Bash') {
    const command = str(toolInput, 'command');
    const kind = command ? commandKind(command) : undefined;
    const outcome = shellOutcome(dialect, event, input);
    if (!command || !kind || !outcome) return;
    const { redgreen } = readSession(run.root, sessionId);
    if (redgreen.pair) return;
    // A plain success (nothing of its kind failed before) writes nothing.
    if (outcome.passed && !redgreen.open.some((failure) => failure.kind === kind)) return;
    // The command and output are redacted before anything of them is kept; with rules that do not compile, none of it is.
    const rules = secretRules(policy);
    if (outcome.passed) {
      await updateSession(run.root, sessionId, { redgreen: (state) => onSuccess(state, kind, rules ? redactSecrets(command, rules) : kind) });
      return;
    }
    const lines = rules ? keyErrorLines(redactSecrets(outcome.output, rules)) : ['(output not kept: policy secrets.rules do not compile)'];
    await updateSession(run.root, sessionId, { redgreen: (state) => onFailure(state, { kind, command: rules ? redactSecrets(command, rules) : kind, exit: outcome.exit, lines }) });
    return;
  }
  if (event !== 'PostToolUse' || !(EDIT_TOOLS.has(tool ?? '') || tool === 'apply_patch')) return;
  const { paths } = toolAction(run.root, run.cwd, tool, toolInput);
  const { redgreen } = readSession(run.root, sessionId);
  if (paths.length > 0 && !redgreen.pair && redgreen.open.length > 0) await updateSession(run.root, sessionId, { redgreen: (state) => onEdit(state, paths) });
}
