/**
 * How Cursor runs a hook and reads its answer (cursor.com/docs/agent/hooks): the command runs
 * in the project with the event's JSON on stdin and answers one JSON object on stdout. Exit 2
 * denies the action; any other failure (another exit code, a timeout, output that is not JSON)
 * fails open unless the entry sets `failClosed`, so the action goes on and nothing the hook said
 * arrives. An entry may set `timeout` in seconds; we found no documented default, so doctor waits
 * 60 s when it sets none.
 */
import { parseJsonAnswer, textFields, type HarnessProbe, type ProbeSample, type ProbeVerdict } from '../probe.js';

function cursorInput(event: string, sample: ProbeSample): Record<string, unknown> {
  const common = { conversation_id: sample.sessionId, generation_id: 'doctor', hook_event_name: event, workspace_roots: [sample.projectDir], cursor_version: 'doctor' };
  switch (event) {
    case 'sessionStart':
      return { ...common, session_id: sample.sessionId, is_background_agent: false, composer_mode: 'agent' };
    case 'beforeSubmitPrompt':
      return { ...common, prompt: sample.task, attachments: [] };
    case 'beforeShellExecution':
      return { ...common, command: sample.command, cwd: sample.projectDir };
    case 'afterAgentResponse':
      return { ...common, text: 'Done.' };
    default:
      return common;
  }
}

function judgeCursor(event: string, exitCode: number, stdout: string): ProbeVerdict {
  if (exitCode === 2) return { ok: false, problem: 'exits 2, which Cursor reads as "deny": the action is blocked' };
  if (exitCode !== 0) return { ok: false, problem: `exits ${exitCode}: Cursor counts the hook as failed and uses nothing it printed` };
  const parsed = parseJsonAnswer(stdout);
  if ('problem' in parsed) return { ok: false, problem: `${parsed.problem}: Cursor needs one JSON object and uses nothing it printed` };
  const answer = parsed.value;
  if (answer.permission === 'deny' || answer.permission === 'ask') return { ok: false, problem: `answers "permission": "${String(answer.permission)}" to ${event}: the action is held up` };
  if (answer.continue === false) return { ok: false, problem: 'answers "continue": false: the prompt is not sent' };
  return { ok: true, delivered: textFields(answer, ['additional_context', 'agent_message', 'user_message']) };
}

export const CURSOR_PROBE: HarnessProbe = {
  defaultTimeoutSeconds: 60,
  timeoutSource: 'doctor\'s bound: Cursor documents no default',
  env: () => ({}),
  sampleInput: cursorInput,
  lessonEvents: ['beforeShellExecution'],
  judge: judgeCursor,
};
