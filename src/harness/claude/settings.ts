/**
 * `lessons hooks install --claude`: the Claude Code hook entries in .claude/settings.json (and
 * the same for Codex in .codex/hooks.json, which uses Claude Code's format: ../codex/settings.ts).
 *
 * Settings contract (Claude Code hooks reference): `hooks` maps an event name to a list of
 * matcher groups `{ "matcher"?: string, "hooks": [{ "type": "command", "command": string,
 * "timeout"?: seconds }] }`; `matcher` is a tool-name pattern for PreToolUse and may be left out
 * for events without matchers. Project settings live in .claude/settings.json (committed).
 *
 * The file is merged, never clobbered: other keys, other events and other hooks stay as they
 * are; an existing `lessons hook claude` handler is updated in place when install wrote it and
 * kept as it is when the user edited its command; a second run writes nothing. A settings file
 * that is not valid JSON is refused, never overwritten. Uninstall removes only our handlers.
 */
import { LessonsError } from '../../errors.js';
import type { HarnessDeclaration, InstallOptions } from '../declaration.js';
import { agentHookCommand, isGeneratedCommand, isOurHandler } from '../hook-command.js';
import { harnessNamed, isHarness, type Harness } from '../registry.js';
import { mergeSettingsFile, type SettingsResult } from '../settings-file.js';
import { CLAUDE } from './declaration.js';

/** A harness that keeps its hooks in Claude Code's format, and the tool-name matcher of each of its tool events. */
export interface ClaudeStyle {
  harness: HarnessDeclaration & { name: Harness };
  matchers: Record<string, string>;
  /** The handler's `timeout`, in the harness's unit (Claude Code and Codex: seconds); default HARNESS_TIMEOUT_S. */
  timeout?: number;
}

/** Tools whose calls can carry a file path or a command that lesson triggers match. */
export const PRE_TOOL_USE_MATCHER = 'Bash|Edit|MultiEdit|Write|NotebookEdit';

const CLAUDE_STYLE: ClaudeStyle = { harness: CLAUDE, matchers: { PreToolUse: PRE_TOOL_USE_MATCHER, PostToolUse: PRE_TOOL_USE_MATCHER, PostToolUseFailure: 'Bash' } };

/** Seconds Claude Code waits before it cancels the hook; the hook's own limit is far lower. */
const HARNESS_TIMEOUT_S = 10;

interface Handler {
  type?: unknown;
  command?: unknown;
  [key: string]: unknown;
}

interface Group {
  matcher?: unknown;
  hooks?: unknown;
  [key: string]: unknown;
}

/** Our handler for `event`, or the user's edit of it when the command is not one install wrote. */
function ourHandler(existing: Handler, fresh: Handler, harness: Harness, event: string): Handler {
  return isGeneratedCommand(String(existing.command), harness, event) ? { ...existing, ...fresh } : existing;
}

function hooksObject(settings: Record<string, unknown>, file: string): Record<string, unknown> {
  const hooks = settings.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new LessonsError('INVALID_CONFIG', `${file}: \`hooks\` is not an object; fix it by hand, then run again`);
  }
  return { ...(hooks as Record<string, unknown>) };
}

/** The settings object with our hook entries merged in; pure. */
export function mergeClaudeSettings(settings: Record<string, unknown>, command?: string, style: ClaudeStyle = CLAUDE_STYLE): Record<string, unknown> {
  const { file, events } = style.harness.settings;
  const { matchers } = style;
  const name = style.harness.name;
  const isOurs = (handler: unknown) => isOurHandler(handler, name);
  const merged = hooksObject(settings, file);
  for (const event of events) {
    const matcher = matchers[event];
    const handler = { type: 'command', command: command ? `${command} hook ${name} ${event}` : agentHookCommand(name, event), timeout: style.timeout ?? HARNESS_TIMEOUT_S };
    const existing = merged[event];
    if (existing !== undefined && !Array.isArray(existing)) {
      throw new LessonsError('INVALID_CONFIG', `${file}: \`hooks.${event}\` is not a list; fix it by hand, then run again`);
    }
    const groups = [...((existing as Group[] | undefined) ?? [])];
    const at = groups.findIndex((group) => Array.isArray(group?.hooks) && (group.hooks as unknown[]).some(isOurs));
    if (at >= 0) {
      const group = groups[at]!;
      groups[at] = { ...group, hooks: (group.hooks as unknown[]).map((item) => (isOurs(item) ? ourHandler(item as Handler, handler, name, event) : item)) };
      if (matcher !== undefined && (group.hooks as unknown[]).length === 1) groups[at] = { ...groups[at], matcher };
    } else {
      groups.push(matcher !== undefined ? { matcher, hooks: [handler] } : { hooks: [handler] });
    }
    merged[event] = groups;
  }
  return { ...settings, hooks: merged };
}

/**
 * The settings file of the harness named `style`. The name is a string, not `Harness`: the
 * registry's type is built from the declarations, whose uninstall calls this.
 */
function settingsFileOf(style: string): string {
  if (!isHarness(style)) throw new Error(`no harness named ${style}`);
  return harnessNamed(style).settings.file;
}

/** The settings object without our handlers (groups and events left empty by that go too); pure. */
export function removeClaudeSettings(settings: Record<string, unknown>, style: string = 'claude'): Record<string, unknown> {
  if (settings.hooks === undefined) return settings;
  const hooks = hooksObject(settings, settingsFileOf(style));
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept = (groups as Group[]).flatMap((group) => {
      if (!Array.isArray(group?.hooks) || !(group.hooks as unknown[]).some((item) => isOurHandler(item, style))) return [group];
      const rest = (group.hooks as unknown[]).filter((item) => !isOurHandler(item, style));
      return rest.length > 0 ? [{ ...group, hooks: rest }] : [];
    });
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  return { ...settings, hooks };
}

/** Removes our handlers from a Claude-format settings file (`.claude/settings.json`, `.codex/hooks.json`, ...); other hooks stay. */
export function uninstallClaudeStyleHooks(root: string, style: string): SettingsResult {
  return mergeSettingsFile(root, settingsFileOf(style), (settings) => removeClaudeSettings(settings, style), { create: false });
}

/** Writes (or merges into) a Claude-format settings file. */
export function installClaudeStyle(root: string, style: ClaudeStyle, options: InstallOptions = {}): SettingsResult {
  return mergeSettingsFile(root, style.harness.settings.file, (settings) => mergeClaudeSettings(settings, options.command, style));
}

/** Writes (or merges into) `<root>/.claude/settings.json`. */
export function installClaudeHooks(root: string, options: InstallOptions = {}): SettingsResult {
  return installClaudeStyle(root, CLAUDE_STYLE, options);
}
