/** "Did you mean": the known word closest to a mistyped one, as git and npm suggest commands. */

/** Edit distance with transpositions (optimal string alignment), for short words. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate `word` most likely meant: the closest within a third of its length (at least
 * one edit), or the only one it is a prefix of; undefined when nothing is close.
 */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance <= Math.max(1, Math.floor(candidate.length / 3)) && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  if (best) return best.candidate;
  const prefixed = typed.length >= 2 ? candidates.filter((candidate) => candidate.toLowerCase().startsWith(typed)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** `; did you mean \`x\`?` for a message, or nothing. */
export function didYouMean(word: string, candidates: readonly string[], show: (candidate: string) => string = (candidate) => candidate): string {
  const closest = closestWord(word, candidates);
  return closest === undefined ? '' : `: did you mean \`${show(closest)}\`?`;
}
