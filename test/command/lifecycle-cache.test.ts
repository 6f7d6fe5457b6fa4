import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeIndex } from '../../src/store/index-write.js';
import { FILE_CACHE_DIR } from '../../src/store/file-cache.js';
import { acceptLesson } from '../../src/lifecycle/accept.js';
import { applyPattern } from '../../src/lifecycle/apply.js';
import { promoteLessons } from '../../src/lifecycle/promote.js';
import { retireLesson } from '../../src/lifecycle/retire.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { tempLessonsRepo } from '../helpers/repo.js';

/**
 * Lifecycle commands read the tree as the file cache's summaries (no bodies, no unknown keys)
 * and take whole only the lessons they write: what they write must be what a run that parses
 * every lesson writes, whatever the cache holds (nothing, or every file).
 */

const now = new Date('2026-11-21T12:00:00Z');
const BODY = (n: string) => `## Situation\n\nStory ${n}, with [a link](https://example.com) and \`code\`.\n\n## Prevention Checklist\n\n- [ ] Check ${n} first.\n- [ ] Then check ${n} again.\n\n## Notes\n\nKept as written.\n`;

function repo(): string {
  return tempLessonsRepo({
    ...lessonFile({ id: 'case-a', status: 'candidate', team_note: 'kept unknown key' }, BODY('a')),
    ...lessonFile({ id: 'case-b', team_note: 'another' }, BODY('b')),
    'lessons/patterns/pattern-p.md': lessonText({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-b'], owner: 'platform' }, BODY('p')),
    ...lessonFile({ id: 'case-c' }, BODY('c')),
    ...lessonFile({ id: 'case-d', owner: 'web' }, BODY('d')),
  });
}

const files = (root: string): Record<string, string> =>
  Object.fromEntries(['lessons/cases', 'lessons/patterns', 'lessons/principles', 'lessons'].flatMap((dir) => {
    const full = path.join(root, dir);
    return fs.existsSync(full) ? fs.readdirSync(full).filter((name) => name.endsWith('.md') || name.endsWith('.json')).map((name) => [`${dir}/${name}`, fs.readFileSync(path.join(full, name), 'utf8')]) : [];
  }));

/** The same four changes; `before` runs before each (emptying the cache, or not). */
async function steps(root: string, before: () => void): Promise<unknown[]> {
  const results: unknown[] = [];
  const step = async (run: () => Promise<unknown>): Promise<void> => {
    before();
    results.push(await run());
  };
  await step(() => acceptLesson({ cwd: root, now, id: 'case-a', canonical: false }));
  await step(() => applyPattern({ cwd: root, now, id: 'pattern-p', context: 'web', ref: 'PR #1' }));
  await step(() => promoteLessons({ cwd: root, now, sources: ['case-a', 'case-c'], to: 'pattern', title: 'Check twice before the release' }));
  await step(() => retireLesson({ cwd: root, now, id: 'case-d', reason: 'no longer holds' }));
  return results;
}

describe('lifecycle commands through the file cache', () => {
  it('write the same files with a warm cache as with none, keeping the bodies and unknown keys of the lessons they change', async () => {
    const cold = repo();
    const warm = repo();
    await writeIndex({ cwd: warm }); // fills the cache with every file's summary
    expect(fs.existsSync(path.join(warm, FILE_CACHE_DIR))).toBe(true);
    const results = [
      await steps(cold, () => fs.rmSync(path.join(cold, FILE_CACHE_DIR), { recursive: true, force: true })),
      await steps(warm, () => undefined),
    ];
    expect(results[1]).toEqual(results[0]);
    expect(files(warm)).toEqual(files(cold));
    const accepted = fs.readFileSync(path.join(warm, 'lessons/cases/case-a.md'), 'utf8');
    expect(accepted).toContain('team_note: "kept unknown key"');
    expect(accepted).toContain(BODY('a'));
    const retired = fs.readFileSync(path.join(warm, 'lessons/cases/case-d.md'), 'utf8');
    expect(retired).toContain('status: retired');
    expect(retired).toContain('owner: "web"');
    expect(retired).toContain(BODY('d'));
    expect(fs.readFileSync(path.join(warm, 'lessons/patterns/pattern-p.md'), 'utf8')).toContain('owner: "platform"');
    const promoted = Object.entries(files(warm)).find(([file]) => file.startsWith('lessons/patterns/pattern-') && !file.endsWith('pattern-p.md'))![1];
    expect(promoted).toContain('- [ ] Check a first.');
    expect(promoted).toContain('- [ ] Check c first.');
  });
});
