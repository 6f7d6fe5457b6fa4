import path from 'node:path';
import { LessonsError, UsageError } from '../errors.js';
import { lessonsLike, readThesaurusText, stemmedRelatives } from '../search/engine.js';
import { toPosixRelative } from '../io/fs.js';
import { pathExists } from '../io/paths.js';
import { INDEX_FILE } from '../io/repo.js';
import { levelDir, lessonDirs, CHECKLIST_HEADING, ID_MAX_LENGTH, ID_PATTERN, candidateLesson, type Level, type Severity } from '../lesson/model.js';
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
  /** The lesson's id instead of one made from the title. */
  id?: string | undefined;
  /** The incident's date (YYYY-MM-DD) for a lesson written after the fact: created_at, last_seen and a case's id carry it. */
  date?: string | undefined;
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

/** Words that say little in an id. */
const ID_FILLER = new Set(['a', 'an', 'the', 'of', 'to', 'in', 'on', 'at', 'for', 'and', 'or', 'by', 'with', 'from', 'is', 'was', 'were', 'be', 'been', 'its', 'it', 'that', 'this', 'when', 'into', 'after', 'before']);
/** How long a default id's words may be: an id is typed, and read in trailers and reports. */
export const DEFAULT_SLUG_LENGTH = 40;

/** The title's first words up to DEFAULT_SLUG_LENGTH, kebab-case, without filler at either end (a short name, not the whole title). */
export function shortSlug(title: string): string {
  const words = slugify(title, ID_MAX_LENGTH).split('-');
  const start = words.findIndex((word) => !ID_FILLER.has(word));
  const kept = slugify(words.slice(Math.max(start, 0)).join(' '), DEFAULT_SLUG_LENGTH).split('-');
  while (kept.length > 1 && ID_FILLER.has(kept[kept.length - 1]!)) kept.pop();
  return kept.join('-');
}

/** The id a new lesson gets before uniqueness: cases carry their date, as incidents do. */
export function baseId(level: Level, title: string, today: string): string {
  const prefix = level === 'case' ? `case-${today}` : level;
  return `${prefix}-${shortSlug(title)}`;
}

/** `--id` as given, or a usage error saying what an id looks like. */
export function checkedId(id: string): string {
  if (!ID_PATTERN.test(id) || id.length > ID_MAX_LENGTH) {
    throw new UsageError(`--id \`${id}\` is not a valid id: use lower-case words and digits joined by - (at most ${ID_MAX_LENGTH} characters)`);
  }
  return id;
}

/** `--date` as given: a real calendar day, not after today. */
export function incidentDate(date: string, today: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const parsed = day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : undefined;
  if (!parsed || parsed.toISOString().slice(0, 10) !== date) throw new UsageError(`--date \`${date}\` is not a date: use YYYY-MM-DD, like --date 2026-03-14`);
  if (date > today) throw new UsageError(`--date ${date} is after today (${today}): --date is the day the incident happened`);
  return date;
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

/** The base id, or the first free one after it; a file that exists but does not parse has no lesson in the tree, yet its name is taken. */
function freeNewId(state: TreeState, base: string): string {
  const unparsed = new Set<string>();
  let id = freeId(state, base);
  while (idTaken(state.root, id)) {
    unparsed.add(id);
    id = freeId(state, base, unparsed);
  }
  return id;
}

/** An id asked for with --id: refused when a lesson (or an unparsed file) has it. */
function unusedId(state: TreeState, id: string): string {
  if (state.lessons.some((item) => item.lesson.id === id) || idTaken(state.root, id)) throw new UsageError(`a lesson with id \`${id}\` already exists: choose another --id`);
  return id;
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
  const wantedId = options.id === undefined ? undefined : checkedId(options.id);
  const related = options.force ? null : stemmedRelatives(await readThesaurusText());
  return changeLessons({ cwd: options.cwd, now: options.now }, (state) => {
    if (related !== null) refuseNearDuplicate(state, title, related);
    const day = options.date === undefined ? state.today : incidentDate(options.date, state.today);
    const id = wantedId === undefined ? freeNewId(state, baseId(options.level, title, day)) : unusedId(state, wantedId);
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
      day,
    );
    const file = toPosixRelative(state.root, path.join(levelDir(state.root, options.level), `${id}.md`));
    return { writes: [{ lesson, create: true }], result: { id, path: file, index: INDEX_FILE } };
  });
}
