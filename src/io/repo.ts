import fs from 'node:fs';
import path from 'node:path';
import { LessonsError } from '../errors.js';

export const LESSONS_DIR = 'lessons';
export const INDEX_FILE = 'lessons/index.json';
export const POLICY_FILE = 'policy/workflow-policy.json';
export const STATE_DIR = '.lessons';
/** Where `lessons export --to cursor` writes its rules, and the prefix of the files it owns. */
export const CURSOR_RULES_DIR = '.cursor/rules';
export const CURSOR_RULE_PREFIX = 'lessons-';
/** What `lessons sources update` pinned (federation). */
export const LOCK_FILE = `${LESSONS_DIR}/sources.lock.json`;
/** Where the last preflight run is recorded; the guard and the commit-message hooks read it. */
export const RECEIPT_FILE = `${STATE_DIR}/preflight/last.json`;

/**
 * Directories named with `-C`: discovery never looks above them, as git stops at
 * GIT_CEILING_DIRECTORIES. A process runs one command, so the CLI records them here.
 */
const ceilings = new Set<string>();

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
  if (dir !== undefined) ceilings.add(cwd);
  return cwd;
}

/**
 * The root of the lessons repository containing `cwd`: the nearest directory, going up, that
 * has a `lessons/` folder. The search stops at the top of the git repository `cwd` is in (a
 * directory with `.git`, a folder or a worktree's file) and at a `-C` directory, so a
 * repository nested in another never reads or writes the outer one's lessons.
 */
export function lessonsRootOf(cwd: string): { root: string } | { stoppedAt: string } {
  let dir = cwd;
  for (;;) {
    if (isDirectory(path.join(dir, LESSONS_DIR))) return { root: dir };
    if (fs.existsSync(path.join(dir, '.git')) || ceilings.has(dir)) return { stoppedAt: dir };
    const parent = path.dirname(dir);
    if (parent === dir) return { stoppedAt: dir };
    dir = parent;
  }
}

/** {@link lessonsRootOf}, or an error (exit 2) saying that this is not a lessons repository. */
export function findRepoRoot(cwd: string): string {
  const found = lessonsRootOf(cwd);
  if ('root' in found) return found.root;
  const where = found.stoppedAt === cwd ? cwd : `${cwd} or above it up to ${found.stoppedAt}`;
  throw new LessonsError('NOT_A_LESSONS_REPO', `not a lessons repository (no lessons/ folder in ${where}): run \`lessons init\` there, or pass -C <dir>`);
}

/** The lessons repository at or above `start` (within its git repository), or undefined: for the hooks, which never throw for this. */
export function lessonsRootAbove(start: string): string | undefined {
  const found = lessonsRootOf(path.resolve(start));
  return 'root' in found ? found.root : undefined;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

