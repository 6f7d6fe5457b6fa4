import type { Argv, CommandModule } from 'yargs';
import { applyTable, type CommandTable } from './options.js';
import { writeOutput } from '../src/io/output.js';
import { printable } from '../src/util/printable.js';

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
  /** One command line that shows the command at work, printed under Examples in its help. */
  example: string;
  /** Runs the command and returns its exit code; prints through `io`. */
  run: (argv: A & GlobalArgs, io: Io) => Promise<0 | 1 | 2>;
}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * Everything the commands print goes through here: lesson and reviewer text reaches the
 * terminal without control characters or escape sequences other than the colours we add.
 */
export const io: Io = {
  out: (text) => {
    writeOutput(1, printable(text.endsWith('\n') ? text : `${text}\n`, { keepColour: true }));
  },
  err: (text) => {
    writeOutput(2, printable(text.endsWith('\n') ? text : `${text}\n`, { keepColour: true }));
  },
};

/** A yargs command module whose handler records the exit code instead of exiting. */
export function defineCommand<A>(spec: CommandSpec<A>): CommandModule<GlobalArgs, A> & { spec: CommandSpec<A> } {
  return {
    spec,
    command: spec.command,
    describe: spec.describe,
    // The same shape as the fast commands' help: a usage line, what it does, an example.
    builder: (yargs: Argv<GlobalArgs>) => applyTable(yargs, spec).usage(`usage: lessons ${spec.command}\n\n${spec.describe}`).example(spec.example, ''),
    handler: async (argv) => {
      outcome.exitCode = await spec.run(argv as unknown as A & GlobalArgs, io);
    },
  } as CommandModule<GlobalArgs, A> & { spec: CommandSpec<A> };
}
