import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, resolvePolicy } from '../../src/policy/policy.js';
import { validateAgainst } from '../../src/schema/validate.js';
import { PACKAGE_ROOT } from '../helpers/repo.js';

const shipped = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'policy/workflow-policy.json'), 'utf8')) as Record<string, unknown>;

describe('the review section of the policy', () => {
  it('the shipped policy file is valid and says what DEFAULT_POLICY says', () => {
    expect(validateAgainst('policy', shipped)).toEqual([]);
    expect(resolvePolicy(shipped).review).toEqual(DEFAULT_POLICY.review);
  });

  it('defaults to codex exec in a read-only sandbox, answering into {output} against {schema}, advisory', () => {
    const { command, block_on, enabled } = DEFAULT_POLICY.review;
    expect(command.slice(0, 2)).toEqual(['codex', 'exec']);
    expect(command[command.indexOf('--sandbox') + 1]).toBe('read-only');
    expect(command[command.indexOf('--output-schema') + 1]).toBe('{schema}');
    expect(command[command.indexOf('--output-last-message') + 1]).toBe('{output}');
    expect(command).toContain('--skip-git-repo-check');
    expect(command.at(-1)).toBe('-');
    expect(command.some((arg) => /workspace-write|danger|bypass|full-auto/.test(arg))).toBe(false);
    expect(block_on).toEqual([]);
    expect(enabled).toBe(false);
  });

  it('a partial review section keeps the defaults for the rest; a list replaces the default list', () => {
    const policy = resolvePolicy({ version: 1, review: { command: ['my-reviewer', '{output}'], block_on: ['critical'] } });
    expect(policy.review.command).toEqual(['my-reviewer', '{output}']);
    expect(policy.review.block_on).toEqual(['critical']);
    expect(policy.review.timeout_seconds).toBe(DEFAULT_POLICY.review.timeout_seconds);
  });

  it('rejects what would break the reviewer run', () => {
    const errors = validateAgainst('policy', { version: 1, review: { command: [], timeout_seconds: 0, block_on: ['urgent'], min_confidence: 2, shell: true } });
    expect(errors.map((error) => error.field).sort()).toEqual(['review.block_on[0]', 'review.command', 'review.min_confidence', 'review.shell', 'review.timeout_seconds']);
  });
});
