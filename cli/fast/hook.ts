/**
 * `lessons hook <harness> [event]`: an agent harness hook (src/harness/registry.ts). On the critical path of
 * every tool call, so it loads no yargs, ajv or gray-matter, and it is never in the agent's way:
 * whatever happens (bad stdin, no index, an internal error, running past its own time limit)
 * it prints the harness's neutral answer and exits 0. LESSONS_DISABLE=1 makes it a no-op.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { HookArgs } from '../commands/hook.js';
import { helpText } from '../help-text.js';
import { GLOBAL_OPTIONS } from '../options.js';
import { sleepSync } from '../../src/util/sleep.js';
import { didYouMean } from '../../src/util/suggest.js';

export const DEFAULT_TIMEOUT_MS = 2000;
const MAX_STDIN_BYTES = 16 * 1024 * 1024;

function write(text: string): void {
  if (text === '') return;
  try {
    fs.writeSync(1, text);
  } catch {
    // the harness closed the pipe: nothing to tell it
  }
}

/** What readStdin returns when the time limit passed before the input ended. */
const TIMED_OUT = Symbol('timed out');

/**
 * All of stdin, or TIMED_OUT. A regular file (a redirect) is read at once; a pipe without Node's
 * streams where it can be (readPipe); a socket (how a harness written in Node passes the input),
 * or a pipe that cannot be, through a net.Socket on fd 0, which stays on the event loop so the
 * time limit's timer fires even if the harness never closes stdin, and which costs less to set
 * up than process.stdin. A terminal or /dev/null has no hook input to wait for.
 */
async function readStdin(deadline: number): Promise<string | typeof TIMED_OUT> {
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(0);
  } catch {
    return '';
  }
  if (stat.isCharacterDevice()) return '';
  if (stat.isFile()) return fs.readFileSync(0, 'utf8');
  const piped = stat.isFIFO() ? readPipe(deadline) : undefined;
  if (piped !== undefined) return piped;
  const { Socket } = await import('node:net');
  const socket = new Socket({ fd: 0, readable: true, writable: false });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of socket) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) break;
    chunks.push(buffer);
  }
  socket.destroy();
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A pipe on stdin, read without loading Node's net and stream modules (a few milliseconds and
 * two megabytes of memory on every tool call): opened again through /proc/self/fd/0 (Linux), a
 * file description of its own in non-blocking mode, and read until the writer closes it, waiting
 * a little whenever it is empty, up to the time limit. Undefined where it cannot be opened so
 * (no /proc, another system): the caller reads it through a net.Socket.
 */
function readPipe(deadline: number): string | typeof TIMED_OUT | undefined {
  let fd: number;
  try {
    fd = fs.openSync('/proc/self/fd/0', fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        if (Date.now() >= deadline) return TIMED_OUT;
        sleepSync(2);
        continue;
      }
      if (n === 0) break;
      size += n;
      if (size > MAX_STDIN_BYTES) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** `lessons hook`; its help and usage errors go to stderr: stdout is the harness's answer. */
export async function hookCommand({ args, command }: HookArgs): Promise<0 | 1 | 2> {
  let harness: string | undefined;
  let event: string | undefined;
  let debug = args.includes('--debug');
  let answered = false;
  const { neutralAnswer, isHarness, HARNESS_NAMES } = await import('../../src/harness/registry.js');
  const answer = (text: string): void => {
    if (answered) return;
    answered = true;
    write(text);
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: false,
      options: { C: GLOBAL_OPTIONS.C, debug: GLOBAL_OPTIONS.debug, ...command.options },
    });
    debug = values.debug === true;
    [, harness, event] = positionals;
    if (harness === undefined || harness === 'help' || args.includes('--help') || args.includes('-h')) {
      process.stderr.write(helpText(command));
      return 0;
    }
    if (!isHarness(harness)) {
      process.stderr.write(`lessons: unknown harness \`${harness}\`${didYouMean(harness, HARNESS_NAMES, (name) => `lessons hook ${name}`)}\n${helpText(command)}`);
      return 0;
    }
    if (process.env.LESSONS_DISABLE === '1') {
      answer(neutralAnswer(harness, event));
      return 0;
    }
    const limit = Number(values['timeout-ms'] ?? process.env.LESSONS_HOOK_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS);
    const ms = Number.isFinite(limit) && limit > 0 ? limit : DEFAULT_TIMEOUT_MS;
    const timeUp = (): never => {
      answer(neutralAnswer(harness, event));
      if (debug) process.stderr.write(`lessons: hook ran past its ${ms} ms limit; answered neutrally\n`);
      // The hard limit is the point: whatever is still pending (a stdin that never closes, a
      // slow disk) must not hold the agent. The answer is already written.
      process.exit(0);
    };
    timer = setTimeout(timeUp, ms);
    const stdin = await readStdin(Date.now() + ms);
    if (stdin === TIMED_OUT) return timeUp();
    const { runHook } = await import('../../src/harness/run.js');
    const cwd = typeof values.C === 'string' ? values.C : process.cwd();
    answer(await runHook({ harness, event, stdin, cwd, env: process.env, now: new Date() }));
  } catch (error) {
    answer(neutralAnswer(harness, event));
    if (debug) process.stderr.write(`lessons: hook failed, answered neutrally: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  } finally {
    if (timer) clearTimeout(timer);
  }
  return 0;
}
