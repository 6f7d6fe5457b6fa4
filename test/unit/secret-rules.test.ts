import { describe, expect, it } from 'vitest';
import { compileSecretRules, scanText, type CompiledRule } from '../../src/secrets/rules.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { evaluateSecrets } from '../bench/secrets-eval.js';
import { secretSamples } from '../bench/secret-samples.js';

const rules = compileSecretRules(DEFAULT_POLICY.secrets) as CompiledRule[];
const { secrets, lookalikes } = secretSamples();
const rulesOf = (line: string) => scanText('lessons/cases/x.md', line, rules, new Set()).map((match) => match.rule);

describe('the default secrets rules on shapes built at run time', () => {
  it.each(secrets.map((sample) => [sample.name, sample] as const))('report %s', (_name, sample) => {
    expect(rulesOf(sample.line)[0]).toBe(sample.rule);
  });

  it.each(lookalikes.map((sample) => [sample.name, sample] as const))('leave %s alone', (_name, sample) => {
    expect(rulesOf(sample.line)).toEqual([]);
  });

  it('every rule of the default policy is exercised by a sample', () => {
    const exercised = new Set(secrets.map((sample) => sample.rule));
    expect(DEFAULT_POLICY.secrets.rules.map((rule) => rule.name).filter((name) => !exercised.has(name))).toEqual([]);
  });

  it('the evaluation counts what the rules find', () => {
    expect(evaluateSecrets().ours).toMatchObject({ secrets: secrets.length, found: secrets.length, falsePositives: 0, missed: [], flagged: [] });
  });
});
