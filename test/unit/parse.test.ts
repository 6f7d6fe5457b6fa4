import { describe, expect, it } from 'vitest';
import { checklistItems, firstParagraph, sections } from '../../src/lesson/body.js';
import { decodeUtf8, lineOfField, parseLessonText, toLesson } from '../../src/lesson/parse.js';

const VALID = `---
id: case-2026-05-12-plugin-version-bump
title: Version bump missed the marketplace manifest
level: case
status: validated
tags: [release, versioning]
created_at: 2026-05-12
triggers:
  paths: ["**/package.json"]
  commands: ["npm publish*"]
---

## Situation

We shipped 1.4.0.

## Prevention Checklist

- [ ] Every manifest carries the new version.
- [x] The tag is pushed after the bump is merged.
`;

describe('parseLessonText', () => {
  it('splits frontmatter and body and keeps dates as YYYY-MM-DD strings', () => {
    const result = parseLessonText(VALID);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.file.data.created_at).toBe('2026-05-12');
    expect(result.file.data.tags).toEqual(['release', 'versioning']);
    expect(result.file.body.startsWith('## Situation')).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('locates top-level and nested fields by file line', () => {
    const result = parseLessonText(VALID);
    if (!result.ok) throw new Error('expected a parse');
    expect(lineOfField(result.file, '/id')).toBe(2);
    expect(lineOfField(result.file, '/created_at')).toBe(7);
    expect(lineOfField(result.file, '/triggers/commands')).toBe(10);
    expect(lineOfField(result.file, '/triggers/commands/0')).toBe(10);
  });

  it('rejects an empty file, a file without frontmatter and an unterminated one', () => {
    expect(parseLessonText('')).toMatchObject({ ok: false, problem: { rule: 'frontmatter', message: expect.stringContaining('file is empty') } });
    expect(parseLessonText('# Title\n\ntext\n')).toMatchObject({
      ok: false,
      problem: { rule: 'frontmatter', line: 1, message: expect.stringContaining('missing frontmatter') },
    });
    expect(parseLessonText('---\nid: x\ntitle: y\n')).toMatchObject({
      ok: false,
      problem: { rule: 'frontmatter', message: expect.stringContaining('unterminated frontmatter') },
    });
  });

  it('refuses JavaScript frontmatter instead of evaluating it', () => {
    const result = parseLessonText('---js\n{ id: require("fs") && "x" }\n---\n');
    expect(result).toMatchObject({ ok: false, problem: { rule: 'frontmatter' } });
  });

  it('reports malformed YAML with the file line of the problem', () => {
    const result = parseLessonText('---\nid: a\ntitle: broken: value: here\nlevel: case\n---\n');
    expect(result).toMatchObject({ ok: false, problem: { rule: 'yaml', line: 3 } });
    if (!result.ok) expect(result.problem.message).toContain('malformed YAML');
  });

  it('reports a frontmatter that is a list, not fields', () => {
    expect(parseLessonText('---\n- a\n- b\n---\n')).toMatchObject({ ok: false, problem: { message: expect.stringContaining('not a mapping') } });
  });

  it('reads a BOM and CRLF line endings correctly but reports both', () => {
    const result = parseLessonText(`\uFEFF${VALID.replace(/\n/g, '\r\n')}`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.file.data.id).toBe('case-2026-05-12-plugin-version-bump');
    expect(result.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('byte order mark'),
      expect.stringContaining('CRLF line endings'),
    ]);
  });
});

describe('decodeUtf8', () => {
  it('fails on invalid bytes and names the line they are on', () => {
    const bytes = Buffer.concat([Buffer.from('---\nid: a\ntitle: caf'), Buffer.from([0xe9]), Buffer.from('\n---\n')]);
    expect(decodeUtf8(bytes)).toMatchObject({ ok: false, problem: { rule: 'encoding', line: 3 } });
  });

  it('accepts multi-byte characters', () => {
    expect(decodeUtf8(Buffer.from('títle ✓ 한국어'))).toEqual({ ok: true, text: 'títle ✓ 한국어' });
  });
});

describe('toLesson', () => {
  it('applies the format defaults and keeps unknown keys aside', () => {
    const lesson = toLesson({ id: 'a', title: 'T', level: 'case', status: 'candidate', team: 'payments' }, '', 'case');
    expect(lesson).toMatchObject({
      severity: 'medium',
      confidence: 3,
      transferability: 3,
      source: 'curated',
      occurrences: 1,
      tags: [],
      triggers: { tools: [], paths: [], commands: [], keywords: [] },
      extra: { team: 'payments' },
    });
  });
});

describe('lesson body', () => {
  it('reads checklist items without their markers, ignoring other sections', () => {
    const result = parseLessonText(VALID);
    if (!result.ok) throw new Error('expected a parse');
    expect(checklistItems(result.file.body)).toEqual([
      'Every manifest carries the new version.',
      'The tag is pushed after the bump is merged.',
    ]);
    expect(sections(result.file.body).map((s) => s.heading)).toEqual(['Situation', 'Prevention Checklist']);
  });

  it('has no checklist items when the section is missing or holds only an empty box', () => {
    expect(checklistItems('## Situation\n\n- [ ] not a checklist\n')).toEqual([]);
    expect(checklistItems('## Prevention Checklist\n\n- [ ] \n')).toEqual([]);
  });

  it('ignores headings inside fenced code', () => {
    expect(sections('## A\n\n```\n## not a heading\n```\n\n## B\n').map((s) => s.heading)).toEqual(['A', 'B']);
  });

  it('derives a summary from the first paragraph of prose', () => {
    expect(firstParagraph('## Situation\n\nWe shipped\nthe wrong build.\n\nLater text.\n')).toBe('We shipped the wrong build.');
  });
});

describe('checklist extraction', () => {
  it('finds the section by its heading in any case, up to the next ## heading', () => {
    expect(checklistItems('## Fix\n\n- not this\n\n## prevention checklist ##\n\n- [ ] one\n### detail\n- [x] two\n\n## Notes\n\n- not this either\n')).toEqual(['one', 'two']);
  });

  it('ignores a checklist heading inside fenced code', () => {
    const body = '## Fix\n\n```md\n## Prevention Checklist\n- [ ] fenced\n```\n\n## Prevention Checklist\n\n- [ ] real\n';
    expect(checklistItems(body)).toEqual(['real']);
  });
});

describe('summary from the body', () => {
  it('skips a template prompt written as an HTML comment', () => {
    expect(firstParagraph('## Situation\n\n<!-- What was being done. -->\n\n## Mistake\n\nWe tagged from a red main.\n')).toBe('We tagged from a red main.');
    expect(firstParagraph('## Situation\n\n<!-- prompt -->\n')).toBe('');
  });
});
