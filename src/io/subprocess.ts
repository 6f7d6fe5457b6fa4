import fs from 'node:fs';

export interface BoundedRun {
  /** argv[0] is looked up on PATH; nothing goes through a shell. */
  argv: readonly string[];
  cwd: string;
  /** Written to the process's stdin, which is then closed. */
  input: string;
  timeoutMs: number;
  /** The most stdout that is read; past it the process is stopped. */
  maxStdoutBytes: number;
  env?: Record<string, string>;
}

export type RunOutcome =
  | { kind: 'exited'; exitCode: number; stdout: Buffer; stderr: string }
  | { kind: 'missing'; message: string }
  | { kind: 'timeout'; stderr: string }
  | { kind: 'too-much-output'; stream: 'stdout' | 'stderr'; stderr: string }
  | { kind: 'signal'; signal: string; stderr: string }
  | { kind: 'failed'; message: string; stderr: string };

/** stderr is for messages; more than this is a runaway process. */
const MAX_STDERR_BYTES = 16 * 1024 * 1024;
/** How long a process gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2000;
/** The end of stderr kept for messages. */
const STDERR_TAIL_CHARS = 2000;

/** The variable that marks every process a run starts, whatever session or group it moves to. */
export const RUN_MARK = 'LESSONS_RUN_MARK';

/**
 * Runs a command bounded in time and output. The process leads its own process group
 * (spawned detached), so on timeout, overflow or exit the whole tree it started is killed:
 * a reviewer that forks helpers cannot leave them running. A helper that left the group
 * (`setsid`) still carries the run's mark in its environment and is found by it. The timeout
 * bounds the whole run: a helper that keeps stdout open does not keep the run waiting.
 */
export async function runBounded(run: BoundedRun): Promise<RunOutcome> {
  const [file, ...args] = run.argv;
  if (file === undefined) return { kind: 'failed', message: 'the command is empty', stderr: '' };
  const mark = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  // Loaded here: execa takes about 110 ms to load, and most runs of the commands that import this module start no process.
  const { execa } = await import('execa');
  const subprocess = execa(file, args, {
    cwd: run.cwd,
    input: run.input,
    reject: false,
    shell: false,
    detached: true,
    encoding: 'buffer',
    stripFinalNewline: false,
    maxBuffer: { stdout: run.maxStdoutBytes, stderr: MAX_STDERR_BYTES },
    env: { ...run.env, [RUN_MARK]: mark },
    extendEnv: true,
    // Our own timer kills the group; execa's would kill only the leader.
    cleanup: true,
  });
  const pid = subprocess.pid;
  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  let giveUp: NodeJS.Timeout | undefined;
  const stopEverything = (signal: NodeJS.Signals): void => {
    killGroup(pid, signal);
    killMarked(mark, signal);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stopEverything('SIGTERM');
    killTimer = setTimeout(() => stopEverything('SIGKILL'), KILL_GRACE_MS);
  }, run.timeoutMs);
  // Past the timeout and the grace, stop waiting for the streams whoever holds them.
  const abandoned = new Promise<undefined>((resolve) => {
    giveUp = setTimeout(() => resolve(undefined), run.timeoutMs + KILL_GRACE_MS + 500);
  });
  let result: Awaited<typeof subprocess> | undefined;
  try {
    result = await Promise.race([subprocess, abandoned]);
  } finally {
    clearTimeout(timer);
    if (killTimer) clearTimeout(killTimer);
    if (giveUp) clearTimeout(giveUp);
    // Whatever the leader left behind, in its group or in a session of its own, goes too.
    stopEverything('SIGKILL');
  }
  if (result === undefined) {
    subprocess.stdout?.destroy();
    subprocess.stderr?.destroy();
    subprocess.catch(() => undefined);
    return { kind: 'timeout', stderr: '' };
  }
  const stderr = tail(Buffer.from(result.stderr ?? new Uint8Array()).toString('utf8'));
  if (timedOut) return { kind: 'timeout', stderr };
  if (result.isMaxBuffer) {
    const stream = Buffer.byteLength(Buffer.from(result.stdout ?? new Uint8Array())) >= run.maxStdoutBytes ? 'stdout' : 'stderr';
    return { kind: 'too-much-output', stream, stderr };
  }
  const code = (result as { code?: string }).code;
  if (result.failed && result.exitCode === undefined && result.signal === undefined) {
    if (code === 'ENOENT') return { kind: 'missing', message: `\`${file}\` was not found on PATH` };
    if (code === 'EACCES') return { kind: 'missing', message: `\`${file}\` is not executable` };
    return { kind: 'failed', message: result.shortMessage ?? 'the command could not be started', stderr };
  }
  if (result.signal) return { kind: 'signal', signal: result.signal, stderr };
  return { kind: 'exited', exitCode: result.exitCode ?? 0, stdout: Buffer.from(result.stdout ?? new Uint8Array()), stderr };
}

/** {@link runBounded}, and how long the run took in whole milliseconds (what a harness waiting for a hook waits). */
export async function runTimed(run: BoundedRun): Promise<{ outcome: RunOutcome; ms: number }> {
  const start = process.hrtime.bigint();
  const outcome = await runBounded(run);
  return { outcome, ms: Math.round(Number(process.hrtime.bigint() - start) / 1e6) };
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    // A negative pid addresses the process group the detached child leads.
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function tail(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed.length > STDERR_TAIL_CHARS ? `…${trimmed.slice(-STDERR_TAIL_CHARS)}` : trimmed;
}

/**
 * Kills every process of ours whose environment carries `RUN_MARK=<mark>` (Linux /proc; where
 * there is none, the process group kill is all there is). The same cookie technique Jenkins
 * uses to find the processes a build left behind.
 */
function killMarked(mark: string, signal: NodeJS.Signals): void {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  const needle = `${RUN_MARK}=${mark}\0`;
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      if (!fs.readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle)) continue;
      process.kill(Number(pid), signal);
    } catch {
      // Gone, or not ours to read.
    }
  }
}
