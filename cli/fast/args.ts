import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../../src/errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The options every command takes, whether yargs or a fast command parses them. */
export const GLOBAL_OPTIONS = {
  C: { type: 'string', short: 'C' },
  debug: { type: 'boolean', default: false },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/**
 * A fast command's flags (node:util, no yargs): its own options plus the global ones, strict,
 * with a parse error turned into a usage error that shows `hint`. The command word itself is
 * dropped from the positionals.
 */
export function parseFastArgs<T extends Options>(args: string[], options: T, hint: string) {
  try {
    const parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { ...GLOBAL_OPTIONS, ...options } });
    return { values: parsed.values, positionals: parsed.positionals.slice(1) };
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${hint}`);
  }
}

/** The command word: the first argument that is not a global option (or its value). */
export function commandWord(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-C') i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}
