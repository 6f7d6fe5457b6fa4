import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVAL_DIR, evaluate, evaluateJudged } from '../bench/eval.js';
import { FAKE_REVIEWER } from '../helpers/reviewer.js';

// The eval bench's --rerank: every query with task text goes through a reviewer, as preflight --rerank does.
describe('the eval bench judged by a reviewer', () => {
  const plain = evaluate().preflight;

  it('with a reviewer that approves exactly the labelled lessons, applies only relevant ones, nothing on unrelated tasks, and surfaces at least as much', async () => {
    process.env.FAKE_RERANK_QUERIES = path.join(EVAL_DIR, 'tasks.json');
    try {
      const result = await evaluateJudged(EVAL_DIR, 'fixture', [process.execPath, FAKE_REVIEWER, 'rerank-labels', '--output', '{output}', '--schema', '{schema}']);
      expect(result.failed).toBe(0);
      expect(result.asked).toBeGreaterThan(0);
      expect(result.judged.noMatchFP).toBe(0);
      expect(result.judged.precision).toBeGreaterThan(plain.precision);
      expect(result.judged.surfaced).toBeGreaterThanOrEqual(plain.surfaced);
      expect(result.judged.hookMust).toBe(1);
    } finally {
      delete process.env.FAKE_RERANK_QUERIES;
    }
  });

  it('with a reviewer that fails on every query, scores the plain answer', async () => {
    const result = await evaluateJudged(EVAL_DIR, 'fixture', [process.execPath, FAKE_REVIEWER, 'crash', '--output', '{output}']);
    expect(result.failed).toBe(result.asked);
    expect(result.judged).toMatchObject({ recall: plain.recall, precision: plain.precision, noMatchFP: plain.noMatchFP, surfaced: plain.surfaced });
  });
});
