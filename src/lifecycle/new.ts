import path from 'node:path';
import { LessonsError, UsageError } from '../errors.js';
import { lessonsLike, stemmedRelatives } from '../search/text-model.js';
import { readThesaurusText } from '../search/update.js';
import { toPosixRelative } from '../io/fs.js';
import { pathExists } from '../io/paths.js';
import { INDEX_FILE } from '../io/repo.js';
import { levelDir, lessonDirs, CHECKLIST_HEADING, ID_MAX_LENGTH, candidateLesson, type Level, type Severity } from '../lesson/model.js';
import { changeLessons, freeId, type TreeState } from './change.js';

export interface NewLessonOptions {
  cwd: string;
  title: string;
  level: Level;
  tags: string[];
  severity: Severity;
  now: Date;
  /** Write it even when an existing lesson reads alike. */
  force?: boolean;
}

export interface NewLessonResult {
  id: string;
  path: string;
  /** The index, rebuilt with the new lesson. */
  index: string;
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
  return lessonDirs(root).some(({ dir }) => pathExists(path.join(dir, `${id}.md`)));
}

/** A new lesson that repeats one already there is refused, naming it: add to that one instead. */
function refuseNearDuplicate(state: TreeState, title: string, related: (term: string) => readonly string[]): void {
  const near = lessonsLike(title, state.lessons.map((item) => item.lesson), state.policy.capture.new_similarity, related).slice(0, 3);
  if (near.length === 0) return;
  const listed = near.map((lesson) => `  ${lesson.id}: ${lesson.title} (similarity ${lesson.similarity.toFixed(2)})`).join('\n');
  throw new LessonsError(
    'REFUSED',
    `"${title}" reads like ${near.length === 1 ? 'an existing lesson' : 'existing lessons'}:\n${listed}\n` +
      `add what you learned to ${near.length === 1 ? 'it' : 'one of them'} (\`lessons show ${near[0]!.id}\`), or pass --force to write a new lesson anyway; nothing was written`,
    1,
  );
}

export async function newLesson(options: NewLessonOptions): Promise<NewLessonResult> {
  const title = options.title.trim();
  if (title === '') throw new UsageError('the title is empty: lessons new "<what went wrong>"');
  if (title.length > 200) throw new UsageError(`the title is ${title.length} characters long; keep it under 200`);
  for (const tag of options.tags) {
    if (!TAG_PATTERN.test(tag)) throw new UsageError(`tag \`${tag}\` is not valid: use lower-case letters and digits joined by - _ or . (like --tags release,ci)`);
  }
  // Under the lessons lock, the new file and lessons/index.json are written together, so the
  // next commit is not blocked by a stale index; the duplicate check reads the same tree.
  const related = options.force ? null : stemmedRelatives(await readThesaurusText());
  return changeLessons({ cwd: options.cwd, now: options.now }, (state) => {
    if (related !== null) refuseNearDuplicate(state, title, related);
    const base = baseId(options.level, title, state.today);
    // A file that exists but does not parse has no lesson in the tree; its name is taken all the same.
    const unparsed = new Set<string>();
    let id = freeId(state, base);
    while (idTaken(state.root, id)) {
      unparsed.add(id);
      id = freeId(state, base, unparsed);
    }
    const lesson = candidateLesson(
      {
        id,
        title,
        level: options.level,
        severity: options.severity,
        tags: [...new Set(options.tags)],
        transferability: options.level === 'case' ? 2 : 3,
        body: TEMPLATE_BODY,
      },
      state.today,
    );
    const file = toPosixRelative(state.root, path.join(levelDir(state.root, options.level), `${id}.md`));
    return { writes: [{ lesson, create: true }], result: { id, path: file, index: INDEX_FILE } };
  });
}
