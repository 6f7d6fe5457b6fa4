import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promoteLessons } from '../../src/lifecycle/promote.js';
import { lint } from '../../src/lint/lint-repository.js';
import { loadLessons } from '../../src/lesson/load.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { tempLessonsRepo } from '../helpers/repo.js';

const now = new Date('2026-11-21T12:00:00Z');

const body = (item: string): string => `## Situation\n\nIt broke.\n\n## Prevention Checklist\n\n- [ ] ${item}\n- [ ] Shared item.\n`;

function twoCases(extra: Record<string, string> = {}): string {
  return tempLessonsRepo({
    ...lessonFile({ id: 'case-a', title: 'Manifest kept the old version', severity: 'high', tags: ['release'] }, body('Bump every manifest.')),
    ...lessonFile({ id: 'case-b', title: 'Lockfile kept the old version', tags: ['release', 'npm'] }, body('Bump the lockfile.')),
    ...extra,
  });
}

function read(root: string, rel: string): string {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const folder of ['cases', 'patterns', 'principles']) {
    for (const name of fs.readdirSync(path.join(root, 'lessons', folder))) files[`${folder}/${name}`] = read(root, `lessons/${folder}/${name}`);
  }
  return files;
}

describe('lessons promote --to pattern', () => {
  it('writes a candidate pattern from two independent cases, with their checklists and sources', async () => {
    const root = twoCases();
    const result = await promoteLessons({ cwd: root, sources: ['case-b', 'case-a'], to: 'pattern', title: 'Versions live in one place', now });
    expect(result).toEqual({ id: 'pattern-versions-live-in-one-place', path: 'lessons/patterns/pattern-versions-live-in-one-place.md', level: 'pattern', sources: ['case-a', 'case-b'], checklist: 3 });
    expect(read(root, result.path)).toBe(`---
id: pattern-versions-live-in-one-place
title: Versions live in one place
level: pattern
status: candidate
severity: high
tags: [npm, release]
confidence: 3
transferability: 3
source: curated
occurrences: 2
created_at: 2026-11-21
last_seen: 2026-11-21
source_case_ids: [case-a, case-b]
---

## Situation

What the 2 cases below have in common, and where it applies.

## Prevention Checklist

- [ ] Bump every manifest.
- [ ] Shared item.
- [ ] Bump the lockfile.

## Sources

Promoted from 2 cases; they stay as supporting evidence.

- \`case-a\`: Manifest kept the old version
- \`case-b\`: Lockfile kept the old version
`);
  });

  it('back-links the cases with promoted_to, and the index lists provenance both ways', async () => {
    const root = twoCases();
    await promoteLessons({ cwd: root, sources: ['case-a', 'case-b'], to: 'pattern', title: 'Versions live in one place', now });
    expect(read(root, 'lessons/cases/case-a.md')).toContain('\npromoted_to: [pattern-versions-live-in-one-place]\n');
    const index = JSON.parse(read(root, 'lessons/index.json')) as { lessons: { id: string; promoted_from: string[]; promoted_into: string[] }[] };
    const entry = (id: string) => index.lessons.find((item) => item.id === id)!;
    expect(entry('pattern-versions-live-in-one-place').promoted_from).toEqual(['case-a', 'case-b']);
    expect(entry('case-a').promoted_into).toEqual(['pattern-versions-live-in-one-place']);
    expect(entry('case-b').promoted_into).toEqual(['pattern-versions-live-in-one-place']);
    const { findings } = await lint({ cwd: root, now });
    expect(findings.filter((finding) => finding.severity === 'error')).toEqual([]);
  });

  it('takes an explicit --id and refuses one that exists', async () => {
    const root = twoCases();
    const result = await promoteLessons({ cwd: root, sources: ['case-a', 'case-b'], to: 'pattern', title: 'T', id: 'pattern-one-version', now });
    expect(result.path).toBe('lessons/patterns/pattern-one-version.md');
    await expect(promoteLessons({ cwd: root, sources: ['case-a', 'case-b'], to: 'pattern', title: 'T', id: 'case-a', now })).rejects.toThrow(
      'a lesson with id `case-a` already exists: choose another --id',
    );
  });

  const refusals: [string, Record<string, string>, string[], string][] = [
    ['a single case', {}, ['case-a'], 'cannot promote to a pattern: needs 2 independent cases, has 1'],
    ['the same case twice', {}, ['case-a', 'case-a'], 'cannot promote to a pattern: `case-a` is listed twice; needs 2 independent cases, has 1'],
    ['a missing case', {}, ['case-a', 'case-zzz'], 'cannot promote to a pattern: case `case-zzz` does not exist; needs 2 independent cases, has 1'],
    [
      'a retired case',
      lessonFile({ id: 'case-c', status: 'retired', retired_reason: 'obsolete' }),
      ['case-a', 'case-c'],
      'cannot promote to a pattern: case `case-c` is retired; needs 2 independent cases, has 1',
    ],
    [
      'a duplicate of the other',
      lessonFile({ id: 'case-c', duplicate_of: 'case-a' }),
      ['case-a', 'case-c'],
      'cannot promote to a pattern: needs 2 independent cases, has 1 (case-a and case-c are duplicates of one incident)',
    ],
    [
      'a pattern instead of a case',
      { 'lessons/patterns/pattern-x.md': lessonText({ id: 'pattern-x', level: 'pattern', source_case_ids: ['case-a', 'case-b'] }) },
      ['case-a', 'pattern-x'],
      'cannot promote to a pattern: `pattern-x` is a pattern, not a case; needs 2 independent cases, has 1',
    ],
  ];
  for (const [name, files, sources, message] of refusals) {
    it(`refuses ${name}, names the missing evidence, and changes nothing`, async () => {
      const root = twoCases(files);
      const before = snapshot(root);
      await expect(promoteLessons({ cwd: root, sources, to: 'pattern', title: 'Versions live in one place', now })).rejects.toMatchObject({ code: 'REFUSED', exitCode: 1, message });
      expect(snapshot(root)).toEqual(before);
      expect(fs.existsSync(path.join(root, 'lessons/index.json'))).toBe(false);
    });
  }
});

