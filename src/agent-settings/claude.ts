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
 * are; an existing `lessons hook claude` handler is updated in place; a second run writes
 * nothing. A settings file that is not valid JSON is refused, never overwritten.
 */
import { LessonsError } from '../errors.js';
import { mergeSettingsFile } from './settings-file.js';

export const CLAUDE_SETTINGS_FILE = '.claude/settings.json';
/** Codex hooks (developers.openai.com/codex/hooks): <repo>/.codex/hooks.json, Claude Code's format. */
export const CODEX_HOOKS_FILE = '.codex/hooks.json';

/** Tools whose calls can carry a file path or a command that lesson triggers match. */
export const PRE_TOOL_USE_MATCHER = 'Bash|Edit|MultiEdit|Write|NotebookEdit';
/** Codex's PreToolUse matches Bash, apply_patch and MCP tools. */
export const CODEX_PRE_TOOL_USE_MATCHER = 'Bash|apply_patch';

type ClaudeStyle = 'claude' | 'codex';

const STYLE: Record<ClaudeStyle, { file: string; matcher: string }> = {
  claude: { file: CLAUDE_SETTINGS_FILE, matcher: PRE_TOOL_USE_MATCHER },
  codex: { file: CODEX_HOOKS_FILE, matcher: CODEX_PRE_TOOL_USE_MATCHER },
};

/** Seconds Claude Code waits before it cancels the hook; the hook's own limit is far lower. */
const HARNESS_TIMEOUT_S = 10;

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop'] as const;

export interface InstallClaudeOptions {
  /** How the hook runs `lessons` (default `lessons`, on PATH; e.g. `npx --no-install lessons`). */
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
  return new RegExp(`(?:^|[\\s/"'])lessons(?:\\.js)?["']?\\s+hook\\s+${harness}(?:\\s|$)`).test((handler as Handler).command as string);
}

/** The settings object with our four hook entries merged in; pure. */
export function mergeClaudeSettings(settings: Record<string, unknown>, command = 'lessons', style: ClaudeStyle = 'claude'): Record<string, unknown> {
  const { file, matcher } = STYLE[style];
  const isOurs = (handler: unknown) => isOurHandler(handler, style);
  const hooks = settings.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new LessonsError('INVALID_CONFIG', `${file}: \`hooks\` is not an object; fix it by hand, then run again`);
  }
  const merged: Record<string, unknown> = { ...(hooks as Record<string, unknown>) };
  for (const event of EVENTS) {
    const handler = { type: 'command', command: `${command} hook ${style} ${event}`, timeout: HARNESS_TIMEOUT_S };
    const existing = merged[event];
    if (existing !== undefined && !Array.isArray(existing)) {
      throw new LessonsError('INVALID_CONFIG', `${file}: \`hooks.${event}\` is not a list; fix it by hand, then run again`);
    }
    const groups = [...((existing as Group[] | undefined) ?? [])];
    const at = groups.findIndex((group) => Array.isArray(group?.hooks) && (group.hooks as unknown[]).some(isOurs));
    if (at >= 0) {
      const group = groups[at]!;
      groups[at] = { ...group, hooks: (group.hooks as unknown[]).map((item) => (isOurs(item) ? { ...(item as Handler), ...handler } : item)) };
      if (event === 'PreToolUse' && (group.hooks as unknown[]).length === 1) groups[at] = { ...groups[at], matcher };
    } else {
      groups.push(event === 'PreToolUse' ? { matcher, hooks: [handler] } : { hooks: [handler] });
    }
    merged[event] = groups;
  }
  return { ...settings, hooks: merged };
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
