/**
 * The Cursor hook entries in .cursor/hooks.json. Contract (Cursor agent hooks docs):
 * `{"version": 1, "hooks": {<event>: [{"command": string}]}}`. Merged like the Claude Code
 * settings: other events and hooks are kept, our entries are updated in place (a command the
 * user edited is kept), a second run writes nothing, and a file that is not valid JSON is
 * refused, never overwritten. Uninstall removes only our entries.
 */
import { LessonsError } from '../../errors.js';
import type { InstallOptions } from '../declaration.js';
import { agentHookCommand, isGeneratedCommand, isOurHandler } from '../hook-command.js';
import { mergeSettingsFile, type SettingsResult } from '../settings-file.js';
import { CURSOR } from './declaration.js';

const CURSOR_HOOKS_FILE = CURSOR.settings.file;

function hooksOf(config: Record<string, unknown>): Record<string, unknown> {
  const hooks = config.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new LessonsError('INVALID_CONFIG', `${CURSOR_HOOKS_FILE}: \`hooks\` is not an object; fix it by hand, then run again`);
  }
  return { ...(hooks as Record<string, unknown>) };
}

export function mergeCursorHooks(config: Record<string, unknown>, command?: string): Record<string, unknown> {
  const merged = hooksOf(config);
  for (const event of CURSOR.settings.events) {
    const entry = { command: command ? `${command} hook cursor ${event}` : agentHookCommand('cursor', event) };
    const existing = merged[event] ?? [];
    if (!Array.isArray(existing)) throw new LessonsError('INVALID_CONFIG', `${CURSOR_HOOKS_FILE}: \`hooks.${event}\` is not a list; fix it by hand, then run again`);
    const at = existing.findIndex((item) => isOurHandler(item, 'cursor'));
    const update = (item: { command: string }) => (isGeneratedCommand(item.command, 'cursor', event) ? { ...item, ...entry } : item);
    merged[event] = at >= 0 ? existing.map((item, i) => (i === at ? update(item as { command: string }) : item)) : [...existing, entry];
  }
  return { version: 1, ...config, hooks: merged };
}

/** The config without our entries; pure. */
export function removeCursorHooks(config: Record<string, unknown>): Record<string, unknown> {
  if (config.hooks === undefined) return config;
  const hooks = hooksOf(config);
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) continue;
    const kept = entries.filter((item) => !isOurHandler(item, 'cursor'));
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  return { ...config, hooks };
}

export function uninstallCursorHooks(root: string): SettingsResult {
  return mergeSettingsFile(root, CURSOR_HOOKS_FILE, removeCursorHooks, { create: false });
}

export function installCursorHooks(root: string, options: InstallOptions = {}): SettingsResult {
  return mergeSettingsFile(root, CURSOR_HOOKS_FILE, (config) => mergeCursorHooks(config, options.command));
}
