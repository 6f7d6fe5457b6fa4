import { describe, expect, it } from 'vitest';
import { evaluate, TARGETS } from '../bench/eval.js';

// A quality regression test on the labelled set in test/fixtures/eval. `npm run eval` prints
// the full table (and other repositories named on its command line) beside plain BM25 over
// whole lesson files.
describe('preflight selection quality on the labelled set', () => {
  const result = evaluate();

  it(`returns something for at most ${TARGETS.noMatchFP * 100}% of tasks no lesson covers`, () => {
    expect(result.preflight.noMatchFP).toBeLessThanOrEqual(TARGETS.noMatchFP);
  });

  it('stays quiet on those tasks written long (several joined) and terse (two or three of their words)', () => {
    expect(result.longNoMatchFP).toBeLessThanOrEqual(TARGETS.noMatchFP);
    expect(result.terseNoMatchFP).toBeLessThanOrEqual(TARGETS.noMatchFP);
  });

  it('returns every must-have lesson of a tool call, with and without its task text', () => {
    expect(result.preflight.hookMust).toBe(TARGETS.must);
    expect(result.hookOnly.hookMust).toBe(TARGETS.must);
    expect(result.hookOnly.hookFP).toBe(0);
  });

  it('beats plain BM25 over whole lesson files at the same depth: more surfaced in both tiers, more precise in the apply tier', () => {
    expect(result.preflight.surfaced).toBeGreaterThan(result.bm25.recall);
    expect(result.preflight.precision).toBeGreaterThan(result.bm25.precision);
    expect(result.preflight.noMatchFP).toBeLessThan(result.bm25.noMatchFP);
  });
});
