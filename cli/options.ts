import type { Argv, Options, PositionalOptions } from 'yargs';

/**
 * One table of options per command: the fast commands parse argv with it (node:util, no
 * yargs), yargs registers it (for the other commands, for `lessons --help` and for shell
 * completion), and the fast commands' --help text is written from it.
 */
export interface OptionSpec {
  type: 'string' | 'boolean';
  describe: string;
  /** The value's name in help (`<ref>`); string options only. */
  value?: string;
  short?: string;
  /** Repeatable: every occurrence is kept, in order. */
  multiple?: boolean;
  default?: string | boolean;
  choices?: readonly string[];
  /** yargs refuses the command without it. */
  required?: boolean;
  /** yargs refuses the flag without a value. */
  requiresArg?: boolean;
}

export type OptionTable = Record<string, OptionSpec>;

export interface PositionalSpec {
  describe: string;
  required?: boolean;
  /** Takes every remaining word. */
  variadic?: boolean;
  choices?: readonly string[];
}

/** A command as --help and completion see it. */
export interface CommandTable {
  /** yargs command string: the name with its positionals (`preflight <task..>`). */
  command: string;
  describe: string;
  positionals?: Record<string, PositionalSpec>;
  options: OptionTable;
  /** Usage lines for the fast command's --help; the first is also its one-line synopsis. */
  usage?: readonly string[];
  /** Paragraphs after the options in the fast command's --help. */
  epilog?: string;
  /** One command line that shows the command at work, last in its help. */
  example?: string;
}

/** The options every command takes, whether yargs or a fast command parses them. */
export const GLOBAL_OPTIONS = {
  C: { type: 'string', short: 'C', value: '<dir>', requiresArg: true, describe: 'Run as if started in <dir> (like git -C)' },
  debug: { type: 'boolean', default: false, describe: 'Show stack traces for internal errors' },
  color: { type: 'boolean', describe: 'Colour the output (off when NO_COLOR is set or stdout is not a terminal)' },
  'no-color': { type: 'boolean', describe: 'Never colour the output' },
  help: { type: 'boolean', short: 'h', describe: 'Show this help' },
} as const satisfies OptionTable;

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
export function applyTable<T>(yargs: Argv<T>, table: Pick<CommandTable, 'positionals' | 'options'>): Argv<T> {
  let argv = yargs;
  for (const [name, spec] of Object.entries(table.positionals ?? {})) {
    const positional: PositionalOptions = { type: 'string', describe: spec.describe, ...(spec.required ? { demandOption: true } : {}), ...(spec.variadic ? { array: true } : {}), ...(spec.choices ? { choices: spec.choices } : {}) };
    argv = argv.positional(name, positional);
  }
  for (const [name, spec] of Object.entries(table.options)) argv = argv.option(name, yargsOption(spec));
  return argv;
}

function flag(name: string, spec: OptionSpec): string {
  const long = name.length === 1 ? `-${name}` : `--${name}`;
  const short = spec.short !== undefined && spec.short !== name ? `-${spec.short}, ` : '';
  const value = spec.type === 'string' ? ` ${spec.value ?? '<value>'}` : '';
  return `${short}${long}${value}`;
}

const HELP_WIDTH = 24;

/** A fast command's --help, from its table: usage, what it does, its options, then the epilog. */
export function helpText(table: CommandTable): string {
  const usage = table.usage ?? [table.command];
  const lines = usage.map((line, i) => `${i === 0 ? 'usage:' : '      '} lessons ${line}`);
  lines.push('', table.describe);
  const positionals = Object.entries(table.positionals ?? {});
  if (positionals.length > 0) lines.push('', 'Arguments:');
  for (const [name, spec] of positionals) {
    const shown = `${name}${spec.variadic ? '..' : ''}`;
    const left = `  ${spec.required ? `<${shown}>` : `[${shown}]`}`;
    lines.push(`${left.padEnd(HELP_WIDTH)}${spec.describe}`);
  }
  lines.push('', 'Options:');
  const options = { ...table.options, C: GLOBAL_OPTIONS.C, help: GLOBAL_OPTIONS.help };
  for (const [name, spec] of Object.entries(options)) {
    const left = `  ${flag(name, spec)}`;
    const [first = '', ...rest] = spec.describe.split('\n');
    lines.push(left.length < HELP_WIDTH ? `${left.padEnd(HELP_WIDTH)}${first}` : `${left}\n${''.padEnd(HELP_WIDTH)}${first}`);
    for (const line of rest) lines.push(`${''.padEnd(HELP_WIDTH)}${line}`);
  }
  if (table.epilog) lines.push('', table.epilog);
  if (table.example) lines.push('', `example: ${table.example}`);
  return `${lines.join('\n')}\n`;
}
