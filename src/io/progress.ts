/**
 * Progress of long work (`fetching 2/5 platform`), on stderr, for a person at a terminal only:
 * quiet with --json or --quiet, under NO_COLOR, and without a TTY (CI logs, pipes), so no
 * output meant for a machine or a log ever carries it.
 */
export interface Progress {
  /** `done` of `total` steps have started; `label` names the one under way. */
  step(done: number, total: number, label: string): void;
  /** Clears the line; called once the work ends, whether it succeeded or not. */
  end(): void;
}

export const silentProgress: Progress = { step: () => {}, end: () => {} };

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
    end() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
