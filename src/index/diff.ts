import { INDEX_FILE } from '../io/repo.js';
import { compareStrings } from '../util/compare.js';
import { firstOf } from '../util/plural.js';
import type { IndexEntry } from './build.js';
import { chained, UNCHAINED_DETAIL } from './read.js';

export interface IndexDiff {
  added: string[];
  removed: string[];
  changed: string[];
  /**
   * Why the committed file is not as `lessons index` writes it, where its entries say: written by
   * a version of lessons before format 2 (no entry names its neighbour), or lines out of their
   * chain (a merge without the merge driver kept both sides' lines). Absent otherwise.
   */
  layout?: 'format-1' | 'unchained';
}

/** How the committed entries are laid out, where that is why the file differs (IndexDiff.layout). */
export function indexLayout(committed: readonly IndexEntry[]): IndexDiff['layout'] {
  if (committed.length === 0 || chained(committed)) return undefined;
  return committed.every((entry) => !('after' in entry)) ? 'format-1' : 'unchained';
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
  const layout = indexLayout(committed);
  return { added: added.sort(compareStrings), removed: removed.sort(compareStrings), changed: changed.sort(compareStrings), ...(layout && { layout }) };
}

/**
 * What is wrong with the committed index, in words, for `lessons index --check` and the
 * guard's index-fresh gate: a headline and one phrase per kind of difference.
 */
export function indexStaleness(missing: boolean, diff: IndexDiff): { headline: string; details: string[] } {
  const details = [
    diff.added.length > 0 ? `not in the index: ${firstOf(diff.added)}` : '',
    diff.removed.length > 0 && !missing ? `no longer in the tree: ${firstOf(diff.removed)}` : '',
    diff.changed.length > 0 ? `changed: ${firstOf(diff.changed)}` : '',
    diff.layout === 'format-1' ? 'index format 1, which earlier versions of lessons wrote' : '',
    diff.layout === 'unchained' ? `${UNCHAINED_DETAIL}, as a merge without the index merge driver leaves it` : '',
  ].filter(Boolean);
  if (!missing && details.length === 0) details.push("only the file's formatting differs");
  return { headline: `${INDEX_FILE} is ${missing ? 'missing' : 'stale'}`, details };
}
