import path from 'node:path';
import { fileAtRevision, filesAtRevision } from '../io/git-log.js';
import { LESSONS_DIR, findRepoRoot } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { levelOfFolder } from '../lesson/model.js';
import { parseLessonText, toLesson } from '../lesson/parse.js';
import type { Finding } from '../lint/finding.js';
import { transitionFindings, type LessonAt } from './transitions.js';

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

/**
 * The lifecycle findings of a change: the lessons at `base` against those at `head`, or against
 * the working tree when no head is given (a pull request's checkout, a pre-commit run).
 */
export async function promotionFindings(options: { cwd: string; base: string; head?: string | undefined }): Promise<Finding[]> {
  const root = findRepoRoot(options.cwd);
  const head = options.head === undefined ? loadLessons(root).lessons.map(({ lesson, path: file }) => ({ lesson, path: file })) : await lessonsAtRevision(root, options.head);
  return transitionFindings(await lessonsAtRevision(root, options.base), head);
}
