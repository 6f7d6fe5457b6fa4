import { didYouMean } from '../src/util/suggest.js';

/**
 * yargs' parse errors in the tool's words: what was wrong, the nearest valid value where there
 * is one, and where to read more. `commands` maps each command word to its usage
 * (`show <id>`); `word` is the command the user typed, if any.
 */
export function usageMessage(message: string, word: string | undefined, commands: Readonly<Record<string, string>>): string {
  const names = Object.keys(commands);
  const known = word !== undefined && names.includes(word);
  const more = known ? `run \`lessons help ${word}\` for its options and an example` : 'run `lessons --help` for the commands';
  const text = translate(message, word, known, commands, names);
  return `${text}\n${more}`;
}

function translate(message: string, word: string | undefined, known: boolean, commands: Readonly<Record<string, string>>, names: string[]): string {
  if (word !== undefined && !known && (/^Did you mean /.test(message) || /^Unknown arguments?: /.test(message))) {
    return `unknown command '${word}'${didYouMean(word, names, (name) => `lessons ${name}`)}`;
  }
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (unknown) return `\`lessons ${word}\` does not take ${unknown[1]}`;
  const invalid = /^Invalid values:\s+Argument: (\S+), Given: "(.*)", Choices: (.+)$/s.exec(message);
  if (invalid) {
    const [, option, given, list] = invalid;
    const choices = [...list!.matchAll(/"([^"]*)"/g)].map((match) => match[1]!);
    return `--${option} must be one of ${choices.join(', ')}, not '${given}'${didYouMean(given!, choices, (choice) => `--${option} ${choice}`)}`;
  }
  if (/^Not enough non-option arguments/.test(message) && known) {
    const usage = commands[word!]!;
    const wanted = usage.split(' ').filter((part) => part.startsWith('<')).join(' ');
    return `\`lessons ${word}\` needs ${wanted}: lessons ${usage}`;
  }
  const missing = /^Missing required arguments?: (.+)$/.exec(message);
  if (missing && known) {
    const options = missing[1]!.split(', ').map((name) => `--${name}`);
    return `\`lessons ${word}\` needs ${options.join(' and ')}`;
  }
  return message;
}
