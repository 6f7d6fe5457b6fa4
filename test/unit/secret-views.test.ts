import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { compileSecretRules, redactText, scanText, type CompiledRule } from '../../src/secrets/rules.js';
import { fakeToken } from '../helpers/guard.js';

const rules = compileSecretRules(DEFAULT_POLICY.secrets) as CompiledRule[];

describe('hidden spellings of a token', () => {
  it('a token that ends its line keeps its own fingerprint and the next line (no join with the next word)', () => {
    const token = fakeToken('github');
    const text = `with token ${token}\nerror line 0`;
    expect(scanText('f', text, rules, new Set())).toEqual(scanText('f', `with token ${token}`, rules, new Set()));
    expect(redactText(text, rules)).toEqual({ text: 'with token [redacted github-token]\nerror line 0', redacted: ['github-token'] });
  });

  it('a token cut by a zero-width character or an escape is found whole, and redacted whole with what hid it', () => {
    const token = fakeToken('github');
    for (const hidden of [`${token.slice(0, 30)}\u200b${token.slice(30)}`, `${token.slice(0, 30)}\\u00${token.charCodeAt(30).toString(16)}${token.slice(31)}`]) {
      const [match] = scanText('f', `key ${hidden} end`, rules, new Set());
      expect(match).toMatchObject({ rule: 'github-token', fingerprint: scanText('f', token, rules, new Set())[0]!.fingerprint, masked: 'ghp_… (40 characters, obfuscated)' });
      expect(redactText(`key ${hidden} end`, rules).text).toBe('key [redacted github-token] end');
    }
  });

  it('a token split over two lines is joined; a wrapped line of prose is not', () => {
    const token = fakeToken('aws');
    expect(scanText('f', `key:\n  ${token.slice(0, 10)}\n  ${token.slice(10)}\n`, rules, new Set()).map((match) => [match.rule, match.line])).toEqual([['aws-access-key-id', 2]]);
    expect(scanText('f', 'The access token rotates every\nninety days, and the secret\nstore keeps the previous one.', rules, new Set())).toEqual([]);
  });
});
