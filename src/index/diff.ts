import { compareStrings } from '../util/compare.js';
import type { IndexEntry } from './build.js';

export interface IndexDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/** Which lessons differ between the committed index and the one the tree gives. */
export function diffIndexes(committed: readonly IndexEntry[], fresh: readonly IndexEntry[]): IndexDiff {
  const before = new Map(committed.map((entry) => [entry.id, JSON.stringify(entry)]));
  const after = new Map(fresh.map((entry) => [entry.id, JSON.stringify(entry)]));
  const added = [...after.keys()].filter((id) => !before.has(id));
  const removed = [...before.keys()].filter((id) => !after.has(id));
  const changed = [...after.keys()].filter((id) => before.has(id) && before.get(id) !== after.get(id));
  return { added: added.sort(compareStrings), removed: removed.sort(compareStrings), changed: changed.sort(compareStrings) };
}
