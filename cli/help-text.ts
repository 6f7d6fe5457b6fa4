import type { CommandShape } from './command.js';
import { GLOBAL_OPTIONS, type OptionSpec, type PositionalSpec } from './options.js';

/**
 * The help of every command, from its declaration: `lessons help <command>`, `lessons
 * <command> --help` and the usage errors that show it all print this, so every page has the
 * same sections in the same order: usage, what it does, arguments, options, the epilog, an example.
 */
export function helpText(command: CommandShape): string {
  const usage = command.usage ?? [command.command];
  const lines = usage.map((line, i) => `${i === 0 ? 'usage:' : '      '} lessons ${line}`);
  lines.push('', command.describe);
  const positionals = Object.entries(command.positionals ?? {});
  if (positionals.length > 0) lines.push('', 'Arguments:');
  for (const [name, spec] of positionals) {
    const shown = `${name}${spec.variadic ? '..' : ''}`;
    lines.push(...entry(spec.required ? `<${shown}>` : `[${shown}]`, spec));
  }
  lines.push('', 'Options:');
  const options = { ...command.options, C: GLOBAL_OPTIONS.C, help: GLOBAL_OPTIONS.help };
  for (const [name, spec] of Object.entries(options)) lines.push(...entry(flag(name, spec), spec));
  if (command.epilog) lines.push('', command.epilog);
  lines.push('', `example: ${command.example}`);
  return `${lines.join('\n')}\n`;
}

const HELP_WIDTH = 24;

/** One argument or option: its name, then its description beside it (under it when the name is long), then what yargs checks of it. */
function entry(name: string, spec: OptionSpec | PositionalSpec): string[] {
  const left = `  ${name}`;
  const [first = '', ...rest] = [...spec.describe.split('\n'), ...checks(spec)];
  const head = left.length < HELP_WIDTH ? [`${left.padEnd(HELP_WIDTH)}${first}`] : [left, `${''.padEnd(HELP_WIDTH)}${first}`];
  return [...head, ...rest.map((line) => `${''.padEnd(HELP_WIDTH)}${line}`)];
}

/** The values it takes (unless its description names them all), its default and whether it is required, where the declaration says so. */
function checks(spec: OptionSpec | PositionalSpec): string[] {
  const said: string[] = [];
  if (spec.choices !== undefined && !spec.choices.every((choice) => spec.describe.includes(choice))) said.push(`one of ${spec.choices.join(', ')}`);
  const fallback = 'default' in spec ? spec.default : undefined;
  if (fallback !== undefined && fallback !== false && fallback !== '') said.push(`default ${String(fallback)}`);
  if ('type' in spec && spec.required) said.push('required');
  return said.length > 0 ? [`(${said.join('; ')})`] : [];
}

function flag(name: string, spec: OptionSpec): string {
  const long = name.length === 1 ? `-${name}` : `--${name}`;
  const short = spec.short !== undefined && spec.short !== name ? `-${spec.short}, ` : '';
  const value = spec.type === 'string' ? ` ${spec.value ?? '<value>'}` : '';
  return `${short}${long}${value}`;
}
