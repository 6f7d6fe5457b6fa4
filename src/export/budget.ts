/**
 * Budget warnings: what a tool that reads a file only up to a limit (ReadLimit) would never
 * see. Pure: the file's text and its pieces in, the warning out.
 */
import { firstOf } from '../util/plural.js';
import type { Piece, ReadLimit } from './target.js';

/** The length, in string units, of the longest start of `text` within `limit` (a code point is never split). */
function readLength(text: string, limit: ReadLimit): number {
  let used = 0;
  let index = 0;
  for (const point of text) {
    used += limit.unit === 'bytes' ? Buffer.byteLength(point, 'utf8') : 1;
    if (used > limit.max) return index;
    index += point.length;
  }
  return index;
}

function size(text: string, limit: ReadLimit): number {
  return limit.unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : [...text].length;
}

/**
 * The warning for the file `rel` (its whole `text`, `pieces` at their offsets in it) when
 * `limit`'s reader would cut it, naming the first pieces that would lose their end (firstOf); undefined when
 * the file fits.
 */
export function budgetWarning(rel: string, text: string, pieces: readonly Piece[], limit: ReadLimit | undefined): string | undefined {
  if (!limit) return undefined;
  const read = readLength(text, limit);
  if (read === text.length) return undefined;
  const cut = pieces.filter((piece) => piece.end > read).map((piece) => piece.label);
  const what = cut.length > 0 ? `it would cut, wholly or in part: ${firstOf(cut)}` : 'it would cut the text after the lessons';
  return `${rel} has ${size(text, limit)} ${limit.unit}, and ${limit.reader} reads only the first ${limit.max} (${limit.source}): ${what}${limit.note ? `. Note: ${limit.note}` : ''}`;
}
