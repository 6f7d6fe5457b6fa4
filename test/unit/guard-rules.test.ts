import { describe, expect, it } from 'vitest';
import { incidentIssues, isIncidentCommit, preflightTrailerIssues } from '../../src/guard/commits.js';
import { applyLevel } from '../../src/guard/finding.js';
import { judgeReceipt, preflightTrailerValue } from '../../src/guard/receipt.js';
import { compileSecretRules, scanText, secretFingerprint, shannonEntropy, type CompiledRule } from '../../src/secrets/rules.js';
import { hasOwnText, skipsSource } from '../../src/githooks/trailer.js';
import type { CommitInfo } from '../../src/io/git/log.js';
import { parseTrailerLines } from '../../src/io/git/log.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { fakeToken } from '../helpers/guard.js';

const rules = compileSecretRules(DEFAULT_POLICY.secrets) as CompiledRule[];

function commit(subject: string, trailers: Record<string, string> = {}, parents = ['p']): CommitInfo {
  return { sha: `${subject.length}`.padEnd(40, '0'), parents, subject, trailers: Object.entries(trailers).map(([key, value]) => ({ key, value })) };
}

describe('secret scanning', () => {
  it('finds each default rule once per secret, with its line and a masked value', () => {
    const text = `a\nkey ${fakeToken('aws')}\ntoken: ${fakeToken('github')}\n${['-----BEGIN', 'RSA PRIVATE', 'KEY-----'].join(' ')}\n${'MIIEpAIBAAKCAQEAx4Uv9'.repeat(3)}\n`;
    const matches = scanText('f.md', text, rules, new Set());
    expect(matches.map((match) => [match.rule, match.line])).toEqual([
      ['aws-access-key-id', 2],
      ['github-token', 3],
      ['private-key', 4],
    ]);
    expect(matches[0]!.masked).toBe('AKIA… (20 characters)');
    expect(JSON.stringify(matches)).not.toContain(fakeToken('github'));
  });

  it('reports generic assignments only when the value looks random', () => {
    const random = ['Zx8', 'Qp2', 'Lr7', 'Vt4', 'Nm9', 'Kd3', 'Wb6', 'Hy1'].join('');
    expect(scanText('f', `password = ${random}`, rules, new Set()).map((match) => match.rule)).toEqual(['generic-secret-assignment']);
    expect(scanText('f', 'password = aaaaaaaaaaaaaaaaaaaaaaaa', rules, new Set())).toEqual([]);
    // Prose about secrets is not a secret: references to variables and placeholders pass.
    for (const line of ['token = process.env.GITHUB_TOKEN_VALUE', 'api_key: REPLACE_WITH_YOUR_API_KEY', 'secret: ${{ secrets.DEPLOY_KEY }}', 'password = correct-horse-battery-staple']) {
      expect(scanText('f', line, rules, new Set()), line).toEqual([]);
    }
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });

  it('skips allowlisted fingerprints', () => {
    const token = fakeToken('aws');
    expect(scanText('f', token, rules, new Set([secretFingerprint('aws-access-key-id', token)]))).toEqual([]);
  });

  it('names an invalid rule', () => {
    expect(compileSecretRules({ scope: 'lessons', allowlist: [], rules: [{ name: 'x', pattern: '[' }] })).toEqual({
      error: 'secrets.rules[0].pattern (x) is not a valid regular expression: Invalid regular expression: /[/g: Unterminated character class',
    });
  });
});

describe('the shipped policy', () => {
  it('is the default policy, field for field', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { PACKAGE_ROOT } = await import('../helpers/repo.js');
    const { resolvePolicy } = await import('../../src/policy/policy.js');
    const file = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'policy/workflow-policy.json'), 'utf8'));
    expect(resolvePolicy(file)).toEqual(DEFAULT_POLICY);
    expect(resolvePolicy({})).toEqual(DEFAULT_POLICY);
  });
});

