import { describe, expect, it } from 'vitest';
import { findingsFromReview, isBlocked, problemFinding, type ReviewFinding } from '../../src/review/findings.js';
import { reviewAnnotations, reviewText } from '../../src/review/reporter.js';
import type { ReviewResult } from '../../src/review/review.js';
import { expandCommand } from '../../src/review/run.js';
import { annotationLine, escapeData, escapeProperty } from '../../src/render/github.js';

const raw = (severity: ReviewFinding['severity'], file: string | null, line: number | null, rule = 'case-a') => ({
  severity,
  rule,
  message: `${severity} problem`,
  file,
  line,
  evidence: '+x',
  recommendation: 'do y',
});

describe('findingsFromReview', () => {
  it('makes paths repo-relative and sorts by severity, then place', () => {
    const findings = findingsFromReview(
      { summary: 's', findings: [raw('low', './b.ts', 1), raw('critical', '/repo/src/a.ts', 4), raw('high', null, null), raw('critical', 'src/a.ts', 2)] },
      '/repo',
    );
    expect(findings.map((f) => [f.severity, f.file, f.line])).toEqual([
      ['critical', 'src/a.ts', 2],
      ['critical', 'src/a.ts', 4],
      ['high', null, null],
      ['low', 'b.ts', 1],
    ]);
    expect(findings.every((f) => f.origin === 'reviewer')).toBe(true);
  });
});

describe('isBlocked', () => {
  const findings = findingsFromReview({ summary: '', findings: [raw('high', 'a', 1)] }, '/r');
  it('is advisory with an empty block_on, whatever the severity', () => {
    expect(isBlocked(findings, [])).toBe(false);
    expect(isBlocked(findingsFromReview({ summary: '', findings: [raw('critical', 'a', 1)] }, '/r'), [])).toBe(false);
  });
  it('blocks only on the listed severities', () => {
    expect(isBlocked(findings, ['critical'])).toBe(false);
    expect(isBlocked(findings, ['high', 'critical'])).toBe(true);
  });
  it('a reviewer problem is medium', () => {
    const lane = problemFinding({ rule: 'reviewer-timeout', message: 'm', fix: 'f', evidence: '' });
    expect(lane).toMatchObject({ severity: 'medium', origin: 'lane', recommendation: 'f', file: null });
    expect(isBlocked([lane], ['high'])).toBe(false);
    expect(isBlocked([lane], ['medium'])).toBe(true);
  });
});

describe('GitHub annotations', () => {
  it('escapes data and properties as the runner expects', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
    expect(annotationLine({ level: 'warning', file: 'src/a,b.ts', line: 3, title: 'lessons review: case-a (high)', message: 'one\ntwo' })).toBe(
      '::warning file=src/a%2Cb.ts,line=3,title=lessons review%3A case-a (high)::one%0Atwo',
    );
    expect(annotationLine({ level: 'notice', message: 'plain' })).toBe('::notice::plain');
    expect(annotationLine({ level: 'error', line: 4, message: 'no file, no line' })).toBe('::error::no file, no line');
  });

  const result = (findings: ReviewFinding[], blockOn: ReviewResult['block_on']): ReviewResult => ({
    base: 'main',
    ran: true,
    command: ['codex'],
    paths: ['a.ts'],
    lessons: ['case-a'],
    prompt: { bytes: 10, cut: [] },
    summary: 'ok',
    findings,
    block_on: blockOn,
    blocked: isBlocked(findings, blockOn),
  });

  it('blocking findings are errors, low ones notices, the rest warnings', () => {
    const findings = findingsFromReview({ summary: '', findings: [raw('critical', 'a.ts', 2), raw('medium', 'b.ts', null), raw('low', null, null)] }, '/r');
    expect(reviewAnnotations(result(findings, ['critical']))).toEqual([
      '::error file=a.ts,line=2,title=lessons review%3A case-a (critical)::critical problem%0AEvidence: +x%0AFix: do y',
      '::warning file=b.ts,title=lessons review%3A case-a (medium)::medium problem%0AEvidence: +x%0AFix: do y',
      '::notice title=lessons review%3A case-a (low)::low problem%0AEvidence: +x%0AFix: do y',
    ]);
  });

  it('text names place, severity, rule, evidence and recommendation', () => {
    const findings = findingsFromReview({ summary: '', findings: [raw('high', 'a.ts', 2)] }, '/r');
    expect(reviewText(result(findings, ['high']))).toEqual([
      'reviewed 1 file since main against lessons: case-a',
      'a.ts:2: high (blocking) [case-a] high problem',
      '    evidence: +x',
      '    recommendation: do y',
      'summary: ok',
      '1 finding, 1 blocking (review.block_on: high)',
    ]);
  });
});

describe('expandCommand', () => {
  it('replaces only the known placeholders, inside any argument', () => {
    expect(expandCommand(['rev', '--schema={schema}', '{output}', '{root}/x', '{prompt}', '$(rm -rf /)'], { schema: '/s.json', output: '/o.json', root: '/r' })).toEqual([
      'rev',
      '--schema=/s.json',
      '/o.json',
      '/r/x',
      '{prompt}',
      '$(rm -rf /)',
    ]);
  });
});
