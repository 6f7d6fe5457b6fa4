import type { CommandModule } from 'yargs';
import { applyTable, type CommandTable } from './options.js';

/** Options every command takes. */
export interface GlobalArgs {
  C?: string | undefined;
  debug: boolean;
}

/** What a command ended with; cli/lessons.ts turns it into the process's exit code. */
export interface Outcome {
  exitCode: 0 | 1 | 2;
}

export const outcome: Outcome = { exitCode: 0 };

export interface CommandSpec<A> extends CommandTable {
  /** Runs the command and returns its exit code; prints through `io`. */
  run: (argv: A & GlobalArgs, io: Io) => Promise<0 | 1 | 2>;
}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const io: Io = {
  out: (text) => {
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  },
  err: (text) => {
    process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  },
};

/** A yargs command module whose handler records the exit code instead of exiting. */
export function defineCommand<A>(spec: CommandSpec<A>): CommandModule<GlobalArgs, A> {
  return {
    command: spec.command,
    describe: spec.describe,
    builder: (yargs) => applyTable(yargs, spec),
    handler: async (argv) => {
      outcome.exitCode = await spec.run(argv as unknown as A & GlobalArgs, io);
    },
  } as CommandModule<GlobalArgs, A>;
}
