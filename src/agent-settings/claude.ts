/**
 * `lessons hooks install --claude`: the Claude Code hook entries in .claude/settings.json (and
 * the same for Codex in .codex/hooks.json, which uses Claude Code's format).
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
import { LessonsError } from '../errors.js';
import { agentHookCommand, isGeneratedCommand, runsLessonsHook } from './agent-command.js';
import { mergeSettingsFile } from './settings-file.js';

export const CLAUDE_SETTINGS_FILE = '.claude/settings.json';
/** Codex hooks (developers.openai.com/codex/hooks): <repo>/.codex/hooks.json, Claude Code's format. */
export const CODEX_HOOKS_FILE = '.codex/hooks.json';

/** Tools whose calls can carry a file path or a command that lesson triggers match. */
export const PRE_TOOL_USE_MATCHER = 'Bash|Edit|MultiEdit|Write|NotebookEdit';
/** Codex's PreToolUse matches Bash, apply_patch and MCP tools. */
export const CODEX_PRE_TOOL_USE_MATCHER = 'Bash|apply_patch';

type ClaudeStyle = 'claude' | 'codex';

/**
 * The events install writes a handler for, per harness. PostToolUse (and Claude Code's
 * PostToolUseFailure, which fires instead when a Bash command exits non-zero) feed the
 * red -> green drafts; Codex has PostToolUse but no failure event.
 */
export const CLAUDE_INSTALLED_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop'] as const;
export const CODEX_INSTALLED_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;

/** The settings file and, for the tool events, the tool-name matcher of each event. */
const STYLE: Record<ClaudeStyle, { file: string; events: readonly string[]; matchers: Record<string, string> }> = {
  claude: { file: CLAUDE_SETTINGS_FILE, events: CLAUDE_INSTALLED_EVENTS, matchers: { PreToolUse: PRE_TOOL_USE_MATCHER, PostToolUse: PRE_TOOL_USE_MATCHER, PostToolUseFailure: 'Bash' } },
  codex: { file: CODEX_HOOKS_FILE, events: CODEX_INSTALLED_EVENTS, matchers: { PreToolUse: CODEX_PRE_TOOL_USE_MATCHER, PostToolUse: CODEX_PRE_TOOL_USE_MATCHER } },
};

/** Seconds Claude Code waits before it cancels the hook; the hook's own limit is far lower. */
const HARNESS_TIMEOUT_S = 10;

export interface InstallClaudeOptions {
  /**
   * How the hook runs `lessons` (e.g. `npx --no-install lessons`); by default the project's
   * node_modules/.bin/lessons, else `lessons` on PATH (agent-command.ts).
   */
  command?: string;
}

export interface InstallClaudeResult {
  path: string;
  changed: boolean;
}

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

/** A handler this command wrote: its command runs `lessons hook <harness>`. */
export function isOurHandler(handler: unknown, harness: string): boolean {
  if (!handler || typeof handler !== 'object' || typeof (handler as Handler).command !== 'string') return false;
  return runsLessonsHook((handler as Handler).command as string, harness);
}

/** Our handler for `event`, or the user's edit of it when the command is not one install wrote. */
function ourHandler(existing: Handler, fresh: Handler, style: ClaudeStyle, event: string): Handler {
  return isGeneratedCommand(String(existing.command), style, event) ? { ...existing, ...fresh } : existing;
}

function hooksObject(settings: Record<string, unknown>, file: string): Record<string, unknown> {
  const hooks = settings.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new LessonsError('INVALID_CONFIG', `${file}: \`hooks\` is not an object; fix it by hand, then run again`);
  }
  return { ...(hooks as Record<string, unknown>) };
}

/** The settings object with our hook entries merged in; pure. */
export function mergeClaudeSettings(settings: Record<string, unknown>, command?: string, style: ClaudeStyle = 'claude'): Record<string, unknown> {
  const { file, events, matchers } = STYLE[style];
  const isOurs = (handler: unknown) => isOurHandler(handler, style);
  const merged = hooksObject(settings, file);
  for (const event of events) {
    const matcher = matchers[event];
    const handler = { type: 'command', command: command ? `${command} hook ${style} ${event}` : agentHookCommand(style, event), timeout: HARNESS_TIMEOUT_S };
    const existing = merged[event];
    if (existing !== undefined && !Array.isArray(existing)) {
      throw new LessonsError('INVALID_CONFIG', `${file}: \`hooks.${event}\` is not a list; fix it by hand, then run again`);
    }
    const groups = [...((existing as Group[] | undefined) ?? [])];
    const at = groups.findIndex((group) => Array.isArray(group?.hooks) && (group.hooks as unknown[]).some(isOurs));
    if (at >= 0) {
      const group = groups[at]!;
      groups[at] = { ...group, hooks: (group.hooks as unknown[]).map((item) => (isOurs(item) ? ourHandler(item as Handler, handler, style, event) : item)) };
      if (matcher !== undefined && (group.hooks as unknown[]).length === 1) groups[at] = { ...groups[at], matcher };
    } else {
      groups.push(matcher !== undefined ? { matcher, hooks: [handler] } : { hooks: [handler] });
    }
    merged[event] = groups;
  }
  return { ...settings, hooks: merged };
}

/** The settings object without our handlers (groups and events left empty by that go too); pure. */
export function removeClaudeSettings(settings: Record<string, unknown>, style: ClaudeStyle = 'claude'): Record<string, unknown> {
  if (settings.hooks === undefined) return settings;
  const hooks = hooksObject(settings, STYLE[style].file);
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

/** Removes our handlers from `<root>/.claude/settings.json` or `.codex/hooks.json`; other hooks stay. */
export function uninstallClaudeStyleHooks(root: string, style: ClaudeStyle): InstallClaudeResult {
  return mergeSettingsFile(root, STYLE[style].file, (settings) => removeClaudeSettings(settings, style), { create: false });
}

/** Writes (or merges into) `<root>/.claude/settings.json`. */
export function installClaudeHooks(root: string, options: InstallClaudeOptions = {}): InstallClaudeResult {
  return installClaudeStyle(root, 'claude', options);
}

/** Writes (or merges into) `<root>/.codex/hooks.json`. */
export function installCodexHooks(root: string, options: InstallClaudeOptions = {}): InstallClaudeResult {
  return installClaudeStyle(root, 'codex', options);
}

function installClaudeStyle(root: string, style: ClaudeStyle, options: InstallClaudeOptions): InstallClaudeResult {
  return mergeSettingsFile(root, STYLE[style].file, (settings) => mergeClaudeSettings(settings, options.command, style));
}
