/**
 * Doctor's check of each registered harness's settings file (src/harness/registry.ts):
 * present, valid JSON, a lessons handler for every event install writes,
 * and a command that finds the binary. A harness without a settings file is not set up, which
 * is not a failure.
 */
import path from 'node:path';
import { agentHookCommand, isGeneratedCommand, runsLessonsHook } from '../harness/hook-command.js';
import { HARNESSES, HARNESS_NAMES, harnessNamed, type Harness } from '../harness/registry.js';
import { readTextOrUndefined } from '../io/fs.js';
import { check, type Check } from './check.js';
import { INSTALL_HINT } from '../init/install.js';

/** A hook handler as a settings file declares it: its shell command and its `timeout` in seconds, if set. */
export interface SettingsHandler {
  command: string;
  timeout?: number;
}

/** Every handler with a `command` under `hooks.<event>`, in either format (Claude-style groups or Cursor's flat list). */
export function handlersOf(entries: unknown): SettingsHandler[] {
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry): SettingsHandler[] => {
    if (!entry || typeof entry !== 'object') return [];
    const record = entry as Record<string, unknown>;
    if (typeof record.command === 'string') return [typeof record.timeout === 'number' && record.timeout > 0 ? { command: record.command, timeout: record.timeout } : { command: record.command }];
    return Array.isArray(record.hooks) ? handlersOf(record.hooks) : [];
  });
}

/** The `hooks` object of a parsed settings file ({} when there is none). */
export function settingsHooks(settings: unknown): Record<string, unknown> {
  const hooks = settings && typeof settings === 'object' ? (settings as { hooks?: unknown }).hooks : undefined;
  return hooks && typeof hooks === 'object' && !Array.isArray(hooks) ? (hooks as Record<string, unknown>) : {};
}

/**
 * The check for one harness; `binary` is where the generated command would find lessons
 * (undefined: nowhere), `onPath` whether a bare `lessons` resolves.
 */
export function checkAgentSettings(root: string, harness: Harness, binary: string | undefined, onPath: boolean): Check | undefined {
  const { file, events } = harnessNamed(harness).settings;
  const name = `agent-hooks:${harness}`;
  const reinstall = `run \`lessons hooks install --${harness}\``;
  const text = readTextOrUndefined(path.join(root, file));
  if (text === undefined) return undefined;
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch (error) {
    return check(name, 'fail', `${file} is not valid JSON (${(error as Error).message}): ${harness} runs none of its hooks`, `fix the file by hand, then ${reinstall}`);
  }
  const hooks = settingsHooks(settings);
  const ours = events.map((event) => ({ event, command: handlersOf(hooks[event]).find((handler) => runsLessonsHook(handler.command, harness))?.command }));
  const missing = ours.filter((entry) => entry.command === undefined).map((entry) => entry.event);
  if (missing.length === events.length) return check(name, 'warn', `${file} has no lessons hooks`, reinstall);
  if (missing.length > 0) return check(name, 'fail', `${file} has no lessons hook for ${missing.join(', ')}`, reinstall);
  const bare = ours.filter((entry) => entry.command === `lessons hook ${harness} ${entry.event}`);
  if (bare.length > 0 && !onPath) {
    return check(name, 'fail', `${file} runs a bare \`lessons\`, which is not on PATH, so every hook exits 127 and the agent gets no lessons`, `${reinstall} (the command it writes now finds node_modules/.bin/lessons)`);
  }
  const generated = ours.filter((entry) => entry.command === agentHookCommand(harness, entry.event));
  if (generated.length > 0 && binary === undefined) {
    return check(name, 'fail', `${file}: the hooks find \`lessons\` neither in node_modules/.bin nor on PATH`, INSTALL_HINT);
  }
  const custom = ours.filter((entry) => !isGeneratedCommand(entry.command!, harness, entry.event)).map((entry) => entry.event);
  const note = custom.length > 0 ? `; your own command for ${custom.join(', ')} is kept and not checked` : '';
  return check(name, 'ok', `${file}: ${events.length} lessons hooks, running ${binary ?? 'lessons on PATH'}${note}`);
}

export function checkAllAgentSettings(root: string, binary: string | undefined, onPath: boolean): Check[] {
  const checks = HARNESS_NAMES.flatMap((harness) => checkAgentSettings(root, harness, binary, onPath) ?? []);
  if (checks.length > 0) return checks;
  const files = HARNESSES.map((harness) => harness.settings.file).join(', ');
  const [first, ...others] = HARNESS_NAMES.map((name) => `--${name}`);
  return [check('agent-hooks', 'skip', `no agent harness settings (${files})`, `run \`lessons hooks install ${first}\` (or ${others.join(', ')}) to put lessons in front of your agent`)];
}
