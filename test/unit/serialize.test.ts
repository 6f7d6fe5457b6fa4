import { describe, expect, it } from 'vitest';
import { candidateLesson, emptyTriggers, type Lesson } from '../../src/lesson/model.js';
import { parseLessonText, toLesson } from '../../src/lesson/parse.js';
import { serializeLesson } from '../../src/lesson/serialize.js';

function reparse(text: string): Lesson {
  const result = parseLessonText(text);
  if (!result.ok) throw new Error(`did not parse: ${result.problem.message}\n${text}`);
  return toLesson(result.file.data, result.file.body, 'case');
}

/** A validated case; every field the canonical form below shows is set here, the rest are defaults. */
function lesson(overrides: Partial<Lesson> = {}): Lesson {
  return candidateLesson(
    {
      id: 'case-2026-05-12-plugin-version-bump',
      title: 'Version bump missed the marketplace manifest',
      level: 'case',
      status: 'validated',
      severity: 'high',
      tags: ['release', 'versioning'],
      confidence: 4,
      transferability: 2,
      occurrences: 2,
      last_seen: '2026-06-01',
      last_validated_at: '2026-06-01',
      summary: 'One manifest kept the old version.',
      triggers: { ...emptyTriggers(), paths: ['**/package.json'], commands: ['npm publish*'] },
      body: '## Prevention Checklist\n\n- [ ] Bump every manifest.\n',
      ...overrides,
    },
    '2026-05-12',
  );
}

describe('serializeLesson', () => {
  it('writes the canonical form, byte for byte', () => {
    expect(serializeLesson(lesson())).toBe(`---
id: case-2026-05-12-plugin-version-bump
title: Version bump missed the marketplace manifest
level: case
status: validated
severity: high
tags: [release, versioning]
confidence: 4
transferability: 2
source: curated
occurrences: 2
created_at: 2026-05-12
last_seen: 2026-06-01
last_validated_at: 2026-06-01
summary: One manifest kept the old version.
triggers:
  paths: ["**/package.json"]
  commands: [npm publish*]
---

## Prevention Checklist

- [ ] Bump every manifest.
`);
  });

  it('round-trips: parse(serialize(x)) is x and serialize is stable', () => {
    const original = lesson({
      applications: [{ context: 'web-app', ref: 'PR #812', validated_at: '2026-07-02' }],
      source_case_ids: ['case-a', 'case-b'],
      level: 'case',
      extra: { team: 'payments', owners: ['a', 'b'], nested: { x: 1 } },
    });
    const text = serializeLesson(original);
    const back = reparse(text);
    expect(back).toEqual(original);
    expect(serializeLesson(back)).toBe(text);
  });

  const TRICKY = [
    'yes', 'No', 'null', '~', 'true', '1.0', '0x1f', '1e3', '.inf', '12:30', '2026-02-30', '2026-05-12T10:00:00Z',
    'a: b', 'ends with colon:', 'has # hash', '#starts', '- dash', '[bracket', '{brace', '*star', '&anchor', '!tag',
    '|pipe', '>fold', "'single", '"double', '%percent', '@at', '`tick', ' leading space', 'trailing space ',
    'line\nbreak', 'tab\there', 'back\\slash', 'comma, inside', 'unicode ✓ 한국어 café', '\u2028sep', '',
  ];

  it.each(TRICKY)('keeps the string %j exactly', (value) => {
    const original = lesson({ title: value, summary: value === '' ? null : value, tags: value === '' ? [] : [value], project: value === '' ? null : value });
    const back = reparse(serializeLesson(original));
    expect(back.title).toBe(value);
    expect(back.summary).toBe(original.summary);
    expect(back.tags).toEqual(original.tags);
    expect(back.project).toBe(original.project);
  });

  it('leaves empty optional fields out and writes an empty body as frontmatter only', () => {
    const text = serializeLesson(lesson({ summary: null, triggers: emptyTriggers(), body: '', created_at: null, last_seen: null, last_validated_at: null }));
    expect(text).not.toContain('summary');
    expect(text).not.toContain('triggers');
    expect(text.endsWith('occurrences: 2\n---\n')).toBe(true);
  });
});
