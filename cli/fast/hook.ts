/**
 * `lessons hook <claude|codex|cursor> [event]`: an agent harness hook. On the critical path of
 * every tool call, so it loads no yargs, ajv or gray-matter, and it is never in the agent's way:
 * whatever happens (bad stdin, no index, an internal error, running past its own time limit)
 * it prints the harness's neutral answer and exits 0. LESSONS_DISABLE=1 makes it a no-op.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { GLOBAL_OPTIONS } from '../options.js';
import { HOOK } from '../tables/hook.js';
import { didYouMean } from '../../src/util/suggest.js';

export const DEFAULT_TIMEOUT_MS = 2000;
const MAX_STDIN_BYTES = 16 * 1024 * 1024;

const USAGE = `usage: lessons ${HOOK.usage[0]}\n\nexample: ${HOOK.example}`;

function write(text: string): void {
  if (text === '') return;
  try {
    fs.writeSync(1, text);
  } catch {
    // the harness closed the pipe: nothing to tell it
  }
}

/**
 * All of stdin. A regular file (a redirect) is read at once; a pipe or socket (how harnesses
 * pass the input) through a net.Socket on fd 0, which stays on the event loop so the time
 * limit's timer fires even if the harness never closes stdin, and which costs less to set up
 * than process.stdin. A terminal or /dev/null has no hook input to wait for.
 */
async function readStdin(): Promise<string> {
  let stat: fs.Stats;
  try {
    stat = fs.fstatSync(0);
  } catch {
    return '';
  }
  if (stat.isCharacterDevice()) return '';
  if (stat.isFile()) return fs.readFileSync(0, 'utf8');
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

export async function run(args: string[]): Promise<0 | 1 | 2> {
  let harness: string | undefined;
  let event: string | undefined;
  let debug = args.includes('--debug');
  let answered = false;
  const { neutralAnswer, isHarness } = await import('../../src/agent/neutral.js');
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
      options: { C: GLOBAL_OPTIONS.C, debug: GLOBAL_OPTIONS.debug, ...HOOK.options },
    });
    debug = values.debug === true;
    [, harness, event] = positionals;
    if (harness === undefined || harness === 'help' || args.includes('--help') || args.includes('-h')) {
      process.stderr.write(`${USAGE}\n`);
      return 0;
    }
    if (!isHarness(harness)) {
      process.stderr.write(`lessons: unknown harness \`${harness}\`${didYouMean(harness, ['claude', 'codex', 'cursor'], (name) => `lessons hook ${name}`)}\n${USAGE}\n`);
      return 0;
    }
    if (process.env.LESSONS_DISABLE === '1') {
      answer(neutralAnswer(harness, event));
      return 0;
    }
    const limit = Number(values['timeout-ms'] ?? process.env.LESSONS_HOOK_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS);
    const ms = Number.isFinite(limit) && limit > 0 ? limit : DEFAULT_TIMEOUT_MS;
    timer = setTimeout(() => {
      answer(neutralAnswer(harness, event));
      if (debug) process.stderr.write(`lessons: hook ran past its ${ms} ms limit; answered neutrally\n`);
      // The hard limit is the point: whatever is still pending (a stdin that never closes, a
      // slow disk) must not hold the agent. The answer is already written.
      process.exit(0);
    }, ms);
    const stdin = await readStdin();
    const { runHook } = await import('../../src/agent/run.js');
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
