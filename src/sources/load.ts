import path from 'node:path';
import { listMarkdownFiles, readMarkdownEntry, toPosixRelative } from '../io/fs.js';
import { pathKind } from '../io/paths.js';
import type { Progress } from '../io/progress.js';
import { addLessonFile, fileStem, type LoadedLesson, type LoadedTree } from '../lesson/load.js';
import { LEVEL_FOLDERS } from '../lesson/model.js';
import type { Finding } from '../lesson/finding.js';
import type { Policy } from '../policy/policy.js';
import type { SchemaError } from '../schema/validate.js';
import { checkedOutCommit } from './git.js';
import { policySources, readLock } from './lock-file.js';
import { checkoutDir, qualifiedId, type LockEntry, type Source } from './model.js';
import { LOCK_FILE } from '../io/repo.js';

/** A lesson of a source, as this repository sees it. */
export interface SourceLesson extends LoadedLesson {
  /** The source's name in the policy. */
  source: string;
  /** `<source>:<id>`: the id everywhere outside the source's own repository. */
  qualifiedId: string;
  /** Retired lessons are loaded (references to them resolve) but never selected. */
  retired: boolean;
  /** The commit the checkout is at. */
  commit: string | undefined;
}

export interface SourceLessons {
  lessons: SourceLesson[];
  /** Per source: a missing checkout, a checkout away from the lock, refused or malformed files. Warnings: they never stop the local run. */
  problems: Finding[];
  /** The names of the sources whose checkout exists. */
  fetched: string[];
  /** Those of them whose checkout is not at a commit the lock names. */
  offLock: string[];
  /** Every lesson file read, taken or left out (repo-relative): what the secrets scan reads. */
  files: string[];
}

export interface LoadSourcesOptions {
  /** Validates frontmatter against the local lesson schema. */
  schemaErrors: (data: unknown) => SchemaError[];
  /** Steps once per source read. */
  progress?: Progress;
}

/**
 * The lessons of every fetched source, from the checkouts `lessons sources update` made; reads
 * no network and starts no git. A lesson that is malformed, a symbolic link, or outside the
 * source's lessons tree is left out and reported by source and file.
 */
export function loadSourceLessons(root: string, policy: Policy, options: LoadSourcesOptions): SourceLessons {
  const result: SourceLessons = { lessons: [], problems: [], fetched: [], offLock: [], files: [] };
  const sources = policySources(policy);
  if (sources.length === 0) return result;
  let lock: LockEntry[] = [];
  try {
    lock = readLock(root);
  } catch (error) {
    result.problems.push(warning(LOCK_FILE, (error as Error).message));
  }
  for (const [i, source] of sources.entries()) {
    options.progress?.step(i + 1, sources.length, `reading source ${source.name}`);
    loadSource(root, source, lock.find((entry) => entry.name === source.name), options, result);
  }
  return result;
}

function warning(file: string, message: string): Finding {
  return { rule: 'source', severity: 'warning', file, message };
}

function loadSource(root: string, source: Source, locked: LockEntry | undefined, options: LoadSourcesOptions, into: SourceLessons): void {
  const dir = checkoutDir(root, source.name);
  const rel = toPosixRelative(root, dir);
  const say = (file: string, message: string) => into.problems.push(warning(file, `source \`${source.name}\`: ${message}`));
  const commit = checkedOutCommit(dir);
  if (commit === undefined) {
    say(rel, 'not fetched: run `lessons sources update`');
    return;
  }
  into.fetched.push(source.name);
  if (locked === undefined || locked.commit !== commit) into.offLock.push(source.name);
  if (locked === undefined) say(rel, `not in ${LOCK_FILE}: run \`lessons sources update\` and commit the lock file`);
  else if (locked.commit !== commit) say(rel, `the checkout is at ${commit.slice(0, 12)}, the lock names ${locked.commit.slice(0, 12)}: run \`lessons sources update --locked\``);
  const tree = insideCheckout(dir, source.path);
  if (typeof tree !== 'string') {
    say(rel, tree.refused);
    return;
  }
  for (const level of source.levels) {
    const levelDir = insideCheckout(dir, `${source.path}/${LEVEL_FOLDERS[level]}`);
    if (typeof levelDir !== 'string') {
      say(`${rel}/${source.path}/${LEVEL_FOLDERS[level]}`, levelDir.refused);
      continue;
    }
    const loaded: LoadedTree = { lessons: [], problems: [] };
    for (const entry of listMarkdownFiles(root, levelDir)) {
      if (entry.kind === 'symlink') {
        say(toPosixRelative(root, entry.file), 'refused: a symbolic link, and a source may only bring files of its own');
        continue;
      }
      const read = readMarkdownEntry(root, entry);
      if (read.kind === 'problem') {
        say(read.path, read.message);
        continue;
      }
      into.files.push(read.path);
      addLessonFile(loaded, read.path, read.bytes, level);
    }
    for (const problem of loaded.problems) say(problem.file, `${problem.line === undefined ? '' : `line ${problem.line}: `}${problem.message}`);
    for (const item of loaded.lessons) {
      const malformed = validity(item, options);
      if (malformed !== undefined) {
        say(item.path, `left out: ${malformed}`);
        continue;
      }
      into.lessons.push({ ...item, source: source.name, qualifiedId: qualifiedId(source.name, item.lesson.id), retired: item.lesson.status === 'retired', commit });
    }
  }
}

/** Why a source's lesson cannot be taken, or undefined when it can: the local schema, its id and its folder. */
function validity(item: LoadedLesson, options: LoadSourcesOptions): string | undefined {
  const errors = options.schemaErrors(item.parsed.data);
  if (errors.length > 0) return errors.map((error) => `${error.field} ${error.message}`).join('; ');
  if (item.lesson.id !== fileStem(item.path)) return `id \`${item.lesson.id}\` differs from the file name`;
  if (item.lesson.level !== item.folderLevel) return `level \`${item.lesson.level}\` does not match its folder (${item.folderLevel})`;
  return undefined;
}

/**
 * `relPath` inside the checkout `dir`, or why it is refused: no part of it may be a symbolic
 * link, so nothing a source brings can point outside its own tree. A missing folder is fine
 * (a source need not have every level).
 */
function insideCheckout(dir: string, relPath: string): string | { refused: string } {
  let current = dir;
  for (const part of relPath.split('/')) {
    current = path.join(current, part);
    const kind = pathKind(current);
    if (kind === 'missing') return current;
    if (kind === 'symlink') return { refused: `refused: \`${relPath}\` goes through a symbolic link (${part})` };
    if (kind !== 'directory') return { refused: `refused: \`${relPath}\` is not a folder` };
  }
  return current;
}
