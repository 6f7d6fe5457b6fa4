/**
 * The other ways a text can spell a credential, each as a plain view the rules match, with the
 * original offset of every character of it: markdown escapes (`ghp\_…`), invisible characters
 * (zero-width, soft hyphen), compatibility forms and look-alike letters (fullwidth `ｇｈｐ`,
 * Cyrillic `р`), JSON and YAML `\u`/`\x` escapes, HTML entities, URL encoding and a token split
 * over lines; and the base64 and hex runs of a text, which are decoded and scanned again
 * (rules.ts bounds the depth). Every function here is one pass over its input: linear.
 */

/**
 * A stretch of a view: copied from the original as it stands (`copy`: view character k is
 * original character orig + k - view), or one spelling undone (its characters all stand for the
 * original's `width` characters at orig). What a view leaves out lies between two stretches.
 */
interface Stretch {
  view: number;
  orig: number;
  width: number;
  copy: boolean;
}

/** A text the rules match, and where its characters stand in the original. */
export interface View {
  text: string;
  /** In view order; a search finds the stretch of a character. */
  stretches: Stretch[];
}

/** Characters that render as nothing: zero-width spaces and joiners, soft hyphen, bidi controls, BOM, variation selectors. */
const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/;

/** Letters of other scripts drawn like Latin ones (Unicode's confusables, the common part): NFKC leaves them as they are. */
const LOOK_ALIKES: Record<string, string> = {
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', Ѕ: 'S', І: 'I', Ј: 'J', Ү: 'Y',
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', ѕ: 's', і: 'i', ј: 'j', һ: 'h', ԁ: 'd', ԛ: 'q', ԝ: 'w', ɡ: 'g',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  ο: 'o', ν: 'v', ı: 'i', '‐': '-', '‑': '-', '‒': '-', '–': '-', '—': '-', '−': '-',
};

/** The named HTML entities a token can be spelled with (the numeric ones are decoded whatever they name). */
const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", lowbar: '_', UnderBar: '_', hyphen: '-', dash: '-', minus: '-', period: '.',
  sol: '/', equals: '=', colon: ':', plus: '+', num: '#', percnt: '%', commat: '@', tilde: '~', nbsp: ' ',
};

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const HEX2 = /^[0-9a-fA-F]{2}$/;
const HEX4 = /^[0-9a-fA-F]{4}$/;
/** What a token is made of (a Telegram token's colon, a dotted token's dots too): a line break between two of these may split one. */
const RUN_CHAR = /[A-Za-z0-9_+/=:.~-]/;

const nfkcOf = new Map<string, string>();
function nfkc(char: string): string {
  let folded = nfkcOf.get(char);
  if (folded === undefined) {
    folded = char.normalize('NFKC');
    if (nfkcOf.size < 4096) nfkcOf.set(char, folded);
  }
  return folded;
}

/** The decoded character of an escape or entity at `i`, and how many characters it spans; undefined when there is none. */
function escapeAt(text: string, i: number): { value: string; length: number } | undefined {
  const char = text[i]!;
  if (char === '\\') {
    const next = text[i + 1];
    if (next === undefined) return undefined;
    if (next === 'u' && HEX4.test(text.slice(i + 2, i + 6))) return { value: String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)), length: 6 };
    if (next === 'x' && HEX2.test(text.slice(i + 2, i + 4))) return { value: String.fromCharCode(parseInt(text.slice(i + 2, i + 4), 16)), length: 4 };
    // A markdown escape: the backslash renders as nothing.
    if (ASCII_PUNCTUATION.test(next)) return { value: next, length: 2 };
    return undefined;
  }
  if (char === '%') {
    const hex = text.slice(i + 1, i + 3);
    if (!HEX2.test(hex)) return undefined;
    const code = parseInt(hex, 16);
    return code >= 0x20 && code < 0x7f ? { value: String.fromCharCode(code), length: 3 } : undefined;
  }
  if (char === '&') {
    const entity = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]{2,8}));/.exec(text.slice(i, i + 12));
    if (!entity) return undefined;
    if (entity[3] !== undefined) {
      const value = ENTITIES[entity[3]];
      return value === undefined ? undefined : { value, length: entity[0].length };
    }
    const code = entity[1] !== undefined ? Number(entity[1]) : parseInt(entity[2]!, 16);
    return code > 0 && code <= 0x10ffff ? { value: String.fromCodePoint(code), length: entity[0].length } : undefined;
  }
  return undefined;
}

/** A token split in two leaves at least this many token characters about the break (a wrapped line of prose seldom does). */
const SPLIT_RUN = 20;

/**
 * The line break at `i` (with a shell's continuation backslash before it and the next line's
 * indentation) when it may split a token: between token characters, with `run` of them before
 * it and enough after: its length; 0 otherwise.
 */
function splitAt(text: string, i: number, run: number): number {
  if (run === 0) return 0;
  let j = i;
  if (text[j] === '\\') j++;
  if (text[j] === '\r') j++;
  if (text[j] !== '\n') return 0;
  j++;
  while (text[j] === ' ' || text[j] === '\t') j++;
  if (j >= text.length || !RUN_CHAR.test(text[j]!)) return 0;
  let after = 0;
  while (run + after < SPLIT_RUN && j + after < text.length && RUN_CHAR.test(text[j + after]!)) after++;
  return run + after >= SPLIT_RUN ? j - i : 0;
}

