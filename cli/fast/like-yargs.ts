import { parseArgs } from 'node:util';
import { UsageError } from '../../src/errors.js';
import { resolveCwd } from '../../src/io/repo.js';
import { didYouMean } from '../../src/util/suggest.js';
import { HELP, commandName, type CommandShape, type GlobalArgs } from '../command.js';
import { GLOBAL_OPTIONS } from '../options.js';
import { parseError } from './args.js';

/**
 * A command line read as yargs reads it, without yargs (about 150 ms of loading and building
 * the parser on every run), for the fast commands whose handler takes yargs's argv (capture,
 * lint, report): the declaration's options parsed with node:util, its positionals taken from
 * its command string (`capture [file]`, `show <id>`, `promote <ids..>`), and its options given
 * under both spellings yargs gives (`from-error` and `fromError`). The errors say what yargs's
 * do, in the same words (cli/usage-message.ts).
 */
export async function parseLikeYargs<A>(args: string[], command: CommandShape): Promise<(A & GlobalArgs) | typeof HELP> {
  const word = commandName(command);
  const more = `run \`lessons help ${word}\` for its options and an example`;
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: typeof GLOBAL_OPTIONS }>>;
  const { given, negated } = negations(args, command);
  try {
    parsed = parseArgs({ args: given, allowPositionals: true, strict: true, options: { ...GLOBAL_OPTIONS, ...command.options } as typeof GLOBAL_OPTIONS });
  } catch (error) {
    throw new UsageError(`${parseError(error as Error & { code?: string }, word)}\n${more}`);
  }
  const values = parsed.values as Record<string, unknown>;
  for (const name of negated) values[name] = false;
  if (values.help) return HELP;
  const argv: Record<string, unknown> = { debug: false };
  for (const [name, option] of Object.entries(command.options)) {
    const value = values[name] ?? option.default;
    if (value === undefined && option.required) throw new UsageError(`\`lessons ${word}\` needs --${name}\n${more}`);
    if (value === undefined) continue;
    if (option.choices !== undefined && !option.choices.includes(value as string)) {
      const given = String(value);
      throw new UsageError(`--${name} must be one of ${option.choices.join(', ')}, not '${given}'${didYouMean(given, option.choices, (choice) => `--${name} ${choice}`)}\n${more}`);
    }
    argv[name] = argv[camel(name)] = value;
  }
  const words = parsed.positionals.slice(1);
  const wanted = positionalsOf(command.command);
  for (const [i, positional] of wanted.entries()) {
    const value = positional.variadic ? words.slice(i) : words[i];
    const missing = positional.variadic ? (value as string[]).length === 0 : value === undefined;
    if (missing && positional.required) {
      const needs = wanted.filter((p) => p.required).map((p) => `<${p.name}${p.variadic ? '..' : ''}>`).join(' ');
      throw new UsageError(`\`lessons ${word}\` needs ${needs}: lessons ${command.command}\n${more}`);
    }
    if (!missing) argv[positional.name] = argv[camel(positional.name)] = value;
    const choices = command.positionals?.[positional.name]?.choices;
    if (!missing && choices !== undefined && !(positional.variadic ? (value as string[]) : [value as string]).every((one) => choices.includes(one))) {
      throw new UsageError(`<${positional.name}> must be one of ${choices.join(', ')}\n${more}`);
    }
  }
  const extra = wanted.some((p) => p.variadic) ? [] : words.slice(wanted.length);
  if (extra.length > 0) throw new UsageError(`\`lessons ${word}\` does not take ${extra.join(', ')}\n${more}`);
  if (typeof values.C === 'string') argv.C = resolveCwd(values.C);
  argv.debug = values.debug === true;
  const { setupColor } = await import('../format.js');
  setupColor(args);
  return argv as A & GlobalArgs;
}

/**
 * yargs's `--no-<flag>` for each boolean option of the command (node:util in Node 20 has none): the
 * words without them, and the options whose last word was the negation (`--json --no-json` is
 * false, `--no-json --json` true). Nothing after `--` is an option.
 */
function negations(args: readonly string[], command: Pick<CommandShape, 'options'>): { given: string[]; negated: string[] } {
  const end = args.includes('--') ? args.indexOf('--') : args.length;
  const last = new Map<string, boolean>();
  const given: string[] = [];
  args.forEach((arg, i) => {
    const name = i < end && arg.startsWith('--no-') ? arg.slice('--no-'.length) : undefined;
    if (name !== undefined && command.options[name]?.type === 'boolean') last.set(name, false);
    else {
      if (i < end && arg.startsWith('--') && command.options[arg.slice(2)]?.type === 'boolean') last.set(arg.slice(2), true);
      given.push(arg);
    }
  });
  return { given, negated: [...last].filter(([, value]) => !value).map(([name]) => name) };
}

interface Positional {
  name: string;
  required: boolean;
  variadic: boolean;
}

/** `capture [file]` -> file (optional); `show <id>` -> id (required); `<ids..>` takes the rest. */
function positionalsOf(command: string): Positional[] {
  return command
    .split(' ')
    .slice(1)
    .map((part) => {
      const inner = part.slice(1, -1);
      const variadic = inner.endsWith('..');
      return { name: variadic ? inner.slice(0, -2) : inner, required: part.startsWith('<'), variadic };
    });
}

const camel = (name: string): string => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
