/** Codex CLI: events, neutral answers and settings file (hook.ts answers, settings.ts installs). */
import type { HarnessDeclaration } from '../declaration.js';

/** As under Claude Code, whose wire format Codex uses: empty stdout with exit 0 adds nothing. */
const NOTHING = '';

export const CODEX = {
  name: 'codex',
  product: 'Codex CLI',
  // No PostToolUseFailure: Codex has none.
  events: { SessionStart: NOTHING, UserPromptSubmit: NOTHING, PreToolUse: NOTHING, PostToolUse: NOTHING, Stop: NOTHING },
  otherNeutral: NOTHING,
  // developers.openai.com/codex/hooks: <repo>/.codex/hooks.json, in Claude Code's format.
  settings: { file: '.codex/hooks.json', events: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] },
  projectDirs: () => [],
  loadHook: async () => {
    const { codexHook } = await import('./hook.js');
    return { answer: codexHook };
  },
  loadSettings: async () => {
    const { installCodexHooks, uninstallCodexHooks } = await import('./settings.js');
    return { install: installCodexHooks, uninstall: uninstallCodexHooks };
  },
  loadProbe: async () => (await import('./probe.js')).CODEX_PROBE,
} as const satisfies HarnessDeclaration;
