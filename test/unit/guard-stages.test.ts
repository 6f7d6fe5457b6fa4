import { describe, expect, it } from 'vitest';
import { applyLevel } from '../../src/guard/finding.js';
import { STAGE_PROFILES, checkStageFlags, disabledBy } from '../../src/guard/stages.js';
import { STAGES } from '../../src/policy/policy.js';

const issue = { rule: 'r', severity: 'error' as const, message: 'm' };

describe('the stage table', () => {
  it('has one profile per policy stage, named after it', () => {
    expect(Object.keys(STAGE_PROFILES)).toEqual([...STAGES]);
    for (const stage of STAGES) expect(STAGE_PROFILES[stage].stage).toBe(stage);
  });

  it('says which tree each stage checks, where its base comes from and what counts as preflight evidence', () => {
    const shape = Object.fromEntries(STAGES.map((stage) => [stage, [STAGE_PROFILES[stage].head, STAGE_PROFILES[stage].base, STAGE_PROFILES[stage].evidence]]));
    expect(shape).toEqual({
      'pre-commit': ['index', 'HEAD', 'receipt'],
      'pre-push': ['commit', 'range', 'trailers'],
      ci: ['commit', 'range', 'trailers'],
      final: ['worktree', 'range', 'receipt'],
    });
  });

  it('final never blocks; the other stages block on an error at level block', () => {
    expect(applyLevel('schema', 'final', 'block', issue)?.level).toBe('warn');
    for (const stage of ['pre-commit', 'pre-push', 'ci'] as const) expect(applyLevel('schema', stage, 'block', issue)?.level).toBe('block');
  });

  it('LESSONS_DISABLE=1 skips the local git hook stages only', () => {
    const env = { LESSONS_DISABLE: '1' };
    expect(STAGES.filter((stage) => disabledBy(STAGE_PROFILES[stage], env))).toEqual(['pre-commit', 'pre-push']);
    expect(STAGES.filter((stage) => disabledBy(STAGE_PROFILES[stage], { LESSONS_DISABLE: '0' }))).toEqual([]);
  });

  it('refuses the flags a stage does not take, naming the stages that take them', () => {
    expect(checkStageFlags('ci', { base: 'main', head: 'HEAD' }, 'usage').stage).toBe('ci');
    expect(() => checkStageFlags(undefined, {}, 'usage')).toThrow('say which stage to check with --stage\nusage');
    expect(() => checkStageFlags('release', {}, 'usage')).toThrow("unknown stage 'release'\nthe stages are pre-commit, pre-push, ci, final");
    expect(() => checkStageFlags('final', { head: 'HEAD' }, 'usage')).toThrow('--head applies to pre-push and ci; final checks the working tree');
    expect(() => checkStageFlags('pre-commit', { base: 'main' }, 'usage')).toThrow(
      '--base applies to pre-push, ci and final; pre-commit compares the staged tree with HEAD',
    );
  });
});
