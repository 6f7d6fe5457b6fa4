import { similarity, type Fingerprint } from '../../src/capture/similarity.js';

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
