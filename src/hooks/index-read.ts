/**
 * The index as the hooks read it: lessons/index.json only, never the lesson files, never ajv or
 * gray-matter (SPEC §4: the index holds enough that hooks never read bodies), unless it is
 * broken (health.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IndexEntry } from '../index/build.js';

/** Entries whose shape the hooks rely on; anything else is skipped rather than crashing a hook. */
export function isUsableEntry(entry: IndexEntry): boolean {
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
