import { describe, expect, it } from 'vitest';
import { withoutFields } from '../../src/policy/validate-policy.js';

describe('withoutFields (the policy preflight selects with when some fields are wrong)', () => {
  const policy = { version: 1, preflight: { hook_max: 'many', related_max: 2, quotas: { case: -1, pattern: 3 } }, projects: { web: ['apps/web/**', 7], api: ['apps/api/**'] } };

  it('removes each field named, keeps its siblings, and leaves the input as it was', () => {
    const before = structuredClone(policy);
    expect(withoutFields(policy, ['/preflight/hook_max', '/preflight/quotas/case'])).toEqual({ version: 1, preflight: { related_max: 2, quotas: { pattern: 3 } }, projects: policy.projects });
    expect(policy).toEqual(before);
  });

  it('removes a whole list when one entry is wrong, and everything for the document itself', () => {
    expect(withoutFields(policy, ['/projects/web/1'])).toEqual({ ...policy, projects: { api: ['apps/api/**'] } });
    expect(withoutFields(policy, [''])).toEqual({});
    expect(withoutFields(['not', 'a policy'], ['/0'])).toEqual({});
  });

  it('reads escaped pointer parts, ignores a field that is not there (a missing required one), and never leaves the data (__proto__)', () => {
    const data = JSON.parse('{"__proto__": {"x": 1}, "preflight": {}}') as unknown;
    // A walk through inherited fields would reach Object.prototype through preflight's __proto__ and delete its toString.
    expect(withoutFields(data, ['/__proto__/toString', '/preflight/__proto__/toString'])).toEqual(JSON.parse('{"__proto__": {"x": 1}, "preflight": {}}'));
    expect(typeof Object.prototype.toString).toBe('function');
    expect(withoutFields({ projects: { 'a/b': 1, '~x': 2, c: 3 } }, ['/projects/a~1b', '/projects/~0x', '/lessons/stale_after_days'])).toEqual({ projects: { c: 3 } });
  });
});
