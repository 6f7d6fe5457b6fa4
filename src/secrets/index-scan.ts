/**
 * The secrets scan of lessons/index.json, a line at a time. The file holds one lesson a line
 * (index/build.ts), and every newline in it is JSON's own, between two values: no credential
 * spans one. So each line is scanned on its own, its raw text and the values it decodes to, and
 * a new version of the file rescans only the lines that differ from a version scanned before;
 * pure. A file not in that form is scanned whole, like any other JSON file.
 */
import { INDEX_HEAD, INDEX_TAIL } from '../index/build.js';
import { bytesAt, type IndexBytes, type IndexLines } from '../index/update.js';
import { INDEX_FILE } from '../io/repo.js';
import type { FileSecretMatch, IndexLineScan } from '../lesson/facts.js';
import { scanDecoded, scanText, type CompiledRule, type DecodedValue, type SecretMatch } from './rules.js';
import { parseJsonWithin } from '../util/json-depth.js';

/** What a scan of the index leaves for the next version: every line with a candidate match, and the lines that are not JSON objects. */
export interface IndexScan {
  lines: IndexLineScan[];
  unparsed: number[];
}

/** A version of the index scanned before, with its text. */
export interface ScannedIndex {
  text: string;
  scan: IndexScan;
}

function parsedJson(text: string): unknown {
  if (!/^[[{]/.test(text)) return undefined;
  try {
    return parseJsonWithin(text);
  } catch {
    return undefined;
  }
}

/** Raw text and, for JSON, the decoded string values (`\u0067` escapes hide nothing). */
export function scanFile(rel: string, bytes: Uint8Array, rules: readonly CompiledRule[]): SecretMatch[] {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const matches = scanText(rel, raw, rules, new Set());
  if (rel.endsWith('.json')) {
    // A line that holds a whole value is decoded on its own, so a match names its line; then
    // the whole document, for what spans lines.
    const values: DecodedValue[] = [];
    raw.split('\n').forEach((line, n) => {
      const value = parsedJson(line.trim().replace(/,$/, ''));
      if (value !== undefined && typeof value === 'object') values.push({ line: n + 1, value });
    });
    const whole = parsedJson(raw);
    if (whole !== undefined) values.push({ line: 1, value: whole });
    matches.push(...scanDecoded(rel, values, rules, matches));
  }
  return matches;
}

const HEAD = ['{', '  "lessons": ['];
const TAIL = ['  ]', '}', ''];

/** Whether the text is the index in its one-lesson-a-line form (its lines, split); undefined otherwise. */
function indexLines(text: string): string[] | undefined {
  const lines = text.split('\n');
  if (lines.length < HEAD.length + 1 + 1 + TAIL.length || lines[0] !== HEAD[0] || !/^ {2}"version": \d+,$/.test(lines[1]!) || lines[2] !== HEAD[1]) return undefined;
  if (lines.slice(-TAIL.length).some((line, i) => line !== TAIL[i])) return undefined;
  for (let n = 3; n < lines.length - TAIL.length; n++) if (!lines[n]!.startsWith('    {')) return undefined;
  return lines;
}

const local = ({ file: _file, ...match }: SecretMatch): FileSecretMatch => match;

/** One line's candidates, at line `line`: its raw matches, and those of the values it decodes to (before the file-wide dedup). */
function scanLine(text: string, line: number, rules: readonly CompiledRule[]): { scan: IndexLineScan | undefined; parsed: boolean } {
  const raw = scanText(INDEX_FILE, text, rules, new Set()).map((match) => ({ ...local(match), line }));
  const value = parsedJson(text.trim().replace(/,$/, ''));
  const parsed = value !== undefined && typeof value === 'object';
  const decoded = parsed ? scanDecoded(INDEX_FILE, [{ line, value }], rules, []).map(local) : [];
  return { scan: raw.length + decoded.length === 0 ? undefined : { line, raw, decoded }, parsed };
}

/** Candidates of a line that moved by `by` lines (a decoded value's match may stand below its key's line). */
const moved = (matches: readonly FileSecretMatch[], by: number): FileSecretMatch[] => matches.map((match) => ({ ...match, line: match.line + by }));

/** A line's identity for finding it in another version: its start (an entry's id and path); the whole text is compared. */
const lineKey = (line: string): string => line.slice(0, 200);

/**
 * The matches of the index text: a line equal to a line of `previous` (found by its start, then
 * compared whole) takes that line's candidates; every other line is scanned. The result is the
 * same whatever `previous` is. Also what the next version needs of this one; undefined for a
 * text not in the one-lesson-a-line form, which is scanned whole.
 */
export function scanIndexText(text: string, rules: readonly CompiledRule[], previous?: ScannedIndex): { matches: SecretMatch[]; scan?: IndexScan } {
  const lines = indexLines(text);
  if (lines === undefined) return { matches: scanFile(INDEX_FILE, Buffer.from(text), rules) };
  const before = previous && indexLines(previous.text);
  const known = new Map<string, number>();
  const candidates = new Map<number, IndexLineScan>();
  const unparsedBefore = new Set(previous?.scan.unparsed);
  if (before) {
    before.forEach((line, n) => known.set(lineKey(line), n));
    for (const scan of previous!.scan.lines) candidates.set(scan.line, scan);
  }
  const scan: IndexScan = { lines: [], unparsed: [] };
  const last = lines.length - TAIL.length - 1;
  let commas = true;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (n >= 3 && n <= last && line.endsWith(',') !== n < last) commas = false;
    const at = known.get(lineKey(line));
    if (at !== undefined && before![at] === line) {
      const reused = candidates.get(at + 1);
      if (reused) scan.lines.push({ line: n + 1, raw: moved(reused.raw, n - at), decoded: moved(reused.decoded, n - at) });
      if (n >= 3 && n <= last && unparsedBefore.has(at + 1)) scan.unparsed.push(n + 1);
      continue;
    }
    const fresh = scanLine(line, n + 1, rules);
    if (fresh.scan) scan.lines.push(fresh.scan);
    if (n >= 3 && n <= last && !fresh.parsed) scan.unparsed.push(n + 1);
  }
  return { matches: indexMatches(scan, rules, commas && scan.unparsed.length === 0 ? undefined : { document: parsedJson(text) }), scan };
}

/** Lines of the index's head and tail (INDEX_HEAD, INDEX_TAIL), around its entry lines. */
const HEAD_LINES = INDEX_HEAD.split('\n').length - 1;
const TAIL_LINES = INDEX_TAIL.split('\n').length - 1;

/**
 * The scan of an index that updateIndex() made from `before` (whose scan is at hand), with the
 * matches: a kept line takes its candidates from there, moved to its new line; a line built
 * again, and a kept line that gains or loses its comma (the last line before or after), is
 * scanned. What scanIndexText() gives for the new text, reading none of the kept lines.
 * Undefined when `before` held a line that did not parse (its matches then need the whole text).
 */
export function scanOfUpdate(before: { bytes: IndexBytes; scan: IndexScan }, lines: IndexLines, rules: readonly CompiledRule[]): { matches: SecretMatch[]; scan: IndexScan } | undefined {
  if (before.scan.unparsed.length > 0) return undefined;
  const candidates = new Map(before.scan.lines.map((line) => [line.line, line]));
  const scan: IndexScan = { lines: [], unparsed: [] };
  const carry = (from: number, to: number): void => {
    const reused = candidates.get(from);
    if (reused) scan.lines.push({ line: to, raw: moved(reused.raw, to - from), decoded: moved(reused.decoded, to - from) });
  };
  for (let line = 1; line <= HEAD_LINES; line++) carry(line, line);
  const { after } = lines;
  const last = lines.before.length - 1;
  after.forEach((origin, k) => {
    const line = HEAD_LINES + 1 + k;
    const lastNow = k === after.length - 1;
    if (typeof origin === 'number' && (origin === last) === lastNow) return carry(HEAD_LINES + 1 + origin, line);
    const bytes = typeof origin === 'number' ? bytesAt(before.bytes, lines.before.range(origin)) : origin;
    const fresh = scanLine(`${bytes.toString('utf8')}${lastNow ? '' : ','}`, line, rules);
    if (fresh.scan) scan.lines.push(fresh.scan);
    if (!fresh.parsed) scan.unparsed.push(line);
  });
  for (let t = 1; t <= TAIL_LINES; t++) carry(HEAD_LINES + lines.before.length + t, HEAD_LINES + after.length + t);
  if (scan.unparsed.length > 0) return undefined;
  return { matches: indexMatches(scan, rules), scan };
}

/**
 * The file's matches from its lines' candidates, as a scan of the whole file gives them: the raw
 * ones, then each decoded one not found before. The document decoded whole adds its own keys
 * only, when every lesson line parsed (and the rest of the document is the index's frame);
 * otherwise it is decoded (`whole`: the document, undefined when it does not parse).
 */
function indexMatches(scan: IndexScan, rules: readonly CompiledRule[], whole?: { document: unknown }): SecretMatch[] {
  const raw = scan.lines.flatMap((line) => line.raw).map((match) => ({ file: INDEX_FILE, ...match }));
  const seen = new Set(raw.map((match) => match.fingerprint));
  const matches: SecretMatch[] = [...raw];
  const add = (match: SecretMatch): void => {
    if (seen.has(match.fingerprint)) return;
    seen.add(match.fingerprint);
    matches.push(match);
  };
  for (const match of scan.lines.flatMap((line) => line.decoded)) add({ file: INDEX_FILE, ...match });
  if (whole === undefined) {
    for (const key of ['version', 'lessons']) for (const match of scanText(INDEX_FILE, key, rules, new Set())) add(match);
  } else if (whole.document !== undefined) {
    for (const match of scanDecoded(INDEX_FILE, [{ line: 1, value: whole.document }], rules, matches)) add(match);
  }
  return matches;
}
