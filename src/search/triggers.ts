import type { PreflightInput } from '../preflight/query.js';
import { compiledGlob, pathMatches } from '../util/glob.js';
import { containsSequence } from './text.js';
import type { TriggerRow } from './search-index.js';

/**
 * Triggers: a lesson's `paths` (globs over repo-relative paths), `commands` (globs over a
 * shell command or one of its `&&`, `||`, `;`, `|` parts) and keyword phrases (two or more
 * words, found in order in the task, command or path text) each qualify it. Its `tools`
 * never qualify it; they rule it out when the caller names a tool of another family.
 */

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
  const re = compiledGlob(glob.trim(), false);
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
