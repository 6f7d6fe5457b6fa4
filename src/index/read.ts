import { compareStrings } from '../util/compare.js';
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

/**
 * Whether the entries are in the order `lessons index` writes, each id once. A union merge of
 * neighbouring lines (docs/index-merge.md) leaves ids repeated or out of order: such an index
 * holds a side's old entry beside the new one, and readers take it for stale.
 */
export function inIdOrder(entries: readonly { id: string }[]): boolean {
  for (let n = 1; n < entries.length; n++) if (!(compareStrings(entries[n - 1]!.id, entries[n]!.id) < 0)) return false;
  return true;
}
