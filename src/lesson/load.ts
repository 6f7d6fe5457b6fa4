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
      const decoded = decodeUtf8(read.bytes);
      if (!decoded.ok) {
        problems.push({ rule: 'encoding', severity: 'error', file: read.path, ...lineOf(decoded.problem.line), message: decoded.problem.message });
        continue;
      }
      const parsed = parseLessonText(decoded.text);
      if (!parsed.ok) {
        problems.push({ rule: parsed.problem.rule, severity: 'error', file: read.path, ...lineOf(parsed.problem.line), message: parsed.problem.message });
        continue;
      }
      for (const warning of parsed.warnings) {
        problems.push({ rule: warning.rule, severity: 'error', file: read.path, ...lineOf(warning.line), message: warning.message });
      }
      lessons.push({
        lesson: toLesson(parsed.file.data, parsed.file.body, level),
        path: read.path,
        folderLevel: level,
        parsed: parsed.file,
      });
    }
  }
  return { lessons, problems };
}

function lineOf(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

export function fileStem(relPath: string): string {
  return path.posix.basename(relPath, '.md');
}
