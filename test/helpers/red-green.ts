import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/**
 * A harness session in which `node check.js` failed with "Error: expected 4, got 3" and then
 * passed drafted exactly one case from the pair: asserts it, returns the case's text.
 */
export function expectOneCheckDraft(root: string, casesBefore: readonly string[]): { file: string; text: string } {
  const drafted = fs.readdirSync(path.join(root, 'lessons/cases')).filter((name) => !casesBefore.includes(name));
  expect(drafted).toHaveLength(1);
  expect(drafted[0]).toMatch(/^case-\d{4}-\d\d-\d\d-node-check-js-failed-error-expected-4\.md$/);
  const text = fs.readFileSync(path.join(root, 'lessons/cases', drafted[0]!), 'utf8');
  expect(text).toContain('source: auto');
  expect(text).toContain('Error: expected 4, got 3');
  expect(text).toContain('then `node check.js` passed.');
  return { file: drafted[0]!, text };
}
