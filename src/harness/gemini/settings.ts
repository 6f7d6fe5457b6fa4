/**
 * `lessons hooks install --gemini`: the hook entries in .gemini/settings.json, the project
 * settings Gemini CLI reads (docs/hooks/reference.md, "Configuration schema"). The format is
 * Claude Code's: `hooks` maps an event to matcher groups `{ "matcher"?, "hooks": [{ "type":
 * "command", "command", "timeout"? }] }`, with `timeout` in milliseconds and `matcher` a regular
 * expression over tool names for the tool events. So it is merged as the Claude Code settings
 * are (../claude/settings.ts): the user's other settings and hooks are kept, a command they
 * edited is kept, a second run writes nothing, a file that is not valid JSON is refused.
 */
import { installClaudeStyle, uninstallClaudeStyleHooks, type ClaudeStyle } from '../claude/settings.js';
import type { InstallOptions } from '../declaration.js';
import type { SettingsResult } from '../settings-file.js';
import { GEMINI } from './declaration.js';

/** The built-in tools whose calls carry a command or a file path that lesson triggers match and the red -> green record reads (hook.ts maps them). */
export const AFTER_TOOL_MATCHER = 'run_shell_command|write_file|replace';

/** Milliseconds Gemini CLI waits before it kills the hook (its default is 60000); the hook's own limit is far lower. */
const HARNESS_TIMEOUT_MS = 10_000;

const GEMINI_STYLE: ClaudeStyle = { harness: GEMINI, matchers: { AfterTool: AFTER_TOOL_MATCHER }, timeout: HARNESS_TIMEOUT_MS };

/** Writes (or merges into) `<root>/.gemini/settings.json`. */
export function installGeminiHooks(root: string, options: InstallOptions = {}): SettingsResult {
  return installClaudeStyle(root, GEMINI_STYLE, options);
}

export function uninstallGeminiHooks(root: string): SettingsResult {
  return uninstallClaudeStyleHooks(root, 'gemini');
}
