/**
 * What `lessons doctor --run-hooks` needs from a harness to run its hooks the way the harness
 * does and to judge what they print: a sample input per event, the environment and default
 * timeout the harness gives a hook command, and its reading of the exit code and stdout. Each
 * harness declares one in `<name>/probe.ts` (loaded by its declaration's `loadProbe`); the runner
 * is src/doctor/hook-runs.ts.
 */

/** What a sample input is made of: a task that one of the repository's lessons answers. */
export interface ProbeSample {
  /** The project directory (the temporary copy the hook runs in). */
  projectDir: string;
  sessionId: string;
  /** A prompt that should bring the sample lesson (its title). */
  task: string;
  /** A shell command that should bring the sample lesson. */
  command: string;
}

/** What the harness makes of one answer: the text that reaches the agent, or why nothing does. */
export type ProbeVerdict = { ok: true; delivered: string } | { ok: false; problem: string };

export interface HarnessProbe {
  /**
   * Seconds the harness waits for a hook command whose entry sets no `timeout` (the entry's
   * `timeout`, in seconds, wins).
   */
  readonly defaultTimeoutSeconds: number;
  /** Where that default is documented. */
  readonly timeoutSource: string;
  /** Milliseconds in one unit of an entry's `timeout`: 1000 (seconds) unless the harness says otherwise (Gemini CLI: 1). */
  readonly timeoutUnitMs?: number;
  /** The variables the harness adds to a hook's environment. */
  env(projectDir: string): Record<string, string>;
  /** The JSON the harness writes to the hook's stdin for `event`. */
  sampleInput(event: string, sample: ProbeSample): Record<string, unknown>;
  /** The events whose answer must carry the sample lesson (the others are only checked for their contract). */
  readonly lessonEvents: readonly string[];
  /** The harness's reading of an exit code and stdout for `event`. */
  judge(event: string, exitCode: number, stdout: string): ProbeVerdict;
}

/** The first bytes of `text` from `at`, as a reader can see them (control bytes escaped). */
export function excerptAt(text: string, at: number, length = 24): string {
  return at >= text.length ? 'the end of the output' : JSON.stringify(text.slice(at, at + length));
}

/**
 * `stdout` as one JSON object, or why a harness that parses it cannot: the offset and first
 * bad bytes, so the reader sees whether a log line or a banner came before the answer.
 */
export function parseJsonAnswer(stdout: string): { value: Record<string, unknown> } | { problem: string } {
  const start = stdout.search(/\S/);
  if (start < 0) return { problem: 'printed nothing' };
  if (stdout[start] !== '{') return { problem: `printed ${excerptAt(stdout, start)} where a JSON object must start` };
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    const at = position !== undefined ? Number(position) : /end of JSON/i.test(message) ? stdout.length : start;
    const why = message.split('\n')[0]!.replace(/ in JSON at position \d+.*$/, '');
    return { problem: `printed invalid JSON: ${why} at byte ${at}: ${excerptAt(stdout, at)}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { problem: `printed ${excerptAt(stdout, start)}, not a JSON object` };
  return { value: value as Record<string, unknown> };
}

/** The string fields of `record` named in `keys`, joined: what reaches the agent or the user. */
export function textFields(record: Record<string, unknown> | undefined, keys: readonly string[]): string {
  if (!record) return '';
  return keys.flatMap((key) => (typeof record[key] === 'string' ? [record[key] as string] : [])).join('\n');
}
