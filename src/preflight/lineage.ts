import type { SearchIndex } from '../search/engine.js';

/**
 * Relevance flows along promotion links: the pattern distilled from a matching case, and
 * the principle above that pattern, apply to the task too (and a matching pattern's cases
 * support it). Share of the linked lesson's text score and relevance evidence passed on, per hop,
 * from the `sources` best text matches.
 */
export const LINEAGE = { up: 0.7, down: 0.3, evidenceUp: 0.9, evidenceDown: 0.75, sources: 50 };

export interface Via {
  doc: number;
  /** true when the lesson was distilled from `doc` (its pattern or principle). */
  up: boolean;
}

/**
 * Two hops along promotion links (case -> pattern -> principle), from the best text matches
 * only (`best`: the candidates whose text score is among the LINEAGE.sources largest, ties
 * included, Workspace.bestByText); a lesson's text score becomes its own plus the best share
 * passed to it.
 *
 * The best matches of the second hop are among those of the first and the lessons the first
 * passed relevance to (every other lesson kept its text score, below the first hop's best), so
 * only the first hop looks at every candidate.
 */
export function propagateLineage(
  index: SearchIndex,
  best: readonly number[],
  text: Float64Array,
  evidence: Float64Array,
  add: (doc: number) => void,
): Map<number, Via> {
  type Inherited = Map<number, { text: number; evidence: number; via: Via }>;
  let inherited: Inherited = new Map();
  for (let hop = 0; hop < 2; hop++) {
    const previous = inherited;
    const textOf = (doc: number): number => text[doc]! + (previous.get(doc)?.text ?? 0);
    const evidenceOf = (doc: number): number => Math.max(evidence[doc]!, previous.get(doc)?.evidence ?? 0);
    const sources = hop === 0 ? [...best] : [...new Set([...best, ...previous.keys()])].filter((doc) => textOf(doc) > 0);
    sources.sort((a, b) => textOf(b) - textOf(a) || a - b);
    inherited = new Map();
    for (const doc of sources.slice(0, LINEAGE.sources)) {
      for (const link of index.lineage(doc)) {
        const t = textOf(doc) * (link.up ? LINEAGE.up : LINEAGE.down);
        const e = evidenceOf(doc) * (link.up ? LINEAGE.evidenceUp : LINEAGE.evidenceDown);
        const known = inherited.get(link.doc);
        if (!known || t > known.text) inherited.set(link.doc, { text: t, evidence: Math.max(e, known?.evidence ?? 0), via: { doc, up: link.up } });
      }
    }
  }
  const via = new Map<number, Via>();
  for (const [doc, value] of inherited) {
    add(doc);
    text[doc]! += value.text;
    evidence[doc] = Math.max(evidence[doc]!, value.evidence);
    via.set(doc, value.via);
  }
  return via;
}
