/** `lessons hooks install --codex`: .codex/hooks.json, merged as Claude Code's settings are (../claude/settings.ts). */
import { installClaudeStyle, uninstallClaudeStyleHooks, type ClaudeStyle } from '../claude/settings.js';
import type { InstallOptions } from '../declaration.js';
import type { SettingsResult } from '../settings-file.js';
import { CODEX } from './declaration.js';

/** Codex's PreToolUse matches Bash, apply_patch and MCP tools. */
export const CODEX_PRE_TOOL_USE_MATCHER = 'Bash|apply_patch';

const CODEX_STYLE: ClaudeStyle = { harness: CODEX, matchers: { PreToolUse: CODEX_PRE_TOOL_USE_MATCHER, PostToolUse: CODEX_PRE_TOOL_USE_MATCHER } };

/** Writes (or merges into) `<root>/.codex/hooks.json`. */
export function installCodexHooks(root: string, options: InstallOptions = {}): SettingsResult {
  return installClaudeStyle(root, CODEX_STYLE, options);
}

export function uninstallCodexHooks(root: string): SettingsResult {
  return uninstallClaudeStyleHooks(root, 'codex');
}
