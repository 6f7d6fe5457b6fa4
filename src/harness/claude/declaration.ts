/** Claude Code: events, neutral answers and settings file (hook.ts answers, settings.ts installs). */
import type { HarnessDeclaration } from '../declaration.js';

/** Claude Code and Codex: empty stdout with exit 0 is success with nothing added. */
const NOTHING = '';

export const CLAUDE = {
  name: 'claude',
  product: 'Claude Code',
  events: { SessionStart: NOTHING, UserPromptSubmit: NOTHING, PreToolUse: NOTHING, PostToolUse: NOTHING, PostToolUseFailure: NOTHING, Stop: NOTHING },
  otherNeutral: NOTHING,
  // PostToolUse (and PostToolUseFailure, which fires instead when a Bash command exits
  // non-zero) feed the red -> green drafts.
  settings: { file: '.claude/settings.json', events: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop'] },
  projectDirVariable: 'CLAUDE_PROJECT_DIR',
  projectDirs: (_input, env) => [env.CLAUDE_PROJECT_DIR],
  loadHook: async () => {
    const { claudeStyleHook } = await import('./hook.js');
    return { answer: (event, input, run) => claudeStyleHook('claude', event, input, run) };
  },
  loadSettings: async () => {
    const { installClaudeHooks, uninstallClaudeStyleHooks } = await import('./settings.js');
    return { install: installClaudeHooks, uninstall: (root) => uninstallClaudeStyleHooks(root, 'claude') };
  },
  loadProbe: async () => (await import('./probe.js')).CLAUDE_PROBE,
} as const satisfies HarnessDeclaration;
