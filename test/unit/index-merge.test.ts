import { describe, expect, it } from 'vitest';
import { buildIndex, serializeIndex, type IndexEntry } from '../../src/index/build.js';
import { mergeIndexTexts } from '../../src/index/merge.js';
import { withDriverAttribute, withMergeAttribute } from '../../src/index/merge-driver.js';
import type { LoadedLesson } from '../../src/lesson/load.js';
import type { Level } from '../../src/lesson/model.js';
import { parseLessonText, toLesson } from '../../src/lesson/parse.js';
import { lessonText } from '../helpers/lessons.js';

type Fields = Record<string, unknown> & { id: string };

function indexText(...lessons: Fields[]): string {
  const loaded = lessons.map((fields): LoadedLesson => {
    const level = ((fields.level as string | undefined) ?? 'case') as Level;
    const parsed = parseLessonText(lessonText(fields));
    if (!parsed.ok) throw new Error(parsed.problem.message);
    const file = `lessons/${level === 'case' ? 'cases' : `${level}s`}/${fields.id}.md`;
    return { lesson: toLesson(parsed.file.data, parsed.file.body, level), path: file, folderLevel: level, parsed: parsed.file };
  });
  return serializeIndex(buildIndex(loaded));
}

const A = { id: 'case-2026-01-01-a', title: 'A' };
const B = { id: 'case-2026-01-02-b', title: 'B' };
const C = { id: 'case-2026-01-03-c', title: 'C' };

describe('the index file layout', () => {
  it('has one line per lesson, so changing a lesson changes one line', () => {
    const before = indexText(A, B, C).split('\n');
    const after = indexText(A, { ...B, severity: 'high' }, C).split('\n');
    expect(before).toHaveLength(after.length);
    expect(before.filter((line, i) => line !== after[i])).toHaveLength(1);
    expect(before[0]).toBe('{');
    expect(before[3]!.startsWith('    {"id":"case-2026-01-01-a",')).toBe(true);
  });

  it('an empty index is plain JSON', () => {
    expect(serializeIndex({ version: 2, lessons: [] })).toBe('{\n  "version": 2,\n  "lessons": []\n}\n');
  });
});

