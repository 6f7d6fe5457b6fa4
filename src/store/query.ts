import path from 'node:path';
import { LessonsError } from '../errors.js';
import { readRegularFile } from '../io/fs.js';
import { findRepoRoot } from '../io/repo.js';
import { buildIndex, type IndexEntry } from '../index/build.js';
import { compareStrings } from '../util/compare.js';
import { fileStem, loadLessons, type LoadedTree } from '../lesson/load.js';
import { idsForPrefix } from '../lesson/handle.js';
import type { Insight, Kind, Level, Status } from '../lesson/model.js';

export interface ListOptions {
  cwd: string;
  level?: Level | undefined;
  status?: Status | undefined;
  tag?: string | undefined;
  kind?: Kind | undefined;
  insight?: Insight | undefined;
}

const LEVEL_ORDER: Record<Level, number> = { principle: 0, pattern: 1, case: 2 };

/** A lesson file that holds no lesson: it could not be read or parsed. */
export interface UnparsedFile {
  file: string;
  line?: number;
  message: string;
}

/** The files of a loaded tree that gave no lesson, with why (a file that loaded with a warning is not one). */
export function unparsedFiles(tree: LoadedTree): UnparsedFile[] {
  const loaded = new Set(tree.lessons.map((item) => item.path));
  return tree.problems
    .filter((problem) => problem.severity === 'error' && !loaded.has(problem.file))
    .map((problem) => ({ file: problem.file, ...(problem.line === undefined ? {} : { line: problem.line }), message: problem.message }));
}

function where(unparsed: UnparsedFile): string {
  return `${unparsed.file}${unparsed.line === undefined ? '' : `:${unparsed.line}`}`;
}

/** How a command that lists lessons says one was left out. */
export function unparsedWarning(unparsed: UnparsedFile): string {
  return `${where(unparsed)} is left out: it does not parse: ${unparsed.message} (fix it; \`lessons lint\` lists every problem)`;
}

/** Lessons of the tree as index entries, filtered, principles first then by id. */
export async function listLessons(options: ListOptions): Promise<IndexEntry[]> {
  return (await listLessonTree(options)).entries;
}

/** listLessons(), and the files left out because they do not parse. */
export async function listLessonTree(options: ListOptions): Promise<{ entries: IndexEntry[]; unparsed: UnparsedFile[] }> {
  const root = findRepoRoot(options.cwd);
  const tree = loadLessons(root);
  return { entries: filtered(buildIndex(tree.lessons).lessons, options), unparsed: unparsedFiles(tree) };
}

function filtered(lessons: IndexEntry[], options: ListOptions): IndexEntry[] {
  return lessons
    .filter((entry) => !options.level || entry.level === options.level)
    .filter((entry) => !options.status || entry.status === options.status)
    .filter((entry) => !options.tag || entry.tags.includes(options.tag))
    .filter((entry) => !options.kind || entry.kind === options.kind)
    .filter((entry) => !options.insight || entry.insight === options.insight)
    .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] || compareStrings(a.id, b.id));
}

export interface ShowResult {
  entry: IndexEntry;
  /** The lesson file as it is on disk. */
  text: string;
}

export async function showLesson(options: { cwd: string; id: string }): Promise<ShowResult> {
  const root = findRepoRoot(options.cwd);
  const tree = loadLessons(root);
  const { lessons } = buildIndex(tree.lessons);
  const opened = idsForPrefix(options.id, lessons.map((candidate) => candidate.id));
  if (opened.length > 1) {
    const listed = opened.slice(0, 5).join(', ');
    throw new LessonsError('LESSON_AMBIGUOUS', `\`${options.id}\` begins ${opened.length} lesson ids: ${listed}${opened.length > 5 ? ', …' : ''} (give more of the id)`, 1);
  }
  const entry = lessons.find((candidate) => candidate.id === opened[0]);
  if (!entry) {
    const broken = unparsedFiles(tree).find((unparsed) => fileStem(unparsed.file) === options.id);
    if (broken) throw new LessonsError('INVALID_LESSON', `${where(broken)} holds no lesson \`${options.id}\`: it does not parse: ${broken.message} (fix the file; \`lessons lint\` lists every problem)`, 1);
    throw lessonNotFound(options.id, lessons.map((candidate) => candidate.id));
  }
  return { entry, text: readRegularFile(path.join(root, entry.path)).toString('utf8') };
}

/** The error for an unknown id (exit 1, as for a refusal), naming up to five ids that contain it. */
export function lessonNotFound(id: string, ids: readonly string[]): LessonsError {
  const near = ids.filter((candidate) => candidate.includes(id)).slice(0, 5);
  return new LessonsError('LESSON_NOT_FOUND', `no lesson with id \`${id}\`${near.length > 0 ? `; did you mean: ${near.join(', ')}` : ''} (\`lessons list\` shows them all)`, 1);
}
