/**
 * The regular expressions and globs of a policy, checked before any code compiles or runs them:
 * one that does not compile would be an internal error later, and one with a nested unbounded
 * quantifier (`(a+)+$`) backtracks exponentially on a line that almost matches and hangs the guard.
 */
import { globProblem } from '../util/glob.js';

export interface PatternError {
  field: string;
  message: string;
}

/**
 * Whether `source` has a group repeated without bound that itself repeats something without
 * bound (star height two: `(a+)+`, `(\w*\s?)*`, `(?:x+y?){2,}`), the shape behind catastrophic
 * backtracking. A bounded repetition inside (`(?:-[a-z]{1,12}){2,}`) is let through.
 */
export function hasNestedQuantifier(source: string): boolean {
  const open: boolean[] = [false];
  let i = 0;
  const unboundedAt = (at: number): number => {
    const c = source[at];
    if (c === '*' || c === '+') return 1;
    if (c === '{') {
      const match = /^\{\d+,\}/.exec(source.slice(at, at + 24));
      if (match) return match[0].length;
    }
    return 0;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') i += 2;
    else if (c === '[') {
      let j = i + 1;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      i = j + 1;
    } else if (c === '(') {
      open.push(false);
      i++;
    } else if (c === ')') {
      const inner = open.length > 1 ? open.pop()! : false;
      i++;
      const quantified = unboundedAt(i) > 0;
      if (quantified && inner) return true;
      open[open.length - 1] = open[open.length - 1]! || inner || quantified;
    } else {
      const length = unboundedAt(i);
      if (length > 0) open[open.length - 1] = true;
      i += Math.max(1, length);
    }
  }
  return false;
}

/** Why the regular expression `source` (with `flags`) may not be used, or undefined. */
export function regexProblem(source: string, flags = ''): string | undefined {
  try {
    new RegExp(source, flags);
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`;
  }
  if (hasNestedQuantifier(source)) {
    return 'repeats a group that itself repeats without bound (like `(a+)+`): matching it can take exponential time; write the inner repetition once (`a+`) or bound it (`{1,64}`)';
  }
  return undefined;
}

interface PolicyPatterns {
  incident?: { subject_patterns?: unknown; warn_subject_patterns?: unknown };
  secrets?: { rules?: unknown };
  projects?: unknown;
}

/** Every pattern and glob of raw policy data (already valid against the schema) that is not safe to compile and run. */
export function policyPatternErrors(data: unknown): PatternError[] {
  const policy = (data ?? {}) as PolicyPatterns;
  const errors: PatternError[] = [];
  const regex = (field: string, source: unknown, flags?: unknown): void => {
    if (typeof source !== 'string') return;
    const problem = regexProblem(source, typeof flags === 'string' ? flags.replace(/g/g, '') : '');
    if (problem !== undefined) errors.push({ field, message: problem });
  };
  for (const key of ['subject_patterns', 'warn_subject_patterns'] as const) {
    const list = policy.incident?.[key];
    if (Array.isArray(list)) list.forEach((pattern, i) => regex(`incident.${key}[${i}]`, pattern));
  }
  const rules = policy.secrets?.rules;
  if (Array.isArray(rules)) {
    rules.forEach((rule: { pattern?: unknown; exclude?: unknown; flags?: unknown }, i) => {
      regex(`secrets.rules[${i}].pattern`, rule?.pattern, rule?.flags);
      regex(`secrets.rules[${i}].exclude`, rule?.exclude, rule?.flags);
    });
  }
  if (policy.projects !== null && typeof policy.projects === 'object') {
    for (const [name, globs] of Object.entries(policy.projects as Record<string, unknown>)) {
      if (!Array.isArray(globs)) continue;
      globs.forEach((glob, i) => {
        const problem = typeof glob === 'string' ? globProblem(glob) : undefined;
        if (problem !== undefined) errors.push({ field: `projects.${name}[${i}]`, message: `the glob ${JSON.stringify(glob)} ${problem}` });
      });
    }
  }
  return errors;
}
