export interface CommandOutcome {
  ok: boolean;
  /** Exit code, signal, timeout or missing program, and the last lines of output. */
  detail: string;
}

function tail(text: string, lines = 10): string {
  const kept = text.trimEnd().split('\n').slice(-lines).join('\n');
  return kept === '' ? '' : `\n${kept}`;
}

/** Runs argv without a shell in `cwd`; never throws for the command's own failure. */
export async function runArgv(argv: readonly string[], cwd: string, timeoutSeconds: number): Promise<CommandOutcome> {
  const [file, ...args] = argv;
  if (file === undefined) return { ok: false, detail: 'the command is empty' };
  // Loaded here: execa takes about 110 ms to load, and most runs of the commands that import this module start no process.
  const { execa } = await import('execa');
  const result = await execa(file, args, { cwd, reject: false, all: true, timeout: timeoutSeconds * 1000, stdin: 'ignore' });
  if (result.exitCode === 0 && !result.timedOut) return { ok: true, detail: '' };
  const output = tail(result.all ?? '');
  if (result.timedOut) return { ok: false, detail: `still running after ${timeoutSeconds} s (quality.timeout_seconds)${output}` };
  const code = (result as { code?: string }).code;
  if (code === 'ENOENT') return { ok: false, detail: `\`${file}\` was not found: install it or fix quality.commands in the policy` };
  if (result.signal) return { ok: false, detail: `killed by ${result.signal}${output}` };
  return { ok: false, detail: `exit code ${result.exitCode}${output}` };
}
