/**
 * Each installed lessons hook of each registered harness, run the way the harness runs it: the
 * command from its settings file through `sh -c`, in the project (the temporary copy), with the
 * harness's variables and a sample event on stdin, stopped at the entry's `timeout` or the
 * harness's default; then judged by the harness's own reading of its answer (src/harness/<name>/probe.ts).
 */
import path from 'node:path';
import { isGeneratedCommand, NOT_FOUND_MESSAGE, runsLessonsHook } from '../harness/hook-command.js';
import type { HarnessProbe, ProbeSample } from '../harness/probe.js';
import { HARNESSES, type Harness } from '../harness/registry.js';
import { INSTALL_HINT } from '../init/install.js';
import { readTextOrUndefined } from '../io/fs.js';
import { handlersOf, settingsHooks, type SettingsHandler } from './agent-settings.js';
import { lastLine, notExited, timedRun, type HookRunRow } from './hook-run.js';

/** The lesson the sample task should bring, and the task and command that name it. */
export interface SampleLesson {
  id: string;
  title: string;
}

export interface AgentRunContext {
  /** The temporary copy the hooks run in. */
  dir: string;
  /** PATH as the harness gives it. */
  pathValue: string;
  lesson: SampleLesson | undefined;
}

/**
 * The sample the probes build their inputs from. Each event runs in a session of its own
 * (`session`): within one session a hook does not list again what an earlier event listed, so
 * a tool call after the prompt would not bring the sample lesson.
 */
export function probeSample(dir: string, lesson: SampleLesson | undefined, session = 'lessons-doctor'): ProbeSample {
  const task = lesson?.title ?? 'Check the repository before a change';
  return { projectDir: dir, sessionId: session, task, command: `echo ${JSON.stringify(task)}` };
}

/** npx's words when the package is not installed (and --no-install forbids, or the registry refuses, fetching it). */
const NPX_UNRESOLVED = /could not determine executable|canceled|ENOTCACHED|E404|not found/i;

/** Why a hook could not start, and what fixes it: the generated command's own message, npx, or a program not found. */
function spawnProblem(handler: SettingsHandler, harness: Harness, file: string, exitCode: number, stderr: string): { message: string; fix: string } | undefined {
  if (stderr.includes(NOT_FOUND_MESSAGE)) return { message: 'cannot find `lessons` in node_modules/.bin or on the harness\'s PATH', fix: INSTALL_HINT };
  const why = lastLine(stderr) || `exit ${exitCode}`;
  const npxWords = stderr.split('\n').find((line) => NPX_UNRESOLVED.test(line));
  if (/\bnpx\b/.test(handler.command) && exitCode !== 0 && npxWords !== undefined) {
    return { message: `cannot spawn (${npxWords.trim()})`, fix: '`npx --no-install lessons` is not resolvable: run `npm install` (lessons must be in package.json\'s devDependencies)' };
  }
  if (exitCode !== 127 && exitCode !== 126) return undefined;
  const program = handler.command.trim().split(/\s+/)[0] ?? '';
  return { message: `cannot spawn (${why})`, fix: `\`${program}\` is not on the harness's PATH: fix the command in ${file}, or run \`lessons hooks install --${harness}\`` };
}

