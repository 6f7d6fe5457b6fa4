import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/repo.js';

describe('this repository dogfoods lessons eval', () => {
  it('its own lessons/evals.json passes: every must lesson selected, nothing it must not, in task and hook mode', () => {
    const result = runCli(['eval', '--json']);
    expect(result.stderr).toBe('');
    const data = JSON.parse(result.stdout) as { passed: boolean; cases: { name: string; passed: boolean; mode: string; no_match: boolean; must_not: string[] }[]; failures: string[] };
    expect(data.failures).toEqual([]);
    expect(data.cases.filter((c) => !c.passed).map((c) => c.name)).toEqual([]);
    expect(result.exitCode).toBe(0);
    // The suite is worth running: a dozen or more cases, both modes, and cases that must select nothing or must not select a lesson.
    expect(data.cases.length).toBeGreaterThanOrEqual(12);
    expect(new Set(data.cases.map((c) => c.mode))).toEqual(new Set(['task', 'hook']));
    expect(data.cases.some((c) => c.no_match)).toBe(true);
    expect(data.cases.some((c) => c.must_not.length > 0)).toBe(true);
  });
});
