/**
 * How Gemini CLI runs a hook and reads its answer (google-gemini/gemini-cli at 5411f113ca,
 * packages/core/src/hooks/hookRunner.ts): the command runs through the shell in the input's
 * `cwd`, with GEMINI_PROJECT_DIR, GEMINI_CWD and CLAUDE_PROJECT_DIR set to it and the event's
 * JSON on stdin; an entry's `timeout` is in milliseconds, 60,000 by default. Exit 0: stdout is
 * the JSON answer, and an empty stdout makes the CLI read stderr instead and show it to the user.
 * Exit 1: a warning, nothing added. Any other exit: a blocking `decision: "deny"` (a BeforeAgent
 * hook that exits 127 discards the prompt).
 */
import { parseJsonAnswer, textFields, type HarnessProbe, type ProbeSample, type ProbeVerdict } from '../probe.js';

/** What a deny does to each event, in the harness's words. */
const DENIES: Record<string, string> = {
  BeforeAgent: 'the prompt is discarded',
  AfterTool: "the tool's result is replaced by the denial",
  AfterAgent: 'the answer is rejected and the agent retries',
  SessionStart: 'the session start is marked failed',
};

function sampleInput(event: string, sample: ProbeSample): Record<string, unknown> {
  const common = { session_id: sample.sessionId, transcript_path: `${sample.projectDir}/.lessons/doctor-transcript.json`, cwd: sample.projectDir, hook_event_name: event, timestamp: '2026-01-01T00:00:00.000Z' };
  switch (event) {
    case 'SessionStart':
      return { ...common, source: 'startup' };
    case 'BeforeAgent':
      return { ...common, prompt: sample.task };
    case 'AfterTool':
      return {
        ...common,
        tool_name: 'run_shell_command',
        tool_input: { command: sample.command },
        tool_response: { llmContent: `Command: ${sample.command}\nExit Code: 0`, returnDisplay: '' },
      };
    case 'AfterAgent':
      return { ...common, prompt: sample.task, prompt_response: 'Done.', stop_hook_active: false };
    default:
      return common;
  }
}

function judge(event: string, exitCode: number, stdout: string): ProbeVerdict {
  if (exitCode === 1) return { ok: false, problem: 'exits 1: Gemini CLI shows a warning and adds nothing' };
  if (exitCode !== 0) return { ok: false, problem: `exits ${exitCode}, which Gemini CLI reads as a deny: ${DENIES[event] ?? 'the event is blocked'}` };
  // An empty stdout is not neutral here: the CLI reads stderr as the answer and shows it to the user.
  const parsed = parseJsonAnswer(stdout);
  if ('problem' in parsed) return { ok: false, problem: `${parsed.problem}: Gemini CLI cannot read the answer` };
  const answer = parsed.value;
  if (answer.decision === 'deny' || answer.decision === 'block') return { ok: false, problem: `answers "decision": ${JSON.stringify(answer.decision)}: ${DENIES[event] ?? 'the event is blocked'}` };
  if (answer.continue === false) return { ok: false, problem: 'answers "continue": false: Gemini CLI stops the agent' };
  const specific = answer.hookSpecificOutput as Record<string, unknown> | undefined;
  const delivered = [textFields(specific, ['additionalContext']), textFields(answer, ['systemMessage'])].filter((text) => text !== '').join('\n');
  return { ok: true, delivered };
}

export const GEMINI_PROBE: HarnessProbe = {
  defaultTimeoutSeconds: 60,
  timeoutSource: 'Gemini CLI default (DEFAULT_HOOK_TIMEOUT, packages/core/src/hooks/hookRunner.ts)',
  timeoutUnitMs: 1,
  env: (projectDir) => ({ GEMINI_PROJECT_DIR: projectDir, GEMINI_CWD: projectDir, CLAUDE_PROJECT_DIR: projectDir }),
  sampleInput,
  lessonEvents: ['BeforeAgent'],
  judge,
};
