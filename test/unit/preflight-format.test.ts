import { describe, expect, it } from 'vitest';
import type { PreflightReport, SelectedLesson } from '../../src/preflight/report.js';
import { estimateTokens, formatReport, renderWithinBudget } from '../../src/preflight/report.js';
import { makeReceipt } from '../../src/preflight/receipt.js';
import { taskInput } from '../helpers/preflight.js';

const lesson = (id: string, level: SelectedLesson['level'], score: number): SelectedLesson => ({
  id,
  level,
  status: 'validated',
  severity: 'high',
  title: `Title of ${id}`,
  path: `lessons/x/${id}.md`,
  score,
  reasons: ['matched "release" in title'],
  checklist: [`First item of ${id}.`, `Second item of ${id}.`],
});

const report: PreflightReport = {
  task: 'ship the release',
  paths: [],
  tool: null,
  command: null,
  project: null,
  mode: 'task',
  selected: [lesson('case-a', 'case', 9), lesson('pattern-b', 'pattern', 8), lesson('principle-c', 'principle', 7)],
  related: [],
  omitted_by_budget: 0,
  message: null,
  index_digest: 'ab'.repeat(32),
  receipt: '.lessons/preflight/last.json',
};
const summary = (): string => '';

describe('preflight output', () => {
  it('groups text output as principles, patterns, then supporting cases, numbered by rank, with checklists and reasons', () => {
    const text = formatReport(report, 'text', summary);
    const order = ['Principles', 'principle-c', 'Patterns', 'pattern-b', 'Supporting cases', 'case-a'].map((s) => text.indexOf(s));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(text).toContain('  1. Title of case-a');
    expect(text).toContain('- [ ] First item of pattern-b.');
    expect(text).toContain('why: matched "release" in title');
  });

  it('prints markdown for a PR or status update', () => {
    const markdown = formatReport(report, 'markdown', summary);
    expect(markdown.startsWith('### Lessons preflight: "ship the release"\n')).toBe(true);
    expect(markdown).toContain('- **Title of pattern-b** (`pattern-b`, validated, high): matched "release" in title');
    expect(markdown).toContain('  - [ ] First item of pattern-b.');
  });

  it('prints the selection as JSON in rank order', () => {
    const json = JSON.parse(formatReport(report, 'json', summary)) as PreflightReport;
    expect(json.task).toBe('ship the release');
    expect(json.selected.map((l) => l.id)).toEqual(['case-a', 'pattern-b', 'principle-c']);
    expect(Object.keys(json.selected[0]!)).toEqual(['id', 'level', 'status', 'severity', 'title', 'path', 'score', 'reasons', 'checklist']);
  });

  it('drops whole lessons from the bottom of the ranking until the output fits --budget', () => {
    const full = formatReport(report, 'text', summary);
    const budget = estimateTokens(full) - 1;
    const fitted = renderWithinBudget(report, 'text', budget, summary);
    expect(fitted.report.selected.map((l) => l.id)).toEqual(['case-a', 'pattern-b']);
    expect(fitted.report.omitted_by_budget).toBe(1);
    expect(estimateTokens(fitted.output)).toBeLessThanOrEqual(budget);
    expect(fitted.output).toContain('(1 lower-ranked lesson left out to fit the --budget)');
    expect(fitted.output).not.toContain('principle-c');
    expect(renderWithinBudget(report, 'json', 10, summary).report.selected).toEqual([]);
    expect(renderWithinBudget(report, 'text', undefined, summary).report.selected).toHaveLength(3);
  });

  it('says so when nothing matched', () => {
    const empty = { ...report, selected: [], message: 'No lesson is relevant enough to this task.' };
    expect(formatReport(empty, 'text', summary)).toBe(
      'lessons preflight: no lessons for "ship the release"\nNo lesson is relevant enough to this task.\nreceipt: .lessons/preflight/last.json\n',
    );
  });

  it('makes a receipt with exactly the agreed fields', () => {
    const receipt = makeReceipt(taskInput('t', { paths: ['a.ts'], tool: 'Edit' }), ['x', 'y'], ['z'], 'd'.repeat(64), new Date('2026-11-20T12:00:00Z'));
    expect(receipt).toEqual({
      version: 1,
      task: 't',
      paths: ['a.ts'],
      tool: 'Edit',
      command: null,
      project: null,
      selected: ['x', 'y'],
      related: ['z'],
      index_digest: 'd'.repeat(64),
      created_at: '2026-11-20T12:00:00.000Z',
    });
  });
});
