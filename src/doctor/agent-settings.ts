/**
 * Doctor's check of the agent harness settings (.claude/settings.json, .codex/hooks.json,
 * .cursor/hooks.json): present, valid JSON, a lessons handler for every event install writes,
 * and a command that finds the binary. A harness without a settings file is not set up, which
 * is not a failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { agentHookCommand, isGeneratedCommand, runsLessonsHook } from '../agent-settings/agent-command.js';
import { CLAUDE_INSTALLED_EVENTS, CLAUDE_SETTINGS_FILE, CODEX_HOOKS_FILE, CODEX_INSTALLED_EVENTS } from '../agent-settings/claude.js';
import { CURSOR_HOOKS_FILE, CURSOR_INSTALLED_EVENTS } from '../agent-settings/cursor.js';
import type { Harness } from '../agent/neutral.js';
import { check, type Check } from './check.js';

const HARNESS_FILES: Record<Harness, { file: string; events: readonly string[] }> = {
  claude: { file: CLAUDE_SETTINGS_FILE, events: CLAUDE_INSTALLED_EVENTS },
  codex: { file: CODEX_HOOKS_FILE, events: CODEX_INSTALLED_EVENTS },
  cursor: { file: CURSOR_HOOKS_FILE, events: CURSOR_INSTALLED_EVENTS },
};

/** Every `command` string under `hooks.<event>`, in either format (Claude-style groups or Cursor's flat list). */
function commandsOf(entries: unknown): string[] {
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry) => {
    if (!entry || typeof entry !== 'object') return [];
    const record = entry as Record<string, unknown>;
    if (typeof record.command === 'string') return [record.command];
    return Array.isArray(record.hooks) ? commandsOf(record.hooks) : [];
  });
}

/**
 * The check for one harness; `binary` is where the generated command would find lessons
 * (undefined: nowhere), `onPath` whether a bare `lessons` resolves.
 */
export function checkAgentSettings(root: string, harness: Harness, binary: string | undefined, onPath: boolean): Check | undefined {
  const { file, events } = HARNESS_FILES[harness];
  const name = `agent-hooks:${harness}`;
  const reinstall = `run \`lessons hooks install --${harness}\``;
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, file), 'utf8');
  } catch {
    return undefined;
  }
  let settings: { hooks?: Record<string, unknown> };
  try {
    settings = JSON.parse(text) as { hooks?: Record<string, unknown> };
  } catch (error) {
    return check(name, 'fail', `${file} is not valid JSON (${(error as Error).message}): ${harness} runs none of its hooks`, `fix the file by hand, then ${reinstall}`);
  }
  const hooks = settings && typeof settings.hooks === 'object' && settings.hooks !== null ? settings.hooks : {};
  const ours = events.map((event) => ({ event, command: commandsOf(hooks[event]).find((command) => runsLessonsHook(command, harness)) }));
  const missing = ours.filter((entry) => entry.command === undefined).map((entry) => entry.event);
  if (missing.length === events.length) return check(name, 'warn', `${file} has no lessons hooks`, reinstall);
  if (missing.length > 0) return check(name, 'fail', `${file} has no lessons hook for ${missing.join(', ')}`, reinstall);
  const bare = ours.filter((entry) => entry.command === `lessons hook ${harness} ${entry.event}`);
  if (bare.length > 0 && !onPath) {
    return check(name, 'fail', `${file} runs a bare \`lessons\`, which is not on PATH, so every hook exits 127 and the agent gets no lessons`, `${reinstall} (the command it writes now finds node_modules/.bin/lessons)`);
  }
  const generated = ours.filter((entry) => entry.command === agentHookCommand(harness, entry.event));
  if (generated.length > 0 && binary === undefined) {
    return check(name, 'fail', `${file}: the hooks find \`lessons\` neither in node_modules/.bin nor on PATH`, 'run `npm install --save-dev lessons` (or install it globally)');
  }
  const custom = ours.filter((entry) => !isGeneratedCommand(entry.command!, harness, entry.event)).map((entry) => entry.event);
  const note = custom.length > 0 ? `; your own command for ${custom.join(', ')} is kept and not checked` : '';
  return check(name, 'ok', `${file}: ${events.length} lessons hooks, running ${binary ?? 'lessons on PATH'}${note}`);
}

export function checkAllAgentSettings(root: string, binary: string | undefined, onPath: boolean): Check[] {
  const checks = (Object.keys(HARNESS_FILES) as Harness[]).flatMap((harness) => checkAgentSettings(root, harness, binary, onPath) ?? []);
  if (checks.length > 0) return checks;
  return [check('agent-hooks', 'skip', 'no agent harness settings (.claude/settings.json, .codex/hooks.json, .cursor/hooks.json)', 'run `lessons hooks install --claude` (or --codex, --cursor) to put lessons in front of your agent')];
}