describe('mergeIndexTexts', () => {
  const base = indexText(A, B);

  it('keeps what each side added and changed, and equals the index of the merged lessons', () => {
    const ours = indexText({ ...A, title: 'A retitled' }, B, C);
    const theirs = indexText(A, { ...B, severity: 'critical' }, { id: 'case-2026-01-04-d', title: 'D' });
    const merged = mergeIndexTexts(base, ours, theirs);
    expect(merged.conflicts).toEqual([]);
    expect(merged.text).toBe(indexText({ ...A, title: 'A retitled' }, { ...B, severity: 'critical' }, C, { id: 'case-2026-01-04-d', title: 'D' }));
  });

  it('merges different fields of one lesson changed on each side', () => {
    const merged = mergeIndexTexts(base, indexText({ ...A, severity: 'high' }, B), indexText({ ...A, tags: ['ci'] }, B));
    expect(merged.text).toBe(indexText({ ...A, severity: 'high', tags: ['ci'] }, B));
  });

  it('deletions on one side win over an unchanged other side', () => {
    expect(mergeIndexTexts(base, indexText(A), indexText(A, B, C)).text).toBe(indexText(A, C));
  });

  it('keeps both sides’ promotions of one case (derived lists merge as sets)', () => {
    const source = { id: 'case-2026-01-01-a', title: 'A' };
    const other = { id: 'case-2026-01-02-b', title: 'B' };
    const p1 = { id: 'pattern-one', title: 'P1', level: 'pattern', status: 'candidate', source_case_ids: [source.id, other.id] };
    const p2 = { id: 'pattern-two', title: 'P2', level: 'pattern', status: 'candidate', source_case_ids: [source.id, other.id] };
    const merged = mergeIndexTexts(indexText(source, other), indexText(source, other, p1), indexText(source, other, p2));
    expect(merged.conflicts).toEqual([]);
    expect(merged.text).toBe(indexText(source, other, p1, p2));
    const entry = (JSON.parse(merged.text!) as { lessons: IndexEntry[] }).lessons[0]!;
    expect(entry.promoted_into).toEqual(['pattern-one', 'pattern-two']);
  });

  it('reports one field changed differently on both sides, and a change against a deletion', () => {
    expect(mergeIndexTexts(base, indexText({ ...A, severity: 'high' }, B), indexText({ ...A, severity: 'low' }, B))).toEqual({
      text: undefined,
      conflicts: ['case-2026-01-01-a: both sides changed severity'],
    });
    expect(mergeIndexTexts(base, indexText(B), indexText({ ...A, severity: 'low' }, B)).conflicts).toEqual(['case-2026-01-01-a: deleted on one side, changed on the other']);
  });

  it('refuses a side that is not an index (conflict markers left in it)', () => {
    expect(mergeIndexTexts(base, '<<<<<<< HEAD\n', base).conflicts).toEqual(['our index is not JSON']);
  });

  it('refuses an empty side instead of merging it to an index of no lessons (an empty ancestor is no lessons)', () => {
    expect(mergeIndexTexts(base, base, '')).toEqual({ text: undefined, conflicts: ['their index is empty'] });
    expect(mergeIndexTexts(base, '', base).conflicts).toEqual(['our index is empty']);
    expect(mergeIndexTexts('', indexText(A), indexText(B)).text).toBe(indexText(A, B));
  });

  it('refuses entries outside the lesson folders or with ids the schema rejects, on any side', () => {
    const entry = (JSON.parse(indexText(A)) as { lessons: IndexEntry[] }).lessons[0]!;
    const withEntry = (fields: Partial<IndexEntry>): string => serializeIndex({ version: 2, lessons: [{ ...entry, ...fields }] });
    const pwned = mergeIndexTexts(base, base, withEntry({ id: '../../PWNED', path: '/etc/passwd' }));
    expect(pwned.text).toBeUndefined();
    expect(pwned.conflicts).toEqual([expect.stringMatching(/^their index does not match the index schema \(lessons\[0\]\.id: /)]);
    expect(mergeIndexTexts(base, withEntry({ path: '/etc/passwd' }), base).conflicts).toEqual([expect.stringMatching(/^our index does not match the index schema \(lessons\[0\]\.path/)]);
    expect(mergeIndexTexts(withEntry({ path: 'lessons/cases/other.md' }), base, base).conflicts).toEqual([
      'the common ancestor\'s index has an entry "case-2026-01-01-a" whose path "lessons/cases/other.md" is not lessons/cases/case-2026-01-01-a.md',
    ]);
  });
});

describe('withMergeAttribute', () => {
  it('adds the union line once, keeping what is there, and turns the driver line earlier versions committed into it', () => {
    expect(withMergeAttribute(undefined)).toBe('lessons/index.json merge=union\n');
    expect(withMergeAttribute('*.png binary')).toBe('*.png binary\nlessons/index.json merge=union\n');
    expect(withMergeAttribute('*.png binary\nlessons/index.json merge=lessons-index\n')).toBe('*.png binary\nlessons/index.json merge=union\n');
    expect(withMergeAttribute('lessons/index.json merge=union\n')).toBeUndefined();
    expect(withMergeAttribute('lessons/index.json -diff merge=ours\n')).toBeUndefined();
  });

  it('puts the exact driver in the clone’s own attributes, once', () => {
    expect(withDriverAttribute(undefined)).toBe('lessons/index.json merge=lessons-index\n');
    expect(withDriverAttribute('# info\n')).toBe('# info\nlessons/index.json merge=lessons-index\n');
    expect(withDriverAttribute('# info\nlessons/index.json merge=lessons-index\n')).toBeUndefined();
  });
});
