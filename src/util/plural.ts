/** `1 lesson`, `2 lessons`. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** `a`, `a or b`, `a, b or c` (with `and` as the conjunction: `a, b and c`). */
export function listWords(words: readonly string[], conjunction: 'and' | 'or'): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
}

/** How many items a message names before saying how many more (firstOf): one line, however many thousand lessons there are; JSON lists them all. */
export const NAMED_MAX = 10;

/** The first `max` items joined by commas, then how many more (`a, b and 3 more`): a line, however many there are. */
export function firstOf(items: readonly string[], max = NAMED_MAX): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');
}