describe('lessons promote --to principle', () => {
  const pattern = (id: string, applications: { context: string; ref: string; validated_at: string }[]) =>
    ({ [`lessons/patterns/${id}.md`]: lessonText({ id, level: 'pattern', source_case_ids: ['case-a', 'case-b'], applications }, body(`Checklist of ${id}.`)) });

  it('writes a principle when its patterns were applied in 3 distinct contexts', async () => {
    const root = twoCases({
      ...pattern('pattern-p', [{ context: 'web', ref: 'PR #1', validated_at: '2026-10-01' }, { context: 'api', ref: 'PR #2', validated_at: '2026-10-02' }]),
      ...pattern('pattern-q', [{ context: 'mobile', ref: 'PR #3', validated_at: '2026-10-03' }]),
    });
    const result = await promoteLessons({ cwd: root, sources: ['pattern-p', 'pattern-q'], to: 'principle', title: 'One source of truth', now });
    expect(result).toMatchObject({ id: 'principle-one-source-of-truth', level: 'principle', sources: ['pattern-p', 'pattern-q'], checklist: 3 });
    const principle = loadLessons(root).lessons.find((item) => item.lesson.id === result.id)!.lesson;
    expect([principle.level, principle.status, principle.source_pattern_ids]).toEqual(['principle', 'candidate', ['pattern-p', 'pattern-q']]);
    expect(read(root, 'lessons/patterns/pattern-p.md')).toContain('promoted_to: [principle-one-source-of-truth]');
  });

  it('refuses when a repeated context leaves fewer than 3 distinct ones, naming them', async () => {
    const root = twoCases(
      pattern('pattern-p', [
        { context: 'web', ref: 'PR #1', validated_at: '2026-10-01' },
        { context: 'web', ref: 'PR #4', validated_at: '2026-10-04' },
        { context: 'api', ref: 'PR #2', validated_at: '2026-10-02' },
      ]),
    );
    await expect(promoteLessons({ cwd: root, sources: ['pattern-p'], to: 'principle', title: 'One source of truth', now })).rejects.toMatchObject({
      exitCode: 1,
      message:
        'cannot promote to a principle: needs 3 validated applications in distinct contexts across its source patterns, has 3 in 2 contexts (api, web): record more with `lessons apply <pattern-id> --context <name> --ref <PR>`',
    });
  });

  it('refuses cases as the sources of a principle', async () => {
    const root = twoCases();
    await expect(promoteLessons({ cwd: root, sources: ['case-a'], to: 'principle', title: 'X', now })).rejects.toThrow(
      'cannot promote to a principle: `case-a` is a case, not a pattern; needs 3 validated applications',
    );
  });
});
