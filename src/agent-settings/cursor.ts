/**
 * The Cursor hook entries in .cursor/hooks.json. Contract (Cursor agent hooks docs):
 * `{"version": 1, "hooks": {<event>: [{"command": string}]}}`. Merged like the Claude Code
 * settings: other events and hooks are kept, our entries are updated in place, a second run
 * writes nothing, and a file that is not valid JSON is refused, never overwritten.
 */
import { LessonsError } from '../errors.js';
import { mergeSettingsFile } from './settings-file.js';
import { isOurHandler, type InstallClaudeOptions, type InstallClaudeResult } from './claude.js';

export const CURSOR_HOOKS_FILE = '.cursor/hooks.json';
const EVENTS = ['sessionStart', 'beforeShellExecution', 'afterAgentResponse'] as const;

export function mergeCursorHooks(config: Record<string, unknown>, command = 'lessons'): Record<string, unknown> {
  const hooks = config.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new LessonsError('INVALID_CONFIG', `${CURSOR_HOOKS_FILE}: \`hooks\` is not an object; fix it by hand, then run again`);
  }
  const merged: Record<string, unknown> = { ...(hooks as Record<string, unknown>) };
  for (const event of EVENTS) {
    const entry = { command: `${command} hook cursor ${event}` };
    const existing = merged[event] ?? [];
    if (!Array.isArray(existing)) throw new LessonsError('INVALID_CONFIG', `${CURSOR_HOOKS_FILE}: \`hooks.${event}\` is not a list; fix it by hand, then run again`);
    const at = existing.findIndex((item) => isOurHandler(item, 'cursor'));
    merged[event] = at >= 0 ? existing.map((item, i) => (i === at ? { ...(item as object), ...entry } : item)) : [...existing, entry];
  }
  return { version: 1, ...config, hooks: merged };
}

export function installCursorHooks(root: string, options: InstallClaudeOptions = {}): InstallClaudeResult {
  return mergeSettingsFile(root, CURSOR_HOOKS_FILE, (config) => mergeCursorHooks(config, options.command));
}
