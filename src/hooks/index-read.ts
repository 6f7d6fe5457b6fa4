/**
 * The index as the hooks read it: lessons/index.json only, never the lesson files, never ajv or
 * gray-matter (SPEC §4: the index holds enough that hooks never read bodies).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IndexEntry } from '../index/build.js';
import { writeFileAtomic } from '../io/fs.js';
import { INDEX_FILE } from '../io/repo.js';

/** The entries of lessons/index.json, or undefined when it is missing or not an index. */
export function readIndexEntries(root: string): IndexEntry[] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, INDEX_FILE), 'utf8');
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

/** What the trigger cache keeps of an entry: enough to match and to print, nothing else. */
export type TriggerEntry = Pick<IndexEntry, 'id' | 'path' | 'title' | 'level' | 'status' | 'severity' | 'checklist' | 'triggers'>;

interface TriggerCache {
  key: string;
  entries: TriggerEntry[];
}

export const TRIGGER_CACHE_FILE = '.lessons/cache/hook-triggers.json';

function hasToolTriggers(entry: IndexEntry): boolean {
  return entry.status !== 'retired' && (entry.triggers.tools.length > 0 || entry.triggers.paths.length > 0 || entry.triggers.commands.length > 0);
}

/**
 * The entries a tool call can trigger, from a compact cache under .lessons/ keyed by the index
 * file's identity (inode, size, modification time): a 1,000-lesson pretty index takes longer to
 * parse than the rest of a PreToolUse hook, and most lessons have no tool triggers. A missing,
 * stale or unreadable cache is rebuilt from the index; failing to write it changes nothing.
 */
export function readTriggerEntries(root: string): TriggerEntry[] | undefined {
  let key: string;
  try {
    const stat = fs.statSync(path.join(root, INDEX_FILE));
    key = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
  const cacheFile = path.join(root, TRIGGER_CACHE_FILE);
  try {
    const cache = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as TriggerCache;
    if (cache.key === key && Array.isArray(cache.entries)) return cache.entries;
  } catch {
    // no cache yet, or a broken one: rebuild below
  }
  const entries = readIndexEntries(root);
  if (!entries) return undefined;
  const compact = entries.filter(hasToolTriggers).map(({ id, path: file, title, level, status, severity, checklist, triggers }) => ({ id, path: file, title, level, status, severity, checklist, triggers }));
  try {
    writeFileAtomic(cacheFile, JSON.stringify({ key, entries: compact } satisfies TriggerCache));
  } catch {
    // a read-only checkout still gets its lessons, just without the cache
  }
  return compact;
}
