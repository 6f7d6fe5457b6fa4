import { POSTINGS_CAP, similarity, termText, type Fingerprint, type SimilarGroup } from '../../src/search/similarity.js';
import { compareStrings } from '../../src/util/compare.js';

/**
 * Single linkage over every pair of `prints` at `threshold`: the groups of two or more that
 * similarGroups() must find, each as its member numbers joined, sorted.
 */
export function singleLinkage(prints: readonly Fingerprint[], threshold: number): string[] {
  const parent = prints.map((_, n) => n);
  const find = (n: number): number => (parent[n] === n ? n : (parent[n] = find(parent[n]!)));
  for (let i = 0; i < prints.length; i++) {
    for (let j = i + 1; j < prints.length; j++) if (similarity(prints[i]!, prints[j]!) >= threshold) parent[find(j)] = find(i);
  }
  const groups = new Map<number, number[]>();
  prints.forEach((_, n) => groups.set(find(n), [...(groups.get(find(n)) ?? []), n]));
  return [...groups.values()].filter((members) => members.length > 1).map((members) => members.join()).sort();
}

/**
 * similarGroups() as its comment states it, without its shortcuts (lists skipped when all of
 * one group, pairs passed over by the bound on their norms): the same order of terms, the same
 * prefixes, lists of at most POSTINGS_CAP texts, every pair met compared, and the weakest link
 * of each union kept. Its groups and weakest links are what similarGroups() must give.
 */
export function cappedGroups(prints: readonly Fingerprint[], threshold: number): SimilarGroup[] {
  const frequency = new Map<number, number>();
  for (const { terms } of prints) for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const used = [...frequency.keys()].sort((a, b) => frequency.get(a)! - frequency.get(b)! || compareStrings(termText(a), termText(b)));
  const rank = new Map(used.map((term, n) => [term, n]));
  const index = new Map<number, number[]>();
  const byTitle = new Map<string, number>();
  const parent = prints.map((_, n) => n);
  const find = (n: number): number => (parent[n] === n ? n : (parent[n] = find(parent[n]!)));
  const weakest = prints.map(() => 1);
  prints.forEach((print, i) => {
    const order = [...print.terms.keys()].sort((a, b) => rank.get(print.terms[a]!)! - rank.get(print.terms[b]!)!);
    const norm = Math.sqrt(print.squared);
    let suffix = 0;
    let cut = order.length;
    while (cut > 0) {
      const weight = print.weights[order[cut - 1]!]! / norm;
      if (Math.sqrt(suffix + weight * weight) >= threshold - 0.0005) break;
      suffix += weight * weight;
      cut--;
    }
    const met = new Set<number>();
    const consider = (j: number): void => {
      if (met.has(j)) return;
      met.add(j);
      const [own, other] = [find(i), find(j)];
      if (own === other) return;
      const alike = similarity(print, prints[j]!);
      if (alike < threshold) return;
      const [root, child] = own < other ? [own, other] : [other, own];
      parent[child] = root;
      weakest[root] = Math.min(weakest[root]!, weakest[child]!, alike);
    };
    if (print.title !== '') {
      if (!byTitle.has(print.title)) byTitle.set(print.title, i);
      else consider(byTitle.get(print.title)!);
    }
    const prefix = order.slice(0, cut).map((position) => rank.get(print.terms[position]!)!);
    for (const term of prefix) for (const j of index.get(term) ?? []) consider(j);
    for (const term of prefix) {
      const list = index.get(term) ?? [];
      if (list.length < POSTINGS_CAP) index.set(term, [...list, i]);
    }
  });
  const groups = new Map<number, number[]>();
  prints.forEach((_, n) => groups.set(find(n), [...(groups.get(find(n)) ?? []), n]));
  return [...groups.entries()].filter(([, members]) => members.length > 1).map(([root, members]) => ({ members, weakest: weakest[root]! }));
}
