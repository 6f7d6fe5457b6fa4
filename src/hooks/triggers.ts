/**
 * Hook-time trigger matching: a lesson's `triggers` (tools, path globs, command globs) against
 * what an agent is about to do. Pure functions of strings; no I/O, so they are cheap enough to run
 * before every tool call.
 */
import type { Triggers } from '../lesson/model.js';

/** What a tool call is about to do, as far as triggers care. */
export interface ToolAction {
  /** Tool name in Claude Code's vocabulary (Bash, Edit, Write, ...); other harnesses map theirs. */
  tool?: string | undefined;
  /** Repo-relative POSIX paths the call touches. */
  paths?: readonly string[] | undefined;
  /** The shell command, for Bash-like tools. */
  command?: string | undefined;
}

export interface TriggerMatch {
  matched: boolean;
  /** Why, in words a reader understands: `tool Edit`, `path package.json ~ **\/package.json`. */
  reasons: string[];
}

const regexCache = new Map<string, RegExp>();

/**
 * A glob as a regular expression. `**` crosses directories (and `**\/` may match nothing),
 * `*` and `?` stay within one path segment, `{a,b}` is an alternative. With `crossSlash`
 * (command globs), `*` matches anything, `/` included.
 */
export function globToRegExp(glob: string, crossSlash = false): RegExp {
  const key = `${crossSlash ? 'c' : 'p'}:${glob}`;
  const cached = regexCache.get(key);
  if (cached) return cached;
  let source = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          source += '(?:.*/)?';
        } else source += '.*';
      } else source += crossSlash ? '.*' : '[^/]*';
    } else if (char === '?') source += crossSlash ? '.' : '[^/]';
    else if (char === '{') {
      braces++;
      source += '(?:';
    } else if (char === '}' && braces > 0) {
      braces--;
      source += ')';
    } else if (char === ',' && braces > 0) source += '|';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`, crossSlash ? 's' : '');
  regexCache.set(key, regex);
  return regex;
}

/**
 * Whether a repo-relative POSIX path matches a trigger glob. A glob without a `/` matches the
 * file name at any depth, as in .gitignore (`CHANGELOG.md`, `*.tf`).
 */
export function pathMatches(glob: string, relPath: string): boolean {
  const pattern = glob.startsWith('./') ? glob.slice(2) : glob.startsWith('/') ? glob.slice(1) : glob;
  if (globToRegExp(pattern).test(relPath)) return true;
  if (!pattern.includes('/')) {
    const base = relPath.slice(relPath.lastIndexOf('/') + 1);
    return globToRegExp(pattern).test(base);
  }
  return false;
}

/**
 * The simple commands of a shell line: split on `&&`, `||`, `;`, `|` and newlines, leading
 * `VAR=value` assignments and `sudo`/`env` dropped, so `CI=1 npm publish` and
 * `npm test && npm publish` both present `npm publish ...` to a `npm publish*` trigger.
 */
export function simpleCommands(command: string): string[] {
  return command
    .split(/&&|\|\||[;|\n]/)
    .map((part) => part.trim().replace(/^(?:(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)|sudo|env|command|exec|time)\s+)+/, '').trim())
    .filter((part) => part !== '');
}

/** Whether a shell command (any of its simple commands) matches a command glob such as `git push --force*`. */
export function commandMatches(glob: string, command: string): boolean {
  const regex = globToRegExp(glob.trim(), true);
  return simpleCommands(command).some((part) => regex.test(part));
}

export function toolMatches(tools: readonly string[], tool: string): boolean {
  const wanted = tool.toLowerCase();
  return tools.some((candidate) => candidate.toLowerCase() === wanted);
}

/**
 * Whether a lesson's triggers fire for an action. A lesson that names paths or commands fires
 * only when one of them matches (and, when it also names tools, the tool is one of them): an
 * Edit of any file is not a reason to show a lesson about package.json. A lesson that names
 * only tools fires on those tools. Keywords are for text, not tool calls: they never fire here.
 */
export function matchTriggers(triggers: Triggers, action: ToolAction): TriggerMatch {
  const reasons: string[] = [];
  const hasTargets = triggers.paths.length > 0 || triggers.commands.length > 0;
  if (!hasTargets && triggers.tools.length === 0) return { matched: false, reasons };
  if (triggers.tools.length > 0) {
    if (!action.tool || !toolMatches(triggers.tools, action.tool)) return { matched: false, reasons };
    reasons.push(`tool ${action.tool}`);
  }
  if (!hasTargets) return { matched: true, reasons };
  let target = false;
  for (const glob of triggers.paths) {
    const hit = (action.paths ?? []).find((file) => pathMatches(glob, file));
    if (hit !== undefined) {
      target = true;
      reasons.push(`path ${hit} ~ ${glob}`);
      break;
    }
  }
  if (action.command) {
    for (const glob of triggers.commands) {
      if (commandMatches(glob, action.command)) {
        target = true;
        reasons.push(`command ~ ${glob}`);
        break;
      }
    }
  }
  return target ? { matched: true, reasons } : { matched: false, reasons: [] };
}

/** Whether a keyword phrase occurs in a text, on word boundaries, ignoring case. */
export function keywordMatches(keyword: string, text: string): boolean {
  const phrase = keyword.trim().toLowerCase();
  if (phrase === '') return false;
  const haystack = text.toLowerCase();
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(phrase, from);
    if (at < 0) return false;
    const before = at === 0 ? '' : haystack[at - 1]!;
    const after = haystack[at + phrase.length] ?? '';
    if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return true;
    from = at + 1;
  }
}