/** Where a hiding spelling may start: an escape, an entity, a percent sign, a line break, a character past ASCII. */
const NOTABLE = /[\\%&\r\n]|[^\x00-\x7f]/g;

/** How many token characters end `text` (at most SPLIT_RUN). */
function tokenTail(text: string): number {
  let n = 0;
  while (n < SPLIT_RUN && n < text.length && RUN_CHAR.test(text[text.length - 1 - n]!)) n++;
  return n;
}

/** The change a notable character at `i` makes: what stands for it in the view (empty: nothing) and how many characters it spans; undefined when it stays. */
function undoneAt(text: string, i: number, run: number): { value: string; length: number } | undefined {
  const char = text[i]!;
  if (char === '\n' || char === '\r' || char === '\\') {
    const split = splitAt(text, i, run);
    if (split > 0) return { value: '', length: split };
    return char === '\\' ? escapeAt(text, i) : undefined;
  }
  if (char === '%' || char === '&') return escapeAt(text, i);
  const point = String.fromCodePoint(text.codePointAt(i)!);
  if (INVISIBLE.test(point)) return { value: '', length: point.length };
  const plain = LOOK_ALIKES[point] ?? nfkc(point);
  return plain === point ? undefined : { value: plain, length: point.length };
}

/**
 * `text` with every hiding spelling undone, one pass (what lies between two notable characters
 * is copied whole): undefined when nothing in it changes (the rules have matched it as it is).
 * The view is for matching only: a match in it is reported at the original characters it came from.
 */
export function plainView(text: string): View | undefined {
  const parts: string[] = [];
  const stretches: Stretch[] = [];
  let length = 0;
  // Token characters at the end of the view so far (for splitAt).
  let run = 0;
  const push = (value: string, orig: number, width: number, copy: boolean): void => {
    if (value === '') return;
    parts.push(value);
    stretches.push({ view: length, orig, width, copy });
    length += value.length;
    const tail = tokenTail(value);
    run = tail === value.length ? Math.min(SPLIT_RUN, run + tail) : tail;
  };
  let copied = 0;
  let changed = false;
  NOTABLE.lastIndex = 0;
  for (let match = NOTABLE.exec(text); match !== null; match = NOTABLE.exec(text)) {
    const i = match.index;
    if (i < copied) continue;
    push(text.slice(copied, i), copied, i - copied, true);
    const undone = undoneAt(text, i, run);
    if (undone === undefined) {
      copied = i;
      continue;
    }
    changed = true;
    push(undone.value, i, undone.length, false);
    copied = i + undone.length;
    NOTABLE.lastIndex = copied;
  }
  if (!changed) return undefined;
  push(text.slice(copied), copied, text.length - copied, true);
  return { text: parts.join(''), stretches };
}

/** The stretch view character k belongs to. */
function stretchOf(view: View, k: number): Stretch {
  const { stretches } = view;
  let low = 0;
  let high = stretches.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (stretches[mid]!.view <= k) low = mid;
    else high = mid - 1;
  }
  return stretches[low]!;
}

/** Where a span of a view [start, end) stands in the original: from its first character's spelling to past its last one's. */
export function originalSpan(view: View | undefined, start: number, end: number): [number, number] {
  if (view === undefined) return [start, end];
  const first = stretchOf(view, start);
  const from = first.copy ? first.orig + start - first.view : first.orig;
  if (end <= start) return [from, from];
  const last = stretchOf(view, end - 1);
  return [from, last.copy ? last.orig + end - last.view : last.orig + last.width];
}

/** An encoded run of a text: where it stands, and the text it decodes to. */
export interface EncodedRun {
  start: number;
  end: number;
  decoded: string;
  form: 'base64-encoded' | 'hex-encoded';
}

const BASE64_RUN = /[A-Za-z0-9+/_-]{20,}={0,2}/g;
const HEX_ONLY = /^(?:[0-9a-fA-F]{2})+$/;
const PRINTABLE = /^[\t\n\r\x20-\x7e]*$/;
const UPPER = /[A-Z]/;
const LOWER = /[a-z]/;

/**
 * The base64 and hex runs of `text` that decode to printable ASCII. A base64 run must mix upper
 * and lower case (base64 of text always does; ids, paths and words in one case are left alone);
 * a run of hex digits is read as hex. Each run is decoded once: linear in the text.
 */
export function encodedRuns(text: string): EncodedRun[] {
  const runs: EncodedRun[] = [];
  BASE64_RUN.lastIndex = 0;
  for (let match = BASE64_RUN.exec(text); match !== null; match = BASE64_RUN.exec(text)) {
    const run = match[0];
    const start = match.index;
    const hex = HEX_ONLY.test(run) && run.length >= 32;
    if (!hex && !(UPPER.test(run) && LOWER.test(run))) continue;
    const decoded = Buffer.from(run, hex ? 'hex' : 'base64').toString('latin1');
    if (decoded.length < 8 || !PRINTABLE.test(decoded)) continue;
    runs.push({ start, end: start + run.length, decoded, form: hex ? 'hex-encoded' : 'base64-encoded' });
  }
  return runs;
}
