import type { Argv, CommandModule, Options, PositionalOptions } from 'yargs';
import { io, outcome, type Command, type GlobalArgs } from './command.js';
import type { OptionSpec, OptionTable } from './options.js';

/** A command's declaration as yargs registers it: for parsing (the commands without a fast parser), for `lessons --help` and for completion. */
export function yargsCommand(command: Command<unknown>): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: command.command,
    describe: command.describe,
    builder: (yargs: Argv<GlobalArgs>) => declare(yargs, command),
    // A fast command never runs here: cli/main.ts hands its word to its bundle.
    handler: async (argv) => {
      if (command.fast === undefined) outcome.exitCode = await command.handler(argv as unknown as GlobalArgs, io, (url) => import(url));
    },
  };
}

/** A table as yargs options. */
export function yargsOptions(table: OptionTable): Record<string, Options> {
  return Object.fromEntries(Object.entries(table).map(([name, spec]) => [name, yargsOption(spec)]));
}

function yargsOption(spec: OptionSpec): Options {
  return {
    type: spec.type,
    describe: spec.describe,
    ...(spec.default === undefined ? {} : { default: spec.default }),
    ...(spec.choices === undefined ? {} : { choices: spec.choices }),
    ...(spec.required ? { demandOption: true } : {}),
    ...(spec.requiresArg ? { requiresArg: true } : {}),
    ...(spec.multiple ? { array: true } : {}),
  };
}

/** Registers a command's positionals and options with yargs. */
function declare<T>(yargs: Argv<T>, command: Command<unknown>): Argv<T> {
  let argv = yargs;
  for (const [name, spec] of Object.entries(command.positionals ?? {})) {
    const positional: PositionalOptions = { type: 'string', describe: spec.describe, ...(spec.required ? { demandOption: true } : {}), ...(spec.variadic ? { array: true } : {}), ...(spec.choices ? { choices: spec.choices } : {}) };
    argv = argv.positional(name, positional);
  }
  for (const [name, spec] of Object.entries(command.options)) argv = argv.option(name, yargsOption(spec));
  return argv;
}
