import path from 'node:path';
import { readMarkdownFiles } from '../io/fs.js';
import { lessonDirs } from '../io/repo.js';
import type { Finding } from '../lint/finding.js';
import { type Level, type Lesson } from './model.js';
import { decodeUtf8, parseLessonText, toLesson, type ParsedFile } from './parse.js';

export interface LoadedLesson {
  lesson: Lesson;
  /** Repo-relative POSIX path. */
  path: string;
  /** The level its folder stands for. */
  folderLevel: Level;
  parsed: ParsedFile;
}

export interface LoadedTree {
  lessons: LoadedLesson[];
  /** Files that could not be read or parsed, and encoding warnings. */
  problems: Finding[];
}

/** Reads and parses every lesson file of the repository at `root`, in path order. */
export function loadLessons(root: string): LoadedTree {
  const lessons: LoadedLesson[] = [];
  const problems: Finding[] = [];
  for (const { level, dir } of lessonDirs(root)) {
    for (const read of readMarkdownFiles(root, dir)) {
      if (read.kind === 'problem') {
        problems.push({ rule: 'file', severity: read.severity, file: read.path, message: read.message });
        continue;
      }
      addLessonFile({ lessons, problems }, read.path, read.bytes, level);
    }
  }
  return { lessons, problems };
}

/**
 * Decodes and parses one lesson file's bytes into `tree` (a lesson, or problems): the one
 * path from bytes to a lesson, whether they come from disk or from a git object.
 */
export function addLessonFile(tree: LoadedTree, relPath: string, bytes: Uint8Array, folderLevel: Level): void {
  const { lessons, problems } = tree;
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

function lineOf(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

export function fileStem(relPath: string): string {
  return path.posix.basename(relPath, '.md');
}
