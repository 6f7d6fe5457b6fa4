import fs from 'node:fs';
import path from 'node:path';
import { LessonsError, UsageError } from '../errors.js';
import { createInRepo, toPosixRelative } from '../io/fs.js';
import { LESSONS_LOCK, withLock } from '../io/lock.js';
import { findRepoRoot, levelDir, lessonDirs } from '../io/repo.js';
import { toIsoDate } from '../util/dates.js';
import { CHECKLIST_HEADING, ID_MAX_LENGTH, candidateLesson, type Lesson, type Level, type Severity } from './model.js';
import { serializeLesson } from './serialize.js';

export interface NewLessonOptions {
  cwd: string;
  title: string;
  level: Level;
  tags: string[];
  severity: Severity;
  now: Date;
}

export interface NewLessonResult {
  id: string;
  path: string;
}

export const TAG_PATTERN = /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/;

/** Kebab-case words of `title`, accents folded, cut at a word boundary. */
export function slugify(title: string, maxLength = 60): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > maxLength) break;
    slug = next;
  }
  return slug || (words[0] ?? '').slice(0, maxLength) || 'lesson';
}

/** The id a new lesson gets before uniqueness: cases carry their date, as incidents do. */
export function baseId(level: Level, title: string, today: string): string {
  const prefix = level === 'case' ? `case-${today}` : level;
  return `${prefix}-${slugify(title, ID_MAX_LENGTH - prefix.length - 4)}`;
}

/** The card to fill in; the prompts are HTML comments, so an unfilled card has no made-up summary. */
export const TEMPLATE_BODY = `## Situation

<!-- What was being done, where, and what happened. -->

## Mistake

<!-- What was done wrong, or left undone. -->

## Root Cause

<!-- Why it happened: the missing check, the wrong assumption. -->

## Fix

<!-- What was changed, and where. -->

## ${CHECKLIST_HEADING}

- [ ] 
`;

function idTaken(root: string, id: string): boolean {
  return lessonDirs(root).some(({ dir }) => fs.existsSync(path.join(dir, `${id}.md`)));
}

export async function newLesson(options: NewLessonOptions): Promise<NewLessonResult> {
  const title = options.title.trim();
  if (title === '') throw new UsageError('the title is empty: lessons new "<what went wrong>"');
  if (title.length > 200) throw new UsageError(`the title is ${title.length} characters long; keep it under 200`);
  for (const tag of options.tags) {
    if (!TAG_PATTERN.test(tag)) throw new UsageError(`tag \`${tag}\` is not valid: use lower-case letters and digits joined by - _ or . (like --tags release,ci)`);
  }
  const root = findRepoRoot(options.cwd);
  const today = toIsoDate(options.now);
  const base = baseId(options.level, title, today);
  const lesson = candidateLesson(
    {
      id: base,
      title,
      level: options.level,
      severity: options.severity,
      tags: [...new Set(options.tags)],
      transferability: options.level === 'case' ? 2 : 3,
      body: TEMPLATE_BODY,
    },
    today,
  );

  return withLock(root, LESSONS_LOCK, () => createFree(root, options.level, base, lesson));
}

/** Writes `lesson` under the first free id of `base`, `base-2`…; the caller holds the lessons lock. */
function createFree(root: string, level: Level, base: string, lesson: Lesson): NewLessonResult {
  for (let n = 1; n < 1000; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (idTaken(root, id)) continue;
    const file = path.join(levelDir(root, level), `${id}.md`);
    try {
      createInRepo(root, file, serializeLesson({ ...lesson, id }));
      return { id, path: toPosixRelative(root, file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      if (error instanceof LessonsError) throw error;
      throw new LessonsError('IO', `cannot write ${toPosixRelative(root, file)}: ${(error as Error).message}`);
    }
  }
  throw new LessonsError('LESSON_EXISTS', `no free id near \`${base}\`: choose a more specific title`);
}
