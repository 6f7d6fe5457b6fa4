import type { IndexEntry } from './build.js';
import { parseJsonWithin } from '../util/json-depth.js';

/**
 * lessons/index.json as every reader takes it (the guard, `lessons index --check`, the hooks,
 * preflight's search cache): its entries that have an id, or undefined when the text is not an
 * index at all (not JSON, or no `lessons` array). Never throws: a broken index is reported by
 * the caller as missing or stale, not as a crash.
 */
export function parseIndexEntries(text: string): IndexEntry[] | undefined {
  let data: unknown;
  try {
    data = parseJsonWithin(text);
  } catch {
    return undefined;
  }
  const lessons = (data as { lessons?: unknown } | null)?.lessons;
  if (!Array.isArray(lessons)) return undefined;
  return (lessons as IndexEntry[]).filter((entry) => typeof entry === 'object' && entry !== null && typeof entry.id === 'string');
}
