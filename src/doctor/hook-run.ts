/**
 * One hook run of `lessons doctor --run-hooks` and its row in the report: which harness (or
 * git) and event, the exit code, the time, whether the answer kept the harness's contract and
 * whether the sample lesson arrived.
 */
import { runTimed, type RunOutcome } from '../io/subprocess.js';
import type { CheckStatus } from './check.js';

export interface HookRunRow {
  /** claude, codex, cursor, ... or git. */
  harness: string;
  event: string;
  /** The exit code; null when the hook did not exit by itself (it could not start, or was stopped). */
  exit: number | null;
  ms: number;
  /** The answer is one the harness reads as intended (for git: the sample change went through). */
  contract: boolean;
  /** The sample lesson was in the answer; null where this event is not expected to carry lessons. */
  lessons: boolean | null;
  status: CheckStatus;
  message: string;
  fix?: string;
}

/** The most stdout read from a hook; harnesses read far less. */
const MAX_HOOK_STDOUT = 4 * 1024 * 1024;

/** Runs argv as a harness would: stdin written then closed, stopped (with all it started) at the timeout. */
export function timedRun(argv: readonly string[], cwd: string, input: string, timeoutMs: number, env: Record<string, string>): Promise<{ outcome: RunOutcome; ms: number }> {
  return runTimed({ argv, cwd, input, timeoutMs, maxStdoutBytes: MAX_HOOK_STDOUT, env });
}

/** The last non-empty line of stderr, for a message. */
export function lastLine(stderr: string): string {
  return stderr.trim().split('\n').filter((line) => line.trim() !== '').at(-1)?.trim() ?? '';
}

/** Why a run that did not exit by itself gives the harness nothing, or undefined when it exited. */
export function notExited(outcome: RunOutcome, timeoutSeconds: number, timeoutSource: string): string | undefined {
  switch (outcome.kind) {
    case 'exited':
      return undefined;
    case 'timeout':
      return `no answer within ${timeoutSeconds} s (${timeoutSource}): the hook is cancelled and its answer lost`;
    case 'missing':
      return `cannot spawn: ${outcome.message}`;
    case 'failed':
      return `cannot spawn: ${outcome.message}`;
    case 'signal':
      return `killed by ${outcome.signal}${outcome.stderr ? `: ${lastLine(outcome.stderr)}` : ''}`;
    case 'too-much-output':
      return `printed more than ${MAX_HOOK_STDOUT} bytes on ${outcome.stream}`;
  }
}
