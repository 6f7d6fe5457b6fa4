import type { CodeSnippets } from './body.js';
import { MAX_LESSON_BYTES, listMarkdownFiles, readMarkdownEntry, type FileRead, type MarkdownEntry } from '../io/fs.js';
import { lessonDirs, type Level, type Lesson } from './model.js';
import type { Finding } from './finding.js';
import type { SchemaError } from '../schema/validate.js';
import { decodeUtf8, parseLessonText, toLesson, type ParsedFile } from './parse.js';

export interface LoadedLesson {
  lesson: Lesson;
  /** Repo-relative POSIX path. */
  path: string;
  /** The level its folder stands for. */
  folderLevel: Level;
  parsed: ParsedFile;
  /** Schema errors of the frontmatter, when the loader was asked to validate. */
  schemaErrors?: SchemaError[];
  /**
   * Set on a lesson summarised by the file cache (lesson-facts.ts): its body and most of its raw
   * frontmatter are not kept, so what is derived from them comes ready-made.
   */
  precomputed?: Precomputed;
}

export interface Precomputed {
  /** The items of the Prevention Checklist. */
  checklist: string[];
  /** The code the body names. */
  code: CodeSnippets;
  /** The file rules' findings (lint's FILE_RULES), when they were computed. */
  fileFindings?: Finding[];
}

export interface LoadedTree {
  lessons: LoadedLesson[];
  /** Files that could not be read or parsed, and encoding warnings. */
  problems: Finding[];
}

export interface LessonEntry extends MarkdownEntry {
  level: Level;
}

/** Every `*.md` entry of the three level folders, in path order. */
export function listLessonEntries(root: string): LessonEntry[] {
  return lessonDirs(root).flatMap(({ level, dir }) => listMarkdownFiles(root, dir).map((entry) => ({ ...entry, level })));
}

/**
 * Decodes and parses one lesson file's bytes into `tree` (a lesson, or problems): the one
 * path from bytes to a lesson, whether they come from disk or from a git object.
 */
export function addLessonFile(tree: LoadedTree, relPath: string, bytes: Uint8Array, folderLevel: Level): void {
  const { lessons, problems } = tree;
  // Git objects reach here without the size check a read from disk makes: the guard sees them too.
  if (bytes.length > MAX_LESSON_BYTES) {
    problems.push({ rule: 'file', severity: 'error', file: relPath, message: `file is ${bytes.length} bytes, over the 1 MiB limit for a lesson: keep lessons short and link to long material` });
    return;
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    problems.push({ rule: 'encoding', severity: 'error', file: relPath, line: lineAtByte(bytes, nul), message: `NUL byte at byte ${nul}: a lesson is text; remove it` });
    return;
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) {
    problems.push({ rule: 'encoding', severity: 'error', file: relPath, ...lineOf(decoded.problem.line), message: decoded.problem.message });
    return;
  }
  const parsed = parseLessonText(decoded.text);
  if (!parsed.ok) {
    problems.push({ rule: parsed.problem.rule, severity: 'error', file: relPath, ...lineOf(parsed.problem.line), message: parsed.problem.message });
    return;
  }
  for (const warning of parsed.warnings) {
    problems.push({ rule: warning.rule, severity: 'error', file: relPath, ...lineOf(warning.line), message: warning.message });
  }
  lessons.push({ lesson: toLesson(parsed.file.data, parsed.file.body, folderLevel), path: relPath, folderLevel, parsed: parsed.file });
}

function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < offset; i = bytes.indexOf(0x0a, i + 1)) line++;
  return line;
}

function lineOf(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

/** Turns one read file into a lesson or the problems that stop it; pure. */
export function parseRead(read: FileRead, level: Level, into: LoadedTree): void {
  if (read.kind === 'problem') {
    into.problems.push({ rule: 'file', severity: read.severity, file: read.path, message: read.message });
    return;
  }
  addLessonFile(into, read.path, read.bytes, level);
}

export type Validator = (data: unknown) => SchemaError[];

/** Reads, parses and (with a validator) validates `entries` in order. */
export function loadEntries(root: string, entries: readonly LessonEntry[], validate?: Validator): LoadedTree {
  const tree: LoadedTree = { lessons: [], problems: [] };
  for (const entry of entries) parseRead(readMarkdownEntry(root, entry), entry.level, tree);
  if (validate) for (const item of tree.lessons) item.schemaErrors = validate(item.parsed.data);
  return tree;
}

/** Reads and parses every lesson file of the repository at `root`, in path order. */
export function loadLessons(root: string): LoadedTree {
  return loadEntries(root, listLessonEntries(root));
}

export function fileStem(relPath: string): string {
  // What path.posix.basename(relPath, '.md') gives, for the paths lessons have (no trailing slash), at a tenth of its cost: the table asks it of every row.
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  return name.endsWith('.md') && name !== '.md' ? name.slice(0, -3) : name;
}

/** The lessons of a tree by id (an id held by two files lists both). */
export function groupById(lessons: readonly LoadedLesson[]): Map<string, LoadedLesson[]> {
  const byId = new Map<string, LoadedLesson[]>();
  for (const item of lessons) {
    if (item.lesson.id === '') continue;
    byId.set(item.lesson.id, [...(byId.get(item.lesson.id) ?? []), item]);
  }
  return byId;
}
