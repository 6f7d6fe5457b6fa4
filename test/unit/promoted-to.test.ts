import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/index/build.js';
import { parseLessonText, toLesson } from '../../src/lesson/parse.js';
import { serializeLesson } from '../../src/lesson/serialize.js';
import { validateAgainst } from '../../src/schema/validate.js';
import { lessonText } from '../helpers/lessons.js';

function parse(text: string) {
  const parsed = parseLessonText(text);
  if (!parsed.ok) throw new Error(parsed.problem.message);
  return parsed.file;
}

describe('promoted_to', () => {
  it('parses, serializes after retired_reason and reads back identically', () => {
    const file = parse(lessonText({ id: 'case-a', promoted_to: ['pattern-b', 'pattern-a'], retired_reason: null }));
    const lesson = toLesson(file.data, file.body, 'case');
    expect(lesson.promoted_to).toEqual(['pattern-b', 'pattern-a']);
    expect(lesson.extra).toEqual({});
    const text = serializeLesson(lesson);
    expect(text).toContain('occurrences: 1\ncreated_at: 2026-01-01\nlast_validated_at: 2026-11-01\npromoted_to: [pattern-b, pattern-a]\n---\n');
    const again = parse(text);
    expect(toLesson(again.data, again.body, 'case')).toEqual(lesson);
  });

  it('is left out when empty, and validated as a list of ids', () => {
    const file = parse(lessonText({ id: 'case-a' }));
    expect(serializeLesson(toLesson(file.data, file.body, 'case'))).not.toContain('promoted_to');
    expect(validateAgainst('lesson', { ...file.data, promoted_to: ['Not An Id'] }).map((error) => error.field)).toEqual(['promoted_to[0]']);
  });

  it('joins the sources that name a lesson in the index promoted_into', () => {
    const item = (text: string, path: string) => {
      const file = parse(text);
      return { lesson: toLesson(file.data, file.body, file.data.level as 'case'), path, folderLevel: file.data.level as 'case', parsed: file };
    };
    const index = buildIndex([
      item(lessonText({ id: 'case-a', promoted_to: ['pattern-old'] }), 'lessons/cases/case-a.md'),
      item(lessonText({ id: 'pattern-new', level: 'pattern', source_case_ids: ['case-a'] }), 'lessons/patterns/pattern-new.md'),
    ]);
    expect(index.lessons.map((entry) => [entry.id, entry.promoted_from, entry.promoted_into])).toEqual([
      ['case-a', [], ['pattern-new', 'pattern-old']],
      ['pattern-new', ['case-a'], []],
    ]);
  });
});
