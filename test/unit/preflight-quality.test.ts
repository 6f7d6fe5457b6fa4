import { describe, expect, it } from 'vitest';
import { evaluate, TARGETS } from '../bench/eval.js';

// A quality regression test: selection on the labelled set in test/fixtures/eval must keep
// meeting its targets. `npm run eval` prints the full table beside a keyword baseline.
describe('preflight selection quality on the labelled set', () => {
  const result = evaluate();

  it(`finds at least ${TARGETS.recallAt5} of the relevant lessons in the top five`, () => {
    expect(result.preflight.recallAt5).toBeGreaterThanOrEqual(TARGETS.recallAt5);
  });

  it(`returns something for at most ${TARGETS.falsePositiveRate * 100}% of tasks no lesson covers`, () => {
    expect(result.preflight.falsePositiveRate).toBeLessThanOrEqual(TARGETS.falsePositiveRate);
  });

  it('returns every critical lesson that applies', () => {
    expect(result.preflight.criticalRecall).toBe(TARGETS.criticalRecall);
  });

  it('beats plain keyword matching', () => {
    expect(result.preflight.recallAt5).toBeGreaterThan(result.baseline.recallAt5);
    expect(result.preflight.falsePositiveRate).toBeLessThan(result.baseline.falsePositiveRate);
  });
});
