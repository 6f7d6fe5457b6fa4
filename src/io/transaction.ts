import fs from 'node:fs';
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { readText, toPosixRelative, writeFileAtomic } from './fs.js';
import { pathInside } from './inside.js';
import { STATE_DIR } from './repo.js';
import type { Chunks } from '../util/digest.js';

export const TRANSACTIONS_DIR = `${STATE_DIR}/txn`;
const JOURNAL = 'journal.json';

/** One file of a multi-file change: repo-relative POSIX path and its whole new content. */
export interface FileChange {
  path: string;
  content: string | Uint8Array | Chunks;
  /** The file must not exist yet (a new lesson): never overwrite one. */
  create?: boolean;
}

export interface CommitHooks {
  /** Called after each file is in place; tests inject failures and kills here. */
  afterRename?: (done: number) => void;
}

interface JournalEntry {
  path: string;
  /** Whether `<n>.old`, a hard link to the file as it was, exists. */
  backup: boolean;
}

/**
 * Writes several files as one change: all of them or none. Every new content is first a
 * complete temp file under .lessons/txn/<id>/, next to a hard link to each file it replaces;
 * a journal naming them is written before the first file moves. An error rolls back at once;
 * a killed process leaves the journal, and the next `recoverChanges` rolls back from it.
 * Callers hold the lessons lock, so no other writer runs in between.
 */
export function commitChanges(root: string, changes: readonly FileChange[], hooks: CommitHooks = {}): void {
  if (changes.length === 0) return;
  // Checked before anything is written: a lesson id or a linked level folder never leads out.
  const targets = changes.map((change) => pathInside(root, change.path, 'a lesson id'));
  const dir = pathInside(root, `${TRANSACTIONS_DIR}/${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, 'the transactions folder');
  fs.mkdirSync(dir, { recursive: true });
  const journal: JournalEntry[] = [];
  try {
    changes.forEach((change, i) => {
      const target = targets[i]!;
      writeFileAtomic(path.join(dir, `${i}.new`), change.content);
      const exists = fs.existsSync(target);
      if (exists && change.create) {
        throw new LessonsError('LESSON_EXISTS', `${change.path} already exists: choose another id`);
      }
      if (exists) fs.linkSync(target, path.join(dir, `${i}.old`));
      journal.push({ path: change.path, backup: exists });
    });
    writeFileAtomic(path.join(dir, JOURNAL), `${JSON.stringify(journal)}\n`);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  try {
    journal.forEach((entry, i) => {
      const target = targets[i]!;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // A new file is linked, not renamed, so it can never replace one that appeared meanwhile.
      if (entry.backup) fs.renameSync(path.join(dir, `${i}.new`), target);
      else fs.linkSync(path.join(dir, `${i}.new`), target);
      hooks.afterRename?.(i + 1);
    });
  } catch (error) {
    rollBack(root, dir);
    throw error instanceof LessonsError
      ? error
      : new LessonsError('IO', `cannot write ${changes.map((change) => change.path).join(', ')}: ${(error as Error).message}; nothing was changed`);
  }
  // Removing the journal first marks the change complete: a crash after it leaves only garbage.
  fs.rmSync(path.join(dir, JOURNAL), { force: true });
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Puts every file of an unfinished change back as it was; returns the changes it undid. */
export function recoverChanges(root: string): string[] {
  const base = path.join(root, TRANSACTIONS_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(base);
  } catch {
    return [];
  }
  const undone: string[] = [];
  for (const name of names.sort()) {
    const dir = path.join(base, name);
    if (fs.existsSync(path.join(dir, JOURNAL))) {
      rollBack(root, dir);
      undone.push(name);
    } else {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return undone;
}

function rollBack(root: string, dir: string): void {
  let journal: JournalEntry[];
  try {
    journal = JSON.parse(readText(path.join(dir, JOURNAL), 'state')) as JournalEntry[];
  } catch {
    // No journal: no file moved yet.
    fs.rmSync(dir, { recursive: true, force: true });
    return;
  }
  for (let i = journal.length - 1; i >= 0; i--) {
    const entry = journal[i]!;
    const target = path.join(root, entry.path);
    const backup = path.join(dir, `${i}.old`);
    const fresh = path.join(dir, `${i}.new`);
    try {
      if (entry.backup) {
        if (fs.existsSync(backup)) fs.renameSync(backup, target);
      } else if (sameFile(fresh, target)) {
        fs.rmSync(target);
      }
    } catch (error) {
      throw new LessonsError(
        'IO',
        `cannot undo an unfinished change to ${entry.path}: ${(error as Error).message}; its backup is in ${toPosixRelative(root, dir)}`,
      );
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

function sameFile(a: string, b: string): boolean {
  try {
    const sa = fs.statSync(a);
    const sb = fs.statSync(b);
    return sa.ino === sb.ino && sa.dev === sb.dev;
  } catch {
    return false;
  }
}
