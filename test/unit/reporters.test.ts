import { describe, expect, it } from 'vitest';
import { inGitHubActions } from '../../src/render/github.js';
import { joinLines, renderStdout, reporter, stepSummaryFor, type Reporters } from '../../src/render/registry.js';

const reporters: Reporters<{ n: number }> = {
  text: (result) => `n is ${result.n}\n`,
  json: (result) => `${JSON.stringify(result)}\n`,
  github: (result) => `::notice::n=${result.n}\n`,
  summary: (result) => `## n = ${result.n}\n`,
};

describe('the reporter registry', () => {
  it('answers "are we in GitHub Actions?" one way: GITHUB_ACTIONS=true', () => {
    expect(inGitHubActions({ GITHUB_ACTIONS: 'true' })).toBe(true);
    for (const value of [undefined, '', 'false', '1']) expect(inGitHubActions({ GITHUB_ACTIONS: value })).toBe(false);
  });

  it('puts the annotations before text output in Actions, never into JSON or outside Actions', () => {
    const actions = { GITHUB_ACTIONS: 'true' };
    expect(renderStdout(reporters, 'text', { n: 1 }, actions)).toBe('::notice::n=1\nn is 1\n');
    expect(renderStdout(reporters, 'json', { n: 1 }, actions)).toBe('{"n":1}\n');
    expect(renderStdout(reporters, 'text', { n: 1 }, {})).toBe('n is 1\n');
  });

  it('writes a job summary only in Actions with GITHUB_STEP_SUMMARY set, and only for reporters that have one', () => {
    expect(stepSummaryFor(reporters, { n: 2 }, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '/s' })).toEqual({ file: '/s', text: '## n = 2\n' });
    expect(stepSummaryFor(reporters, { n: 2 }, { GITHUB_STEP_SUMMARY: '/s' })).toBeUndefined();
    expect(stepSummaryFor({ text: reporters.text, json: reporters.json }, { n: 2 }, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '/s' })).toBeUndefined();
  });

  it('refuses a format a command has no reporter for, naming the ones it has', () => {
    expect(() => reporter(reporters, 'markdown')).toThrow("--format must be text or json, got 'markdown'");
    expect(joinLines(['a', 'b'])).toBe('a\nb\n');
  });
});
