import { describe, expect, it } from 'vitest';
import { addLessonFile, type LoadedTree } from '../../src/lesson/load.js';
import { MAX_FRONTMATTER_CHARS, parseLessonText } from '../../src/lesson/parse.js';
import { lessonText } from '../helpers/lessons.js';

function load(bytes: Uint8Array): LoadedTree {
  const tree: LoadedTree = { lessons: [], problems: [] };
  addLessonFile(tree, 'lessons/cases/case-a.md', bytes, 'case');
  return tree;
}

const withFields = (lines: string) => lessonText({ id: 'case-a' }).replace('level:', `${lines}\nlevel:`);

describe('bytes a lesson may not hold', () => {
  it('a NUL byte is an error with its line', () => {
    const text = `${lessonText({ id: 'case-a' })}\nx\0y\n`;
    const tree = load(Buffer.from(text));
    expect(tree.lessons).toEqual([]);
    const line = text.split('\n').length - 1;
    expect(tree.problems).toEqual([expect.objectContaining({ rule: 'encoding', severity: 'error', line, message: expect.stringContaining('NUL byte') })]);
  });

  it('more than 1 MiB is an error, whichever way the bytes came', () => {
    const tree = load(Buffer.alloc(1024 * 1024 + 1, 'a'));
    expect(tree.problems).toEqual([expect.objectContaining({ rule: 'file', message: expect.stringContaining('over the 1 MiB limit') })]);
  });
});

describe('YAML is bounded', () => {
  it('refuses an alias bomb without expanding it', () => {
    const lines = ['x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]'];
    for (let i = 1; i <= 12; i++) lines.push(`x${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
    const started = performance.now();
    const result = parseLessonText(withFields(lines.join('\n')));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result).toEqual({ ok: false, problem: expect.objectContaining({ rule: 'yaml', message: expect.stringContaining('once YAML aliases') }) });
  });

  it('keeps a few aliases, refuses deep nesting and huge frontmatter', () => {
    expect(parseLessonText(withFields('x: &t [a, b]\ny: *t')).ok).toBe(true);
    expect(parseLessonText(withFields(`deep: ${'['.repeat(40)}${']'.repeat(40)}`))).toEqual({ ok: false, problem: expect.objectContaining({ message: expect.stringContaining('nested more than 32 levels') }) });
    expect(parseLessonText(withFields(`big: ${'a'.repeat(MAX_FRONTMATTER_CHARS)}`))).toEqual({ ok: false, problem: expect.objectContaining({ message: expect.stringContaining('over the 65536 limit') }) });
  });
});
