/** Globs over repo-relative paths and commands, as lesson triggers and policy projects write them. */

const GLOB_SPECIAL = /[*?[{]/;

/** A compiled glob: whether a whole string matches it. */
export interface GlobMatcher {
  test(text: string): boolean;
}

/** The longest glob compiled; a longer one, like one that does not parse, matches nothing (lint names it). */
export const MAX_GLOB_LENGTH = 1000;

/**
 * One step of a compiled glob, run by a set of positions at once (a Thompson machine): `char`
 * consumes one character that `test` accepts, `split` goes on at every target without
 * consuming. Matching is linear in the text times the glob, whatever the glob: a regular
 * expression of the same glob (`*a*a*a*a*b`) backtracks for minutes on a 255-character name.
 */
type Step = { kind: 'char'; test: (c: string) => boolean } | { kind: 'split'; to: number[] } | { kind: 'match' };

/** Why `glob` cannot be compiled, or undefined when it can. */
export function globProblem(glob: string): string | undefined {
  if (glob.length > MAX_GLOB_LENGTH) return `is ${glob.length} characters long, over the ${MAX_GLOB_LENGTH} a glob may have`;
  try {
    compileSteps(glob, true);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A glob as a matcher of the whole string. `**` spans path segments, `*` and `?` stay within
 * one (for commands, where `/` is an ordinary character, `*` spans everything), `{a,b}` is
 * either, `[...]` a character class. A glob that does not compile (globProblem()) matches nothing.
 */
export function globToRegExp(glob: string, options: { pathSegments: boolean } = { pathSegments: true }): GlobMatcher {
  let steps: Step[];
  try {
    if (glob.length > MAX_GLOB_LENGTH) return NOTHING;
    steps = compileSteps(glob, options.pathSegments);
  } catch {
    return NOTHING;
  }
  if (steps.every((step) => step.kind !== 'split') && !GLOB_SPECIAL.test(glob)) return { test: (text) => text === glob };
  const seen = new Int32Array(steps.length);
  // Most texts are told apart by the glob's literal ends (`src/` … `.ts`) before the machine runs.
  const { prefix, suffix } = literalEnds(glob);
  return { test: (text) => text.startsWith(prefix) && text.endsWith(suffix) && text.length >= prefix.length + suffix.length && runSteps(steps, seen, text) };
}

const SPECIAL_OR_GROUP = /[*?[{},\]]/;

/**
 * Text every match of `glob` starts with and ends with: the characters before its first special
 * one and (without braces) after its last, each less a slash at the wildcard's side, since
 * `dir/**` matches `dir` itself and `**\/name` matches `name` at the top.
 */
function literalEnds(glob: string): { prefix: string; suffix: string } {
  const first = glob.search(SPECIAL_OR_GROUP);
  if (first < 0) return { prefix: glob, suffix: '' };
  const prefix = glob.slice(0, first).replace(/\/$/, '');
  if (glob.includes('{')) return { prefix, suffix: '' };
  let last = glob.length - 1;
  while (last >= 0 && !SPECIAL_OR_GROUP.test(glob[last]!)) last--;
  return { prefix, suffix: glob.slice(last + 1).replace(/^\//, '') };
}

const NOTHING: GlobMatcher = { test: () => false };

/** The steps of `glob`, as the regular expression this module used to build reads it; throws, saying why, for one that does not parse. */
function compileSteps(glob: string, pathSegments: boolean): Step[] {
  const steps: Step[] = [];
  const notSlash = (c: string): boolean => c !== '/';
  const anyChar = (): boolean => true;
  const charOf = (test: (c: string) => boolean): void => void steps.push({ kind: 'char', test });
  const literal = (l: string): void => charOf((c) => c === l);
  /** A run of characters `test` accepts, maybe none. */
  const runOf = (test: (c: string) => boolean): void => {
    const at = steps.length;
    steps.push({ kind: 'split', to: [at + 1, at + 3] }, { kind: 'char', test }, { kind: 'split', to: [at] });
  };
  /** Open groups: where each starts (its split) and the jumps out of its finished alternatives. */
  const groups: { split: number; exits: number[] }[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        i++;
        if (atStart && glob[i + 1] === '/') {
          i++;
          // (?:.*/)? : nothing, or anything that ends in a slash.
          const at = steps.length;
          steps.push({ kind: 'split', to: [at + 1, at + 5] });
          runOf(anyChar);
          literal('/');
        } else if (glob[i - 2] === '/' && i === glob.length - 1 && isLiteralSlash(steps[steps.length - 1])) {
          // (?:/.*)? in place of the slash before it: the folder itself or anything below it.
          steps.pop();
          const at = steps.length;
          steps.push({ kind: 'split', to: [at + 1, at + 5] });
          literal('/');
          runOf(anyChar);
        } else runOf(anyChar);
      } else runOf(pathSegments ? notSlash : anyChar);
    } else if (c === '?') charOf(pathSegments ? notSlash : anyChar);
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) literal('[');
      else {
        const body = glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        let cls: RegExp;
        try {
          cls = new RegExp(`^[${body}]$`);
        } catch {
          throw new Error(`has a character class [${glob.slice(i + 1, close)}] that is not valid (a range backwards, like [z-a]?)`);
        }
        charOf((ch) => cls.test(ch));
        i = close;
      }
    } else if (c === '{') {
      groups.push({ split: steps.length, exits: [] });
      steps.push({ kind: 'split', to: [steps.length + 1] });
    } else if (c === '}' && groups.length > 0) {
      const group = groups.pop()!;
      for (const exit of group.exits) (steps[exit] as { to: number[] }).to = [steps.length];
    } else if (c === ',' && groups.length > 0) {
      const group = groups[groups.length - 1]!;
      group.exits.push(steps.length);
      steps.push({ kind: 'split', to: [] });
      (steps[group.split] as { to: number[] }).to.push(steps.length);
    } else literal(c);
  }
  if (groups.length > 0) throw new Error(`has ${groups.length === 1 ? 'a `{` that is' : `${groups.length} \`{\` that are`} never closed: close each with \`}\` (write [{] for the character itself)`);
  steps.push({ kind: 'match' });
  return steps;
}

function isLiteralSlash(step: Step | undefined): boolean {
  return step?.kind === 'char' && step.test('/') && !step.test('a');
}

/** Whether `steps` match the whole of `text`: every position the machine can be at, advanced one character at a time. */
function runSteps(steps: readonly Step[], seen: Int32Array, text: string): boolean {
  seen.fill(-1);
  let current: number[] = [];
  let next: number[] = [];
  let round = 0;
  const add = (into: number[], at: number): void => {
    if (seen[at] === round) return;
    seen[at] = round;
    const step = steps[at]!;
    if (step.kind === 'split') for (const to of step.to) add(into, to);
    else into.push(at);
  };
  add(current, 0);
  // By UTF-16 unit, as the regular expression (without the u flag) read it.
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    round++;
    next = [];
    for (const at of current) {
      const step = steps[at]!;
      if (step.kind === 'char' && step.test(c)) add(next, at + 1);
    }
    if (next.length === 0) return false;
    current = next;
  }
  return current.some((at) => steps[at]!.kind === 'match');
}

const cache = new Map<string, GlobMatcher>();

/** A glob compiled once per process (`pathSegments` false for commands, where `/` is ordinary). */
export function compiledGlob(glob: string, pathSegments: boolean): GlobMatcher {
  const key = `${pathSegments ? 'p' : 'c'}${glob}`;
  let re = cache.get(key);
  if (!re) cache.set(key, (re = globToRegExp(glob, { pathSegments })));
  return re;
}

/** A path glob without a `/` matches the file name in any folder, as in .gitignore. */
export function pathMatches(glob: string, file: string): boolean {
  const target = glob.includes('/') ? file : file.slice(file.lastIndexOf('/') + 1);
  if (compiledGlob(glob, true).test(target)) return true;
  // A --path that is itself a glob matches a trigger it would select (`src/**` vs `src/a/**`).
  return GLOB_SPECIAL.test(file) && compiledGlob(file, true).test(glob.replace(/^\*\*\//, ''));
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
    const re = compiledGlob(glob, true);
    const targets = glob.includes('/') ? files : names;
    for (let i = 0; i < targets.length; i++) if (re.test(targets[i]!)) return true;
    if (globby.length === 0) return false;
    const bare = glob.replace(/^\*\*\//, '');
    return globby.some((file) => compiledGlob(file, true).test(bare));
  };
}
