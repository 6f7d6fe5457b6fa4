import { INDEX_FILE } from '../io/repo.js';
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

/** What readers say of an index chained() refuses. */
export const UNCHAINED_DETAIL = 'lists lessons twice, out of order or after the wrong neighbour';
export const UNCHAINED = `${INDEX_FILE} ${UNCHAINED_DETAIL}`;

/**
 * Whether the entries are as `lessons index` writes them: each id once, in order, each entry's
 * `after` the id of the entry before it (null for the first). Git's union merge of neighbouring
 * lines (docs/index-merge.md) keeps both sides' lines, and then some entry's `after` names
 * another line than the one before it, or an id repeats: such an index holds a side's old entry
 * beside the new one, and readers take it for stale. An index of version 1 has no `after`.
 */
export function chained(entries: readonly { id: string; after?: string | null }[]): boolean {
  for (let n = 0; n < entries.length; n++) {
    const before = n === 0 ? null : entries[n - 1]!.id;
    if (entries[n]!.after !== before || (before !== null && !(compareStrings(before, entries[n]!.id) < 0))) return false;
  }
  return true;
}
