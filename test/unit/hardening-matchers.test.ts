/**
 * The glob matcher (a Thompson machine, linear in text times glob) against the regular
 * expression it replaced, kept here as the reference: the same answer on every glob that
 * expression compiled, and an answer at once where it backtracked for minutes.
 */
import { describe, expect, it } from 'vitest';
import { globProblem, globToRegExp } from '../../src/util/glob.js';
import { hasNestedQuantifier, policyPatternErrors } from '../../src/policy/patterns.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { jsonDepthWithin, parseJsonWithin } from '../../src/util/json-depth.js';
import { seededRandom } from '../helpers/random.js';

function referenceRegExp(glob: string, options: { pathSegments: boolean } = { pathSegments: true }): RegExp {
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

describe('glob matcher', () => {
  it('answers as the regular expression did, on 5,000 random globs, 10 paths each', () => {
    const random = seededRandom(38);
    const pick = (chars: string, max: number) => Array.from({ length: Math.floor(random() * max) }, () => chars[Math.floor(random() * chars.length)]).join('');
    let compared = 0;
    const wrong: string[] = [];
    for (let k = 0; k < 5_000; k++) {
      const glob = pick('ab/**?{},[].-!', 10);
      for (const pathSegments of [true, false]) {
        let reference: RegExp;
        try {
          reference = referenceRegExp(glob, { pathSegments });
        } catch {
          if (globToRegExp(glob, { pathSegments }).test(glob)) wrong.push(`${glob}: matches though it does not compile`);
          continue;
        }
        const matcher = globToRegExp(glob, { pathSegments });
        for (let j = 0; j < 10; j++) {
          const text = pick('ab/.-', 8);
          if (matcher.test(text) !== reference.test(text)) wrong.push(`${glob} ${pathSegments} ${text}`);
          compared++;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(compared).toBeGreaterThan(50_000);
  });

  it('says why a glob does not compile', () => {
    expect(globProblem('{a,{b,{c')).toContain('3 `{` that are never closed');
    expect(globProblem('src/[z-a].ts')).toContain('character class [z-a]');
    expect(globProblem('x'.repeat(1001))).toContain('over the 1000');
    expect(globProblem('src/{a,b}/**/*.ts')).toBeUndefined();
  });

  it('matches a glob of many stars against a long name at once', () => {
    const started = Date.now();
    expect(globToRegExp('*a*a*a*a*a*a*a*a*b').test('a'.repeat(4000))).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('policy patterns', () => {
  it('finds nested unbounded repetition, and lets bounded or flat repetition through', () => {
    for (const source of ['(a+)+$', '(\\w*\\s?)*', '(?:x+y?){2,}', '((a)+)+']) expect([source, hasNestedQuantifier(source)]).toEqual([source, true]);
    for (const source of ['a+b+', '(ab)+', '^[a-z0-9]{1,12}(?:[-_.][a-z0-9]{1,12}){2,}$', '[(a+)]+', '\\(a+\\)+']) expect([source, hasNestedQuantifier(source)]).toEqual([source, false]);
  });

  it('the default policy passes', () => {
    expect(policyPatternErrors(DEFAULT_POLICY)).toEqual([]);
  });
});

describe('JSON depth', () => {
  it('counts brackets outside strings only', () => {
    expect(jsonDepthWithin('{"a":"[[[[[[\\"[[[["}', 2)).toBe(true);
    expect(jsonDepthWithin('[[[1]]]', 2)).toBe(false);
    expect(() => parseJsonWithin('['.repeat(200_000) + ']'.repeat(200_000))).toThrow('nested more than 100 levels');
    expect(parseJsonWithin('{"lessons":[{"id":"x"}]}')).toEqual({ lessons: [{ id: 'x' }] });
  });
});
