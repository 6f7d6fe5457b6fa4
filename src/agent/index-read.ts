/**
 * The index as the hooks read it: lessons/index.json only, never the lesson files, never ajv or
 * a YAML parser (SPEC §4: the index holds enough that hooks never read bodies).
 */
import type { IndexEntry } from '../index/build.js';

/** Entries whose shape the hooks rely on; anything else is skipped rather than crashing a hook. */
export function isUsableEntry(entry: IndexEntry): boolean {
  return (
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
