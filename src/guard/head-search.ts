import type { Snapshot } from './snapshot.js';
import type { SearchIndex } from '../search/engine.js';

/** The head side's lessons as one search index, built on first use: the retrieval gate and the change section share it. */
export interface HeadSearch {
  open: () => Promise<{ index: SearchIndex; digest: string }>;
  close: () => void;
}

/**
 * The lessons of a guard side (its whole tree loaded) in memory, with the fetched sources
 * (`lessons sources update --locked` in CI) beside them, as preflight selects from both. The
 * search code loads only when something opens it (never on the commit path).
 */
export function headSearch(snapshot: Snapshot, root: string): HeadSearch {
  let closeSources: (() => void) | undefined;
  let built: Promise<{ index: SearchIndex; digest: string }> | undefined;
  return {
    open: () => {
      built ??= (async () => {
        const { searchFromLessons, openSources } = await import('../search/engine.js');
        const sources = openSources(root);
        closeSources = sources.close;
        return searchFromLessons(snapshot.tree.lessons, sources.segment);
      })();
      return built;
    },
    close: () => closeSources?.(),
  };
}
