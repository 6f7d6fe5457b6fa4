/**
 * The options of a command's declaration (cli/command.ts): the fast commands parse argv with
 * them (node:util, no yargs), yargs registers them (for the other commands, for `lessons
 * --help` and for shell completion), and every command's help is written from them.
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

/** The options every command takes, whether yargs or a fast command parses them. */
export const GLOBAL_OPTIONS = {
  C: { type: 'string', short: 'C', value: '<dir>', requiresArg: true, describe: 'Run as if started in <dir> (like git -C)' },
  debug: { type: 'boolean', default: false, describe: 'Show stack traces for internal errors' },
  color: { type: 'boolean', describe: 'Colour the output (off when NO_COLOR is set or stdout is not a terminal)' },
  'no-color': { type: 'boolean', describe: 'Never colour the output' },
  help: { type: 'boolean', short: 'h', describe: 'Show this help' },
} as const satisfies OptionTable;
