/** Cursor: events, neutral answers and settings file (hook.ts answers, settings.ts installs). */
import type { HookInput } from '../../agent/input.js';
import type { HarnessDeclaration } from '../declaration.js';

/** Cursor reads a JSON answer; its permission events get the allowing one. */
const ALLOW = '{"permission":"allow"}\n';
const EMPTY = '{}\n';

function workspaceRoots(input: HookInput): string[] {
  return Array.isArray(input.workspace_roots) ? input.workspace_roots.filter((root): root is string => typeof root === 'string') : [];
}

export const CURSOR = {
  name: 'cursor',
  product: 'Cursor',
  events: {
    sessionStart: EMPTY,
    beforeSubmitPrompt: '{"continue":true}\n',
    beforeShellExecution: ALLOW,
    beforeMCPExecution: ALLOW,
    beforeReadFile: ALLOW,
    afterFileEdit: EMPTY,
    afterAgentResponse: EMPTY,
    stop: EMPTY,
  },
  otherNeutral: EMPTY,
  settings: { file: '.cursor/hooks.json', events: ['sessionStart', 'beforeShellExecution', 'afterAgentResponse'] },
  projectDirs: (input) => workspaceRoots(input),
  loadHook: async () => {
    const { cursorHook } = await import('./hook.js');
    return { answer: cursorHook };
  },
  loadSettings: async () => {
    const { installCursorHooks, uninstallCursorHooks } = await import('./settings.js');
    return { install: installCursorHooks, uninstall: uninstallCursorHooks };
  },
  loadProbe: async () => (await import('./probe.js')).CURSOR_PROBE,
} as const satisfies HarnessDeclaration;
