/**
 * One agent hook run: harness + event + stdin -> the text to print. The caller prints
 * `neutralAnswer` instead when this throws or runs late; nothing here ever blocks an agent.
 */
import { hookRoot, parseHookInput, str, type HookInput, type HookRun } from './input.js';
import { neutralAnswer, type Harness } from './neutral.js';

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

function workspaceRoots(input: HookInput): string[] {
  return Array.isArray(input.workspace_roots) ? input.workspace_roots.filter((root): root is string => typeof root === 'string') : [];
}

export async function runHook(request: HookRequest): Promise<string> {
  const input = parseHookInput(request.stdin);
  const event = hookEvent(request, input);
  if (request.env.LESSONS_DISABLE === '1') return neutralAnswer(request.harness, event);
  const inputCwd = str(input, 'cwd');
  const dirs =
    request.harness === 'cursor'
      ? [inputCwd, ...workspaceRoots(input), request.cwd]
      : [inputCwd, request.harness === 'claude' ? request.env.CLAUDE_PROJECT_DIR : undefined, request.cwd];
  const root = hookRoot(dirs);
  if (!root) return neutralAnswer(request.harness, event);
  const run: HookRun = { root, cwd: inputCwd ?? request.cwd, now: request.now };
  switch (request.harness) {
    case 'claude':
      return (await import('./claude.js')).claudeStyleHook('claude', event, input, run);
    case 'codex':
      return (await import('./codex.js')).codexHook(event, input, run);
    case 'cursor':
      return (await import('./cursor.js')).cursorHook(event, input, run);
  }
}
