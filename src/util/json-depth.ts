/**
 * JSON nested deeper than any file of lessons ever is: 200,000 levels of `[` parse (V8's parser
 * does not recurse) and then overflow the stack of every walk over the value (a secrets scan,
 * a schema check). Readers ask first, in one linear pass over the text.
 */

/** Deeper than any index, policy, lock or eval file; a document nested past it is refused as not valid. */
export const MAX_JSON_DEPTH = 100;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Whether the brackets of JSON `text` nest at most `max` levels (strings skipped); linear in the text. */
export function jsonDepthWithin(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: one not preceded by an odd run of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return true;
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return false;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return true;
}

/** JSON.parse of `text`, throwing a SyntaxError as JSON.parse does for a document nested past `max` levels. */
export function parseJsonWithin(text: string, max = MAX_JSON_DEPTH): unknown {
  if (!jsonDepthWithin(text, max)) throw new SyntaxError(`it is nested more than ${max} levels deep`);
  return JSON.parse(text) as unknown;
}
