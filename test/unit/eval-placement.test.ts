import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Policy } from '../../src/policy/policy.js';
import { selectFromIndex } from '../../src/preflight/preflight.js';
import { placeLessons } from '../../src/preflight/placement.js';
import { indexEntry, NOW, searchIndexOf, searchIndexWithSources, taskInput } from '../helpers/preflight.js';

const INDEX = searchIndexOf([
  indexEntry({ id: 'case-a-lockfile-drift', title: 'Lockfile drift broke the release build', tags: ['lockfile', 'release'], triggers: { tools: ['Edit'], paths: ['**/package-lock.json'] } }),
  indexEntry({ id: 'case-b-lockfile-merge', title: 'Lockfile merge conflict resolved by hand broke the release build', tags: ['lockfile', 'release'], triggers: { tools: ['Edit'], paths: ['**/package-lock.json'] } }),
  indexEntry({ id: 'case-c-migration-lock', title: 'Migration held a table lock', tags: ['migrations'] }),
]);

const policy = (preflight: Partial<Policy['preflight']>): Policy => ({ ...DEFAULT_POLICY, preflight: { ...DEFAULT_POLICY.preflight, ...preflight } });

describe('where an expected lesson stood in the preflight run', () => {
  it('past its level quota: ranked, above the floor, and left out because better lessons of its level filled the quota', () => {
    const tight = policy({ quotas: { ...DEFAULT_POLICY.preflight.quotas, case: 1, cases_alone: 1 } });
    const input = taskInput('the lockfile broke the release build');
    const selected = selectFromIndex(INDEX, input, tight, NOW).selected.map((lesson) => lesson.id);
    expect(selected).toHaveLength(1);
    const left = ['case-a-lockfile-drift', 'case-b-lockfile-merge'].find((id) => !selected.includes(id))!;
    const [placement] = placeLessons(INDEX, input, tight, NOW, [left]);
    expect(placement).toMatchObject({ id: left, rank: 2, dropped: 'quota' });
    expect(placement!.reasons[0]).toMatch(/^matched .*"lockfile".* in title/);
  });

  it('past hook_max in hook mode; not ranked when no trigger matches; null when it was selected', () => {
    const one = policy({ hook_max: 1 });
    const input = taskInput('', { tool: 'Edit', paths: ['package-lock.json'] });
    const [shown] = selectFromIndex(INDEX, input, one, NOW).selected.map((lesson) => lesson.id);
    const other = shown === 'case-a-lockfile-drift' ? 'case-b-lockfile-merge' : 'case-a-lockfile-drift';
    expect(placeLessons(INDEX, input, one, NOW, [shown!, other, 'case-c-migration-lock'])).toEqual([
      expect.objectContaining({ id: shown, rank: 1, dropped: null }),
      expect.objectContaining({ id: other, rank: 2, dropped: 'hook-max', reasons: [expect.stringContaining('package-lock.json')] }),
      { id: 'case-c-migration-lock', rank: null, ranked: 2, score: null, dropped: 'not-ranked', reasons: [] },
    ]);
  });

  it('in hook mode, counts places in hook order (critical lessons first), so a lesson past hook_max is ranked past it', () => {
    const index = searchIndexOf([
      indexEntry({ id: 'pattern-a-schema-changes', level: 'pattern', triggers: { paths: ['db/**'] } }),
      indexEntry({ id: 'pattern-b-data-changes', level: 'pattern', triggers: { paths: ['db/**'] } }),
      indexEntry({ id: 'case-c-dropped-table', severity: 'critical', status: 'candidate', triggers: { paths: ['db/**'] } }),
    ]);
    const two = policy({ hook_max: 2 });
    const input = taskInput('', { paths: ['db/001.sql'] });
    const selected = selectFromIndex(index, input, two, NOW).selected.map((lesson) => lesson.id);
    expect(selected).toHaveLength(2);
    expect(selected).toContain('case-c-dropped-table');
    const left = ['pattern-a-schema-changes', 'pattern-b-data-changes'].find((id) => !selected.includes(id))!;
    // By score alone the critical case comes last; preflight takes it first.
    expect(placeLessons(index, input, two, NOW, ['case-c-dropped-table', left])).toEqual([
      expect.objectContaining({ rank: 1, dropped: null }),
      expect.objectContaining({ rank: 3, dropped: 'hook-max' }),
    ]);
  });

  it("never ranks a source's lesson whose id a local lesson has, in preflight's selection and in eval's placement alike", () => {
    const drift = { title: 'Lockfile drift broke the release build', tags: ['lockfile', 'release'] };
    const index = searchIndexWithSources(
      [indexEntry({ id: 'case-a-lockfile-drift', ...drift })],
      [
        indexEntry({ id: 'platform:case-a-lockfile-drift', ...drift, path: '.lessons/sources/platform/lessons/cases/case-a-lockfile-drift.md' }),
        indexEntry({ id: 'platform:case-b-lockfile-merge', title: 'Lockfile merge conflict broke the release build', tags: ['lockfile', 'release'] }),
      ],
    );
    const input = taskInput('the lockfile broke the release build');
    const selected = selectFromIndex(index, input, DEFAULT_POLICY, NOW).selected.map((lesson) => lesson.id);
    expect(selected.sort()).toEqual(['case-a-lockfile-drift', 'platform:case-b-lockfile-merge']);
    expect(placeLessons(index, input, DEFAULT_POLICY, NOW, ['platform:case-a-lockfile-drift', 'platform:case-b-lockfile-merge'])).toEqual([
      { id: 'platform:case-a-lockfile-drift', rank: null, ranked: 2, score: null, dropped: 'not-ranked', reasons: [] },
      expect.objectContaining({ id: 'platform:case-b-lockfile-merge', dropped: null }),
    ]);
  });
});
