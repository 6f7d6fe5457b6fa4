import fs from 'node:fs';
import { lessonDirs } from '../lesson/model.js';

/**
 * The search cache's files, and the lesson folders' mtime that says whether it may be stale:
 * what a command that only brings the cache along (`lessons index`) needs before it loads the
 * cache's code.
 */

export const CACHE_FILE = '.lessons/cache/search.bin';
export const DELTA_FILE = '.lessons/cache/search-delta.bin';

/**
 * The newest mtime of the level folders (lessons/cases, patterns, principles). Adding,
 * removing or renaming a lesson, and every write by the CLI (atomic: temp file and rename),
 * changes it; statting every lesson file instead would cost about 3 ms per 1,000 lessons on
 * each run. (lessons/ itself is left out: writing index.json changes it.)
 */
export function lessonFoldersMtime(root: string): number {
  let newest = 0;
  for (const { dir } of lessonDirs(root)) {
    try {
      newest = Math.max(newest, fs.statSync(dir).mtimeMs);
    } catch {
      // A level without a folder has no lessons to be newer.
    }
  }
  return newest;
}
