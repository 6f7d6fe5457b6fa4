/**
 * How Claude Code runs a hook and reads its answer (code.claude.com/docs/en/hooks): the command
 * runs in a shell in the project directory with `CLAUDE_PROJECT_DIR` set and the event's JSON on
 * stdin; a command's `timeout` defaults to 600 s ("Seconds before canceling"; 60 s in
 * earlier versions). Exit 0: stdout is the JSON answer (nothing is the neutral one). Exit 2: a
 * blocking error (PreToolUse denies the call, UserPromptSubmit erases the prompt, Stop keeps
 * the agent going). Any other exit: a non-blocking "hook error", and nothing is added.
 * Codex reads the same format (../codex/probe.ts).
 */
import { parseJsonAnswer, textFields, type HarnessProbe, type ProbeSample, type ProbeVerdict } from '../probe.js';

/** What exit 2 does to each event, in the harness's words. */
const BLOCKS: Record<string, string> = {
  PreToolUse: 'the tool call is denied',
  UserPromptSubmit: 'the prompt is erased',
  Stop: 'the agent is kept from stopping',
  PostToolUse: 'the agent is shown an error',
  PostToolUseFailure: 'the agent is shown an error',
};

/** The sample input of a Claude-style event: the common fields and the event's own. */
export function claudeStyleInput(event: string, sample: ProbeSample): Record<string, unknown> {
  const common = {
    session_id: sample.sessionId,
    transcript_path: `${sample.projectDir}/.lessons/doctor-transcript.jsonl`,
    cwd: sample.projectDir,
    hook_event_name: event,
    permission_mode: 'default',
  };
  const bash = { tool_name: 'Bash', tool_input: { command: sample.command }, tool_use_id: 'toolu_doctor' };
  switch (event) {
    case 'SessionStart':
      return { ...common, source: 'startup' };
    case 'UserPromptSubmit':
      return { ...common, prompt: sample.task };
    case 'PreToolUse':
      return { ...common, ...bash };
    case 'PostToolUse':
      return { ...common, ...bash, tool_response: { stdout: '', stderr: '', interrupted: false } };
    case 'PostToolUseFailure':
      return { ...common, ...bash, error: 'Exit code 1', is_interrupt: false };
    case 'Stop':
      return { ...common, stop_hook_active: false, last_assistant_message: 'Done.' };
    default:
      return common;
  }
}

/** The harness's reading of one Claude-style answer; `product` names the harness in the problem. */
export function judgeClaudeStyle(product: string, event: string, exitCode: number, stdout: string): ProbeVerdict {
  if (exitCode === 2) return { ok: false, problem: `exits 2, which ${product} reads as a block: ${BLOCKS[event] ?? 'the event is blocked'}` };
  if (exitCode !== 0) return { ok: false, problem: `exits ${exitCode}: ${product} shows a hook error and adds nothing` };
  if (stdout.trim() === '') return { ok: true, delivered: '' };
  const parsed = parseJsonAnswer(stdout);
  if ('problem' in parsed) return { ok: false, problem: `${parsed.problem}: ${product} cannot read the answer` };
  const answer = parsed.value;
  if (answer.continue === false) return { ok: false, problem: `answers "continue": false: ${product} stops the agent` };
  if (answer.decision === 'block') return { ok: false, problem: `answers "decision": "block": ${BLOCKS[event] ?? 'the event is blocked'}` };
  const specific = answer.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific !== undefined && specific.hookEventName !== event) {
    return { ok: false, problem: `answers hookSpecificOutput.hookEventName ${JSON.stringify(specific.hookEventName)} for ${event}: ${product} rejects the answer` };
  }
  const delivered = [textFields(specific, ['additionalContext', 'permissionDecisionReason']), textFields(answer, ['systemMessage'])].filter((text) => text !== '').join('\n');
  return { ok: true, delivered };
}

export const CLAUDE_PROBE: HarnessProbe = {
  defaultTimeoutSeconds: 600,
  timeoutSource: 'Claude Code default, code.claude.com/docs/en/hooks',
  env: (projectDir) => ({ CLAUDE_PROJECT_DIR: projectDir }),
  sampleInput: claudeStyleInput,
  lessonEvents: ['UserPromptSubmit'],
  judge: (event, exitCode, stdout) => judgeClaudeStyle('Claude Code', event, exitCode, stdout),
};