describe('levels', () => {
  const issue = { rule: 'r', severity: 'error' as const, message: 'm' };
  it('an error takes the gate level, a warning at most warn, off drops, final never blocks', () => {
    expect(applyLevel('schema', 'pre-commit', 'block', issue)?.level).toBe('block');
    expect(applyLevel('schema', 'pre-commit', 'block', { ...issue, severity: 'warning' })?.level).toBe('warn');
    expect(applyLevel('schema', 'pre-commit', 'off', issue)).toBeUndefined();
    expect(applyLevel('schema', 'final', 'block', issue)?.level).toBe('warn');
  });
});

describe('receipts', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const receipt = (created: string) =>
    JSON.stringify({ version: 1, task: 't', paths: [], tool: null, command: null, project: null, selected: ['a', 'b'], index_digest: 'd', created_at: created });
  it('judges missing, invalid, stale and fresh receipts', () => {
    expect(judgeReceipt(undefined, now, 60)).toEqual({ state: 'missing' });
    expect(judgeReceipt('{', now, 60)).toEqual({ state: 'invalid', reason: 'it is not valid JSON' });
    expect(judgeReceipt(JSON.stringify({ version: 1, task: 't', selected: [], created_at: '2026-11-21T11:30:00Z' }), now, 60)).toEqual({
      state: 'invalid',
      reason: 'it lacks `paths`, `tool`, `command`, `project` or `index_digest`',
    });
    expect(judgeReceipt(receipt('2026-11-21T10:00:00Z'), now, 60)).toMatchObject({ state: 'stale', ageMinutes: 120 });
    const fresh = judgeReceipt(receipt('2026-11-21T11:30:00Z'), now, 60);
    expect(fresh).toMatchObject({ state: 'fresh', ageMinutes: 30 });
    if (fresh.state === 'fresh') expect(preflightTrailerValue(fresh.receipt)).toBe('a, b');
  });
});

describe('commit trailers', () => {
  it('parses git trailer lines', () => {
    expect(parseTrailerLines('Lesson: case-a\nLesson-Skip: no lesson: a typo\n')).toEqual([
      { key: 'Lesson', value: 'case-a' },
      { key: 'Lesson-Skip', value: 'no lesson: a typo' },
    ]);
  });

  it('matches incident subjects and trailers from the policy: hotfix and Incident block, fix only warns', () => {
    const patterns = DEFAULT_POLICY.incident.subject_patterns.map((pattern) => new RegExp(pattern));
    const warnPatterns = DEFAULT_POLICY.incident.warn_subject_patterns.map((pattern) => new RegExp(pattern));
    const keys = DEFAULT_POLICY.incident.trailers;
    expect(['fix: a', 'hotfix(api)!: b', 'fix(x): c'].map((subject) => isIncidentCommit(commit(subject), patterns, keys))).toEqual([false, true, false]);
    expect(['fix: a', 'hotfix(api)!: b', 'fix(x): c'].map((subject) => isIncidentCommit(commit(subject), warnPatterns, []))).toEqual([true, false, true]);
    expect(['feat: fix later', 'prefix: a', 'Fix: capital'].map((subject) => isIncidentCommit(commit(subject), [...patterns, ...warnPatterns], keys))).toEqual([false, false, false]);
    expect(isIncidentCommit(commit('chore: x', { incident: 'INC-1' }), patterns, keys)).toBe(true);
  });

  it('skips merges in both trailer checks', () => {
    const merge = commit('Merge branch x', {}, ['a', 'b']);
    expect(preflightTrailerIssues([merge])).toEqual([]);
    expect(incidentIssues({ commits: [{ ...merge, subject: 'fix: merged' }], patterns: [/^fix:/], trailerKeys: [], caseChanged: false, lessonIds: new Set() })).toEqual([]);
  });
});

describe('commit message hooks', () => {
  it('sees text of its own, ignoring comments and what follows the scissors line', () => {
    expect(hasOwnText('\n# Please enter the commit message\n', '#')).toBe(false);
    expect(hasOwnText('subject\n# comment\n', '#')).toBe(true);
    expect(hasOwnText('# ------------------------ >8 ------------------------\ndiff text\n', '#')).toBe(false);
    expect(hasOwnText('; comment\n', ';')).toBe(false);
  });

  it('leaves merge and squash messages alone', () => {
    expect(['merge', 'squash', 'message', 'template', 'commit', undefined].map(skipsSource)).toEqual([true, true, false, false, false, false]);
  });
});
