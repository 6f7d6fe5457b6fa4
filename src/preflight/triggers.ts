import type { PreflightInput } from './query.js';
import { containsSequence } from './text.js';
import type { TriggerRow } from './search-index.js';

/**
 * Triggers: a lesson's `paths` (globs over repo-relative paths), `commands` (globs over a
 * shell command or one of its `&&`, `||`, `;`, `|` parts) and keyword phrases (two or more
 * words, found in order in the task, command or path text) each qualify it. Its `tools`
 * never qualify it; they rule it out when the caller names a tool of another family.
 */

const GLOB_SPECIAL = /[*?[{]/;

/**
 * A glob as a RegExp matching the whole string. `**` spans path segments, `*` and `?` stay
 * within one (for commands, where `/` is an ordinary character, `*` spans everything),
 * `{a,b}` is either, `[...]` a character class.
 */
export function globToRegExp(glob: string, options: { pathSegments: boolean } = { pathSegments: true }): RegExp {
  const star = options.pathSegments ? '[^/]*' : '.*';
  const one = options.pathSegments ? '[^/]' : '.';
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        i++;
        if (atStart && glob[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else if (glob[i - 2] === '/' && i === glob.length - 1) {
          out = out.slice(0, -1) + '(?:/.*)?';
        } else out += '.*';
      } else out += star;
    } else if (c === '?') out += one;
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) out += '\\[';
      else {
        const body = glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = close;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else out += c.replace(/[.+^$()|\\\]}]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

const cache = new Map<string, RegExp>();

function compiled(glob: string, pathSegments: boolean): RegExp {
  const key = `${pathSegments ? 'p' : 'c'}${glob}`;
  let re = cache.get(key);
  if (!re) cache.set(key, (re = globToRegExp(glob, { pathSegments })));
  return re;
}

/** A path glob without a `/` matches the file name in any folder, as in .gitignore. */
export function pathMatches(glob: string, file: string): boolean {
  const target = glob.includes('/') ? file : file.slice(file.lastIndexOf('/') + 1);
  if (compiled(glob, true).test(target)) return true;
  // A --path that is itself a glob matches a trigger it would select (`src/**` vs `src/a/**`).
  return GLOB_SPECIAL.test(file) && compiled(file, true).test(glob.replace(/^\*\*\//, ''));
}

/**
 * Whether a path glob matches any of many files: `files.some((file) => pathMatches(glob, file))`
 * with the glob compiled once and each file's name cut once, for a glob asked of a whole
 * repository's files (report's drift).
 */
export function pathsMatcher(files: readonly string[]): (glob: string) => boolean {
  const names = files.map((file) => file.slice(file.lastIndexOf('/') + 1));
  // Files whose own path is a glob (rare): pathMatches also asks whether they would select the trigger.
  const globby = files.filter((file) => GLOB_SPECIAL.test(file));
  return (glob) => {
    const re = compiled(glob, true);
    const targets = glob.includes('/') ? files : names;
    for (let i = 0; i < targets.length; i++) if (re.test(targets[i]!)) return true;
    if (globby.length === 0) return false;
    const bare = glob.replace(/^\*\*\//, '');
    return globby.some((file) => compiled(file, true).test(bare));
  };
}

/**
 * The simple commands of a shell line: split at `&&`, `||`, `;` and `|`, without leading
 * `NAME=value` assignments, `sudo` or `env`, so `CI=1 sudo npm publish` is `npm publish`.
 */
export function simpleCommands(command: string): string[] {
  return command
    .split(/&&|\|\||[;|\n]/)
    .map((part) => part.trim().replace(/^(?:(?:[A-Za-z_][A-Za-z0-9_]*=\S*|sudo|env)\s+)+/, ''))
    .filter((part) => part !== '');
}

export function commandMatches(glob: string, command: string): boolean {
  const re = compiled(glob.trim(), false);
  const whole = command.trim();
  if (re.test(whole)) return true;
  return simpleCommands(whole).some((part) => re.test(part));
}

export interface TriggerMatch {
  /** Human-readable reasons, e.g. `path **\/package.json matches packages/cli/package.json`. */
  readonly reasons: readonly string[];
  readonly kinds: readonly ('path' | 'command' | 'keyword')[];
}

/**
 * Tools that are one kind of call under different names (Claude Code, Codex CLI, Gemini CLI,
 * Cursor): a lesson about editing a file applies to every tool that edits it.
 */
const TOOL_FAMILIES: readonly (readonly string[])[] = [
  ['edit', 'write', 'multiedit', 'notebookedit', 'apply_patch', 'replace', 'write_file', 'edit_file', 'str_replace_based_edit_tool'],
  ['bash', 'shell', 'exec_command', 'run_shell_command', 'local_shell', 'run_terminal_cmd'],
  ['read', 'view', 'read_file', 'read_many_files'],
];

function toolFamily(tool: string): string {
  const name = tool.toLowerCase();
  const family = TOOL_FAMILIES.find((members) => members.includes(name));
  return family ? family[0]! : name;
}

/** Whether a lesson's `tools` allow the caller's tool: always when either names none. */
export function toolAllows(tools: readonly string[], tool: string | null): boolean {
  if (tools.length === 0 || tool === null) return true;
  const family = toolFamily(tool);
  return tools.some((listed) => toolFamily(listed) === family);
}

/** A trigger row as matching needs it: keyword phrases as stemmed term sequences. */
export type TriggerInput = Pick<TriggerRow, 'tools' | 'paths' | 'commands' | 'phrases'>;

/**
 * How a lesson's triggers match the run; undefined when they do not. Paths, commands and
 * keyword phrases each qualify on their own; `tools` only narrows, and only when the caller
 * names a tool. `queryTerms` are the stemmed words of the task, command and paths, in order.
 */
export function matchTriggers(row: TriggerInput, input: PreflightInput, queryTerms: readonly string[] = []): TriggerMatch | undefined {
  if (!toolAllows(row.tools, input.tool)) return undefined;
  const reasons: string[] = [];
  const kinds: ('path' | 'command' | 'keyword')[] = [];
  for (const glob of row.paths) {
    const file = input.paths.find((p) => pathMatches(glob, p));
    if (file !== undefined) {
      reasons.push(`path ${glob} matches ${file}`);
      if (!kinds.includes('path')) kinds.push('path');
    }
  }
  if (input.command !== null) {
    const glob = row.commands.find((g) => commandMatches(g, input.command!));
    if (glob !== undefined) {
      reasons.push(`command matches ${glob}`);
      kinds.push('command');
    }
  }
  const phrase = row.phrases.find((terms) => containsSequence(queryTerms, terms));
  if (phrase !== undefined) {
    reasons.push(`keyword "${phrase.join(' ')}"`);
    kinds.push('keyword');
  }
  return kinds.length > 0 ? { reasons, kinds } : undefined;
}
