import fs from 'node:fs';
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { LEVELS, LEVEL_FOLDERS, type Level } from '../lesson/model.js';

export const LESSONS_DIR = 'lessons';
export const INDEX_FILE = 'lessons/index.json';
export const POLICY_FILE = 'policy/workflow-policy.json';
export const STATE_DIR = '.lessons';
/** Where the last preflight run is recorded; the guard and the commit-message hooks read it. */
export const RECEIPT_FILE = `${STATE_DIR}/preflight/last.json`;

/** Where a command runs: the `-C` directory or the process's, resolved to an absolute path. */
export function resolveCwd(dir: string | undefined): string {
  const cwd = path.resolve(dir ?? process.cwd());
  let stat: fs.Stats;
  try {
    stat = fs.statSync(cwd);
  } catch {
    throw new LessonsError('USAGE', `cannot change to '${dir}': no such directory`);
  }
  if (!stat.isDirectory()) throw new LessonsError('USAGE', `cannot change to '${dir}': not a directory`);
  return cwd;
}

/**
 * The root of the lessons repository containing `cwd`: the nearest directory, going up,
 * that has a `lessons/` folder (as git finds `.git`).
 */
export function findRepoRoot(cwd: string): string {
  const root = lessonsRootAbove(cwd);
  if (root !== undefined) return root;
  throw new LessonsError(
    'NOT_A_LESSONS_REPO',
    `not a lessons repository (no lessons/ folder in ${cwd} or any parent): run \`lessons init\` or pass -C <dir>`,
  );
}

/** The nearest directory at or above `start` holding a lessons/ folder, or undefined (for the hooks, which never throw for this). */
export function lessonsRootAbove(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    if (isDirectory(path.join(dir, LESSONS_DIR))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

export function levelDir(root: string, level: Level): string {
  return path.join(root, LESSONS_DIR, LEVEL_FOLDERS[level]);
}

export function lessonDirs(root: string): { level: Level; dir: string }[] {
  return LEVELS.map((level) => ({ level, dir: levelDir(root, level) }));
}
