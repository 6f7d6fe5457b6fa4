import { parseArgs } from 'node:util';
import { UsageError } from '../../src/errors.js';
import { HELP, type FastParser, type GlobalArgs } from '../command.js';
import { helpText } from '../help-text.js';
import { GLOBAL_OPTIONS, type OptionTable } from '../options.js';

/**
 * A fast command's flags (node:util, no yargs): its table's options plus the global ones,
 * strict, with a parse error turned into a usage error that shows `hint`. The table is given to
 * parseArgs as it is (parseArgs reads type, short, multiple and default, and ignores the help
 * fields), so the values keep their types. The command word is dropped from the positionals.
 */
export function parseFastArgs<T extends OptionTable>(args: string[], options: T, hint: string) {
  try {
    const parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { ...GLOBAL_OPTIONS, ...options } });
    return { values: parsed.values, positionals: parsed.positionals.slice(1) };
  } catch (error) {
    throw new UsageError(`${parseError(error as Error & { code?: string }, commandWord(args) ?? '')}\n${hint}`);
  }
}

/** What a flags parser hands its command's handler: the flags as node:util gives them, the words after the command word, and what its usage errors add (`hint`). */
export type Flags<T extends OptionTable> = ReturnType<typeof parseFastArgs<T>> & { hint: string } & GlobalArgs;

/**
 * The parser of a fast command whose handler checks its own flags and words (guard, hooks,
 * index, preflight): its usage errors show `hint`, by default the command's help.
 */
export function flagsParser<T extends OptionTable>(hint?: string): FastParser<Flags<T>> {
  return (args, command) => {
    const shown = hint ?? helpText(command);
    const parsed = parseFastArgs(args, command.options as T, shown);
    const globals = parsed.values as { help?: boolean; C?: string; debug?: boolean };
    if (globals.help) return HELP;
    return { ...parsed, hint: shown, C: globals.C, debug: globals.debug === true };
  };
}

/** node:util's parse errors in the words the other commands use (node's own mention its API). */
export function parseError(error: Error & { code?: string }, word: string): string {
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) return `\`lessons ${word}\` does not take ${unknown[1]}`;
  const valueless = /^Option '(?:-\w, )?(--[\w-]+)[^']*' argument (missing|is ambiguous)/.exec(error.message);
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && valueless) {
    const [, flag, why] = valueless;
    return why === 'missing' ? `${flag} needs a value` : `${flag} needs a value (one that starts with a dash is given as ${flag}=<value>)`;
  }
  return error.message;
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