async function runOne(harness: Harness, probe: HarnessProbe, file: string, event: string, handler: SettingsHandler, context: AgentRunContext): Promise<HookRunRow> {
  const timeout = handler.timeout === undefined ? probe.defaultTimeoutSeconds : (handler.timeout * (probe.timeoutUnitMs ?? 1000)) / 1000;
  const source = handler.timeout === undefined ? probe.timeoutSource : `its timeout in ${file}`;
  const input = JSON.stringify(probe.sampleInput(event, probeSample(context.dir, context.lesson, `lessons-doctor-${harness}-${event}`)));
  const env = { PATH: context.pathValue, ...probe.env(context.dir) };
  const { outcome, ms } = await timedRun(['sh', '-c', handler.command], context.dir, input, timeout * 1000, env);
  const expectsLessons = probe.lessonEvents.includes(event) && context.lesson !== undefined;
  const row = { harness, event, ms };
  const failed = (exit: number | null, message: string, fix: string): HookRunRow => ({ ...row, exit, contract: false, lessons: expectsLessons ? false : null, status: 'fail', message, fix });
  const reinstall = isGeneratedCommand(handler.command, harness, event) ? `run \`lessons hooks install --${harness}\`` : `fix the ${event} command in ${file} (or run \`lessons hooks install --${harness}\`)`;
  const stopped = notExited(outcome, timeout, source);
  if (stopped !== undefined || outcome.kind !== 'exited') {
    const fix = outcome.kind === 'timeout' ? `a hook must answer within its timeout: run \`lessons index\` (a stale index makes the hooks read every lesson file), or raise \`timeout\` for ${event} in ${file}` : reinstall;
    return failed(null, stopped ?? 'did not exit', fix);
  }
  const spawn = spawnProblem(handler, harness, file, outcome.exitCode, outcome.stderr);
  if (spawn) return failed(outcome.exitCode, spawn.message, spawn.fix);
  const verdict = probe.judge(event, outcome.exitCode, outcome.stdout.toString('utf8'));
  if (!verdict.ok) return failed(outcome.exitCode, `${verdict.problem}${outcome.stderr ? ` (stderr: ${lastLine(outcome.stderr)})` : ''}`, reinstall);
  if (!expectsLessons) return { ...row, exit: outcome.exitCode, contract: true, lessons: null, status: 'ok', message: `answered in ${ms} ms` };
  const lesson = context.lesson!;
  if (verdict.delivered.includes(lesson.id)) return { ...row, exit: outcome.exitCode, contract: true, lessons: true, status: 'ok', message: `answered in ${ms} ms with ${lesson.id}` };
  return {
    ...row,
    exit: outcome.exitCode,
    contract: true,
    lessons: false,
    status: 'warn',
    message: `answered in ${ms} ms without ${lesson.id}, which the sample task ${JSON.stringify(probeSample(context.dir, lesson).task)} should bring${outcome.stderr ? ` (stderr: ${lastLine(outcome.stderr)})` : ''}`,
    fix: `run \`lessons preflight ${JSON.stringify(lesson.title)}\` to see what the task selects, and check the hook's stderr`,
  };
}

/** A harness's installed lessons hooks, as its settings file declares them. */
export interface InstalledHooks {
  harness: (typeof HARNESSES)[number];
  hooks: { event: string; handler: SettingsHandler }[];
}

/** The lessons hooks each harness with a settings file in `root` would run (a file that is not JSON is agent-hooks:<name>'s to report). */
export function installedAgentHooks(root: string): InstalledHooks[] {
  return HARNESSES.flatMap((harness): InstalledHooks[] => {
    const text = readTextOrUndefined(path.join(root, harness.settings.file));
    let hooks: Record<string, unknown>;
    try {
      if (text === undefined) return [];
      hooks = settingsHooks(JSON.parse(text));
    } catch {
      return [];
    }
    const installed = harness.settings.events.flatMap((event) => {
      const handler = handlersOf(hooks[event]).find((item) => runsLessonsHook(item.command, harness.name));
      return handler ? [{ event, handler }] : [];
    });
    return installed.length > 0 ? [{ harness, hooks: installed }] : [];
  });
}

/** The rows of the installed hooks, run one after another as each harness runs them. */
export async function runAgentHooks(installed: readonly InstalledHooks[], context: AgentRunContext): Promise<HookRunRow[]> {
  const rows: HookRunRow[] = [];
  for (const { harness, hooks } of installed) {
    const probe = harness.loadProbe ? await harness.loadProbe() : undefined;
    if (!probe) {
      rows.push({ harness: harness.name, event: '*', exit: null, ms: 0, contract: false, lessons: null, status: 'warn', message: `not run: ${harness.product} declares no probe`, fix: `add src/harness/${harness.name}/probe.ts and loadProbe to its declaration` });
      continue;
    }
    for (const { event, handler } of hooks) rows.push(await runOne(harness.name, probe, harness.settings.file, event, handler, context));
  }
  return rows;
}
