import { INDEX_FILE } from '../io/repo.js';
import { compareStrings } from '../util/compare.js';
import type { IndexEntry } from './build.js';

export interface IndexDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/** Which lessons differ between the committed index and the one the tree gives. */
export function diffIndexes(committed: readonly IndexEntry[], fresh: readonly IndexEntry[]): IndexDiff {
  // An entry's neighbour (`after`) is where it is written, not what it says of its lesson.
  const text = (entry: IndexEntry): string => JSON.stringify({ ...entry, after: undefined });
  const before = new Map(committed.map((entry) => [entry.id, text(entry)]));
  const after = new Map(fresh.map((entry) => [entry.id, text(entry)]));
  const added = [...after.keys()].filter((id) => !before.has(id));
  const removed = [...before.keys()].filter((id) => !after.has(id));
  const changed = [...after.keys()].filter((id) => before.has(id) && before.get(id) !== after.get(id));
  return { added: added.sort(compareStrings), removed: removed.sort(compareStrings), changed: changed.sort(compareStrings) };
}

/**
 * What is wrong with the committed index, in words, for `lessons index --check` and the
 * guard's index-fresh gate: a headline and one phrase per kind of difference.
 */
export function indexStaleness(missing: boolean, diff: IndexDiff): { headline: string; details: string[] } {
  const details = [
    diff.added.length > 0 ? `not in the index: ${diff.added.join(', ')}` : '',
    diff.removed.length > 0 && !missing ? `no longer in the tree: ${diff.removed.join(', ')}` : '',
    diff.changed.length > 0 ? `changed: ${diff.changed.join(', ')}` : '',
  ].filter(Boolean);
  if (!missing && details.length === 0) details.push("only the file's formatting differs");
  return { headline: `${INDEX_FILE} is ${missing ? 'missing' : 'stale'}`, details };
}
