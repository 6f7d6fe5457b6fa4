/**
 * Gemini CLI: events, neutral answers and settings file (hook.ts answers, settings.ts installs).
 *
 * Contract read from the source (github.com/google-gemini/gemini-cli at
 * 5411f113cafae26161b4969b0237b8e1e024e2c2, and the 0.61.0 bundle on npm, which agrees):
 * - docs/hooks/reference.md and packages/core/src/hooks/types.ts: the events and their fields;
 * - packages/core/src/hooks/hookRunner.ts: the command runs through the shell with the input
 *   JSON on stdin, in the input's `cwd`; stdout is parsed as JSON, and when stdout is empty,
 *   stderr is parsed instead (plain text becomes a `systemMessage`, shown to the user). Exit 0
 *   is success, exit 1 a warning, any other exit code a blocking `decision: "deny"` (a
 *   BeforeAgent hook that exits 127 would discard the prompt). `timeout` is in milliseconds.
 * - packages/cli/src/config/settingsSchema.ts: `hooksConfig.enabled` defaults to true, so the
 *   `hooks` entries are all install writes. Project hooks run only in a trusted folder
 *   (packages/core/src/utils/trust.ts; headless: GEMINI_CLI_TRUST_WORKSPACE=true or --skip-trust).
 */
import type { HarnessDeclaration } from '../declaration.js';

/**
 * A JSON answer that changes nothing. Not an empty stdout: then Gemini CLI would read stderr
 * as the answer and show whatever is there (a --debug line) to the user.
 */
const NOTHING = '{}\n';

export const GEMINI = {
  name: 'gemini',
  product: 'Gemini CLI',
  events: { SessionStart: NOTHING, BeforeAgent: NOTHING, AfterTool: NOTHING, AfterAgent: NOTHING },
  otherNeutral: NOTHING,
  settings: { file: '.gemini/settings.json', events: ['SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent'] },
  // No projectDirVariable: GEMINI_PROJECT_DIR is the session's working directory, which may be
  // below the project's root; the hook command's `git rev-parse --show-toplevel` finds the root.
  projectDirs: () => [],
  loadHook: async () => {
    const { geminiHook } = await import('./hook.js');
    return { answer: geminiHook };
  },
  loadSettings: async () => {
    const { installGeminiHooks, uninstallGeminiHooks } = await import('./settings.js');
    return { install: installGeminiHooks, uninstall: uninstallGeminiHooks };
  },
  loadProbe: async () => (await import('./probe.js')).GEMINI_PROBE,
} as const satisfies HarnessDeclaration;
