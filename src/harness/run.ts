/**
 * One agent hook run: harness + event + stdin -> the text to print. The caller prints
 * `neutralAnswer` instead when this throws or runs late; nothing here ever blocks an agent.
 */
import { hookRoot, parseHookInput, str, type HookInput, type HookRun } from '../agent/input.js';
import { harnessNamed, neutralAnswer, type Harness } from './registry.js';

export interface HookRequest {
  harness: Harness;
  /** The event named on the command line; else the input's `hook_event_name`. */
  event?: string | undefined;
  stdin: string;
  cwd: string;
  env: Record<string, string | undefined>;
  now: Date;
}

export function hookEvent(request: Pick<HookRequest, 'event'>, input: HookInput): string {
  return request.event ?? str(input, 'hook_event_name') ?? '';
}

export async function runHook(request: HookRequest): Promise<string> {
  const input = parseHookInput(request.stdin);
  const event = hookEvent(request, input);
  if (request.env.LESSONS_DISABLE === '1') return neutralAnswer(request.harness, event);
  const harness = harnessNamed(request.harness);
  const inputCwd = str(input, 'cwd');
  const root = hookRoot([inputCwd, ...harness.projectDirs(input, request.env), request.cwd]);
  if (!root) return neutralAnswer(request.harness, event);
  const run: HookRun = { root, cwd: inputCwd ?? request.cwd, now: request.now };
  return (await harness.loadHook()).answer(event, input, run);
}
