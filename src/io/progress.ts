/**
 * Progress of long work (`fetching 2/5 platform`), on stderr, for a person at a terminal only:
 * quiet with --json or --quiet, under NO_COLOR, and without a TTY (CI logs, pipes), so no
 * output meant for a machine or a log ever carries it.
 */
export interface Progress {
  /** `done` of `total` steps have started; `label` names the one under way. */
  step(done: number, total: number, label: string): void;
  /** A step without a count: `what: label`. */
  say(label: string): void;
  /** Clears the line; called once the work ends, whether it succeeded or not. */
  end(): void;
}

export const silentProgress: Progress = { step: () => {}, say: () => {}, end: () => {} };

export interface ProgressSetting {
  stream: { isTTY?: boolean; write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  /** --json or --quiet. */
  quiet: boolean;
}

export function progressFor(what: string, setting: ProgressSetting): Progress {
  const { stream, env, quiet } = setting;
  if (quiet || stream.isTTY !== true || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return silentProgress;
  let shown = false;
  return {
    step(done, total, label) {
      stream.write(`\r\x1b[K${what} ${done}/${total} ${label}`);
      shown = true;
    },
    say(label) {
      stream.write(`\r\x1b[K${what}: ${label}`);
      shown = true;
    },
    end() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}

/** Files between two steps of a per-file count: a terminal line per file would cost more than the files at 100,000. */
export const FILES_PER_STEP = 250;

/** Steps `progress` every FILES_PER_STEP files and at the last one. */
export function fileSteps(progress: Progress, total: number): (done: number, file: string) => void {
  if (progress === silentProgress) return () => {};
  return (done, file) => {
    if (done % FILES_PER_STEP === 0 || done === total) progress.step(done, total, file);
  };
}
