import path from 'node:path';
import { fileAtRevision, filesAtRevision } from '../io/git-log.js';
import { LESSONS_DIR } from '../io/repo.js';
import { levelOfFolder } from '../lesson/model.js';
import { parseLessonText, toLesson } from '../lesson/parse.js';
import type { LessonAt } from './transitions.js';

/**
 * The lessons of the tree at a git revision, for transitionFindings. Files that do not parse
 * are left out: lint reports them on the side where they are.
 */
export async function lessonsAtRevision(root: string, rev: string): Promise<LessonAt[]> {
  const lessons: LessonAt[] = [];
  for (const file of await filesAtRevision(root, rev, `${LESSONS_DIR}/`)) {
    const parts = file.split('/');
    const level = parts.length === 3 && file.endsWith('.md') ? levelOfFolder(parts[1]!) : undefined;
    if (!level) continue;
    const parsed = parseLessonText(await fileAtRevision(root, rev, file));
    if (!parsed.ok) continue;
    lessons.push({ lesson: toLesson(parsed.file.data, parsed.file.body, level), path: path.posix.normalize(file) });
  }
  return lessons;
}
