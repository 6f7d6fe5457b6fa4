import { describe, expect, it } from 'vitest';
import { receiptRelation } from '../../src/githooks/receipt-relation.js';

const receipt = { task: 'bump the release version and publish', paths: ['package.json', 'src/release/**'] };
const old = { receipt, ageMinutes: 150, windowMinutes: 60 };

describe('receiptRelation', () => {
  it('a receipt inside the window speaks for any commit', () => {
    expect(receiptRelation({ ...old, ageMinutes: 60, stagedPaths: ['README.md'], message: 'docs: typo' })).toBe('the receipt is 60 min old (window 60 min)');
  });

  it('an older receipt speaks for a commit that touches its paths or shares a word with its task', () => {
    expect(receiptRelation({ ...old, stagedPaths: ['src/release/tag.ts'], message: 'chore: tidy' })).toBe("src/release/tag.ts is among the receipt's paths");
    expect(receiptRelation({ ...old, stagedPaths: ['docs/notes.md'], message: 'docs: how releases are published' })).toBe('the message shares "releas" with the receipt\'s task');
  });

  it('and not for an unrelated one: common words do not count', () => {
    expect(receiptRelation({ ...old, stagedPaths: ['docs/notes.md'], message: 'fix: update the notes' })).toBeUndefined();
  });
});
