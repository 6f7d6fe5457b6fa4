/**
 * The index as the hooks read it: lessons/index.json only, never the lesson files, never ajv or
 * gray-matter (SPEC §4: the index holds enough that hooks never read bodies).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IndexEntry } from '../index/build.js';
import { readRegularFile } from '../io/fs.js';
import { INDEX_FILE } from '../io/repo.js';

/** The entries of lessons/index.json, or undefined when it is missing or not an index. */
export function readIndexEntries(root: string): IndexEntry[] | undefined {
  let text: string;
  try {
    text = readRegularFile(path.join(root, INDEX_FILE)).toString('utf8');
  } catch {
    return undefined;
  }
  const data = JSON.parse(text) as { lessons?: unknown };
  if (!data || !Array.isArray(data.lessons)) return undefined;
  return (data.lessons as IndexEntry[]).filter(isUsableEntry);
}

/** Entries whose shape the hooks rely on; anything else is skipped rather than crashing a hook. */
function isUsableEntry(entry: IndexEntry): boolean {
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.id === 'string' &&
    typeof entry.title === 'string' &&
    Array.isArray(entry.checklist) &&
    typeof entry.triggers === 'object' &&
    entry.triggers !== null &&
    Array.isArray(entry.triggers.tools) &&
    Array.isArray(entry.triggers.paths) &&
    Array.isArray(entry.triggers.commands) &&
    Array.isArray(entry.triggers.keywords)
  );
}

/** The nearest directory at or above `start` holding a lessons/ folder, or undefined (hooks never throw for this). */
export function findLessonsRoot(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    try {
      if (fs.statSync(path.join(dir, 'lessons')).isDirectory()) return dir;
    } catch {
      // not here; go up
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
