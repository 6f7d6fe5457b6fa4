import { describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/index/build.js';
import { BEGIN_MARKER, END_MARKER, inert, renderSection, spliceSection } from '../../src/export/render.js';
import { addLessonFile, type LoadedTree } from '../../src/lesson/load.js';
import { lessonText } from '../helpers/lessons.js';
import { pick, seededRandom } from '../helpers/random.js';

function entriesWithTitle(title: string) {
  const tree: LoadedTree = { lessons: [], problems: [] };
  addLessonFile(tree, 'lessons/cases/case-a.md', Buffer.from(lessonText({ id: 'case-a', title })), 'case');
  expect(tree.problems).toEqual([]);
  return buildIndex(tree.lessons).lessons;
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('export markers in lesson text', () => {
  it('a nested marker leaves nothing that reads as a marker', () => {
    const title = `${BEGIN_MARKER.slice(0, 24)}${END_MARKER}${BEGIN_MARKER.slice(24)}`;
    expect(inert(title)).not.toContain(BEGIN_MARKER);
    const section = renderSection(entriesWithTitle(title), 'claude');
    expect(count(section, BEGIN_MARKER)).toBe(1);
    const once = spliceSection('# Notes\n', section)!;
    expect(spliceSection(once, section)).toBe(once);
  });

  it('holds for random text made of marker fragments (seeded)', () => {
    const seed = 1313;
    const random = seededRandom(seed);
    const fragments = [BEGIN_MARKER, END_MARKER, '<!--', '-->', ' ', 'x', ...[BEGIN_MARKER, END_MARKER].flatMap((marker) => [marker.slice(0, Math.floor(marker.length / 2)), marker.slice(Math.floor(marker.length / 2))])];
    for (let run = 0; run < 300; run++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(random, fragments)).join('');
      const clean = inert(text);
      expect(clean.includes(BEGIN_MARKER) || clean.includes(END_MARKER), `seed ${seed}, run ${run}: ${JSON.stringify(text)}`).toBe(false);
      const section = renderSection(entriesWithTitle(`t ${text}`), 'agents-md');
      expect([count(section, BEGIN_MARKER), count(section, END_MARKER)], `seed ${seed}, run ${run}`).toEqual([1, 1]);
      expect(spliceSection(spliceSection('', section), section), `seed ${seed}, run ${run}`).toBe(section);
    }
  });
});
