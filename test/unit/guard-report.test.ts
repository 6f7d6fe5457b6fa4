import { describe, expect, it } from 'vitest';
import type { GuardReport } from '../../src/guard/guard.js';
import { escapeData, escapeProperty } from '../../src/render/github.js';
import { annotations, reportText, stepSummary } from '../../src/guard/reporter.js';

const LEVELS = { schema: 'block', 'index-fresh': 'block', 'preflight-evidence': 'warn', 'incident-lesson': 'block', promotion: 'block', secrets: 'block', quality: 'warn', retrieval: 'block', policy: 'block' } as const;

function report(findings: GuardReport['findings']): GuardReport {
  const block = findings.filter((finding) => finding.level === 'block').length;
  return { version: 1, stage: 'ci', blocked: block > 0, head: 'b'.repeat(40), base: 'a'.repeat(40), base_from: 'origin/main', levels: LEVELS, counts: { block, warn: findings.length - block }, findings };
}

describe('GitHub workflow commands', () => {
  it('escapes %, CR and LF in data, and also : and , in properties', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
    expect(escapeProperty('dir: a,b%\n')).toBe('dir%3A a%2Cb%25%0A');
  });

  it('prints ::error for blocking and ::warning for warning findings, with file, line and title', () => {
    const text = annotations(
      report([
        { gate: 'schema', level: 'block', rule: 'schema', severity: 'error', file: 'lessons/cases/a,b: c.md', line: 3, message: 'bad: 50%\nsecond line' },
        { gate: 'preflight-evidence', level: 'warn', rule: 'preflight-trailer', severity: 'error', commit: 'c'.repeat(40), message: 'no trailer' },
      ]),
    );
    expect(text).toBe(
      '::error file=lessons/cases/a%2Cb%3A c.md,line=3,title=lessons guard%3A schema::bad: 50%25%0Asecond line\n' +
        '::warning title=lessons guard%3A preflight-evidence::no trailer\n',
    );
  });
});

describe('the step summary and the text report', () => {
  it('escapes pipes and newlines in table cells and names commits by short sha', () => {
    const summary = stepSummary(
      report([{ gate: 'incident-lesson', level: 'warn', rule: 'incident-lesson', severity: 'error', commit: 'c'.repeat(40), message: 'a | b\nc' }]),
    );
    expect(summary).toContain('## lessons guard (ci): ⚠️ passed with 1 warning\n');
    expect(summary).toContain(`Checked ${'b'.repeat(12)} against ${'a'.repeat(12)} (origin/main).`);
    expect(summary).toContain(`| warn | incident-lesson | commit ${'c'.repeat(12)} | a \\| b<br>c |\n`);
  });

  it('has a row for every gate in the registry order, the policy gate included', () => {
    const summary = stepSummary(
      report([{ gate: 'policy', level: 'block', rule: 'policy-changed', severity: 'error', file: 'policy/workflow-policy.json', message: 'the change changes it' }]),
    );
    expect(summary).toContain(
      '| gate | level | findings |\n| --- | --- | --- |\n' +
        '| schema | block | 0 |\n| index-fresh | block | 0 |\n| preflight-evidence | warn | 0 |\n| incident-lesson | block | 0 |\n' +
        '| promotion | block | 0 |\n| secrets | block | 0 |\n| quality | warn | 0 |\n| retrieval | block | 0 |\n| policy | block | 1 |\n\n',
    );
  });

  it('says passed, passed with warnings, or blocked with the way out', () => {
    expect(reportText(report([]))).toBe('lessons guard (ci): passed\n');
    const pre = { ...report([{ gate: 'schema', level: 'block', rule: 'schema', severity: 'error', file: 'f.md', message: 'm' }]), stage: 'pre-push' as const };
    expect(reportText(pre)).toBe(
      'f.md: block [schema] m\nlessons guard (pre-push): blocked by 1 finding\nfix what each finding says, or bypass the guard knowingly with `git push --no-verify`\n',
    );
  });
});
