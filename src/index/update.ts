import type { LoadedLesson } from '../lesson/load.js';
import { compareStrings } from '../util/compare.js';
import type { Chunks } from '../util/digest.js';
import { ENTRY_SEPARATOR, INDEX_HEAD, INDEX_TAIL, entryLine, entryOf, sourcesOf, type IndexEntry } from './build.js';
import type { IndexDiff } from './diff.js';

/** What changed in the tree since the index was built: the files whose entries go, and the lessons of the files that are new or changed. */
export interface IndexChange {
  removed: ReadonlySet<string>;
  added: readonly LoadedLesson[];
}

const FROM_KEY = Buffer.from('"promoted_from":[');
const INTO_KEY = Buffer.from(',"promoted_into":[');
const CLOSE = ']'.charCodeAt(0);

/**
 * The `promoted_from` of the entry line `line[from, to)`; undefined when it has none. An entry's
 * last two keys are `promoted_from` and `promoted_into`, and a quote inside a JSON string is
 * always escaped, so the keys are found from the line's end.
 */
function promotedFrom(line: Buffer, from: number, to: number): string[] | undefined {
  const key = line.lastIndexOf(FROM_KEY, to - FROM_KEY.length);
  if (key < from) return undefined;
  if (line[key + FROM_KEY.length] === CLOSE) return [];
  const into = line.lastIndexOf(INTO_KEY, to - INTO_KEY.length);
  if (into < key) return undefined;
  try {
    const sources = JSON.parse(line.toString('utf8', key + FROM_KEY.length - 1, into)) as unknown;
    return Array.isArray(sources) && sources.every((source) => typeof source === 'string') ? sources : undefined;
  } catch {
    return undefined;
  }
}

export type Range = [start: number, end: number];

/** Byte ranges of lines, in order. */
export interface LineRanges {
  readonly length: number;
  range(n: number): Range;
}

/** Where each entry line of an updated index came from (what a scan of the index before it can carry over). */
export interface IndexLines {
  /** The entry lines of the index before, as byte ranges of it, in order. */
  before: LineRanges;
  /** The updated index's entry lines, in order: the number of a line of `before` kept as it is, or the bytes of a line built again. */
  after: readonly (number | Buffer)[];
}

const HEAD = Buffer.from(INDEX_HEAD);
const TAIL = Buffer.from(INDEX_TAIL);
const SEPARATOR = Buffer.from(ENTRY_SEPARATOR);
const NEWLINE = 0x0a;
const COMMA = 0x2c;

/**
 * An index's bytes, read a window at a time: an index in memory, or an open file read through
 * one reused buffer (an index of 100,000 lessons is 110 MB; reading it into a fresh buffer costs
 * its pages, streaming it through one costs a tenth of that).
 */
export interface IndexBytes {
  readonly length: number;
  /** The most bytes window() gives at once. */
  readonly windowSize: number;
  /** The bytes [start, end), at most windowSize of them: valid until the next call. */
  window(start: number, end: number): Buffer;
}

/** How many bytes an index is read at a time. */
export const WINDOW = 1 << 20;

export function bytesInMemory(bytes: Buffer, windowSize = WINDOW): IndexBytes {
  return { length: bytes.length, windowSize, window: (start, end) => bytes.subarray(start, end) };
}

/** The bytes [start, end) of an index, copied out of its windows. */
export function bytesAt(bytes: IndexBytes, [start, end]: Range): Buffer {
  const copy = Buffer.allocUnsafe(end - start);
  for (let at = start; at < end; at += bytes.windowSize) bytes.window(at, Math.min(end, at + bytes.windowSize)).copy(copy, at - start);
  return copy;
}

/**
 * The index's entry lines: where each is, where its id ends and where its path (a JSON string,
 * quotes and all) is, the lines of the paths asked for, and the non-empty `promoted_from` lists
 * by line. Ids and paths are decoded only when asked for (idAt, pathAt): an index of 100,000
 * lessons has 200,000 of them, an update needs a few dozen. Offsets are kept in arrays of
 * numbers, not an object per line: a scan makes no garbage for the lines it only passes.
 */
class EntryLines implements LineRanges {
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly idEnds: number[] = [];
  /** Where the value of each line's `after` (`null` or `"<id>"`) starts and ends. */
  readonly afterStarts: number[] = [];
  readonly afterEnds: number[] = [];
  readonly pathStarts: number[] = [];
  readonly pathEnds: number[] = [];
  /** The line of each path asked for that the index has. */
  readonly found = new Map<string, number>();
  readonly from = new Map<number, string[]>();

  get length(): number {
    return this.starts.length;
  }

  range(n: number): Range {
    return [this.starts[n]!, this.ends[n]!];
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ID_START = Buffer.from('    {"id":"');
const AFTER_KEY = Buffer.from('","after":');
const AFTER_NONE = Buffer.from('null');
const PATH_KEY = Buffer.from(',"path":"');

/** The id of entry line `n` (an id is kebab-case: its bytes are the id). */
function entryId(bytes: IndexBytes, lines: EntryLines, n: number): string {
  return bytesAt(bytes, [lines.starts[n]! + ID_START.length, lines.idEnds[n]!]).toString('utf8');
}

/** Whether `buffer[at, to)` starts with `prefix`. */
function startsWith(buffer: Buffer, prefix: Buffer, at: number, to: number): boolean {
  return at + prefix.length <= to && buffer.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;
}

/** Where the JSON string whose opening quote is at `start` ends (after its closing quote), before `end`; -1 when it does not. */
function stringEnd(line: Buffer, start: number, end: number): number {
  for (let quote = line.indexOf(QUOTE, start + 1); quote !== -1 && quote < end; quote = line.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (line[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return -1;
}

/**
 * The entry lines of an index as serializeIndex writes it (at least one entry), read a window at
 * a time, and the lines of `paths`; undefined for any other bytes. A newline inside an entry is
 * escaped, so every one between the head and the tail ends a separator.
 */
function entryLines(bytes: IndexBytes, paths: ReadonlySet<string>): EntryLines | undefined {
  if (bytes.length <= HEAD.length + TAIL.length) return undefined;
  if (!bytesAt(bytes, [0, HEAD.length]).equals(HEAD) || !bytesAt(bytes, [bytes.length - TAIL.length, bytes.length]).equals(TAIL)) return undefined;
  const found = new EntryLines();
  // The paths asked for as the index writes them, by their length.
  const wanted = new Map<number, { path: string; bytes: Buffer }[]>();
  for (const path of paths) {
    const written = Buffer.from(JSON.stringify(path));
    wanted.set(written.length, [...(wanted.get(written.length) ?? []), { path, bytes: written }]);
  }
  /** The line `buffer[from, to)` (its separator's comma left out), which starts at `start` of the index. */
  const add = (buffer: Buffer, from: number, to: number, start: number): boolean => {
    // `    {"id":"<id>","after":<null or "<id>">,"path":"<path>",…`: an id is kebab-case, with nothing to escape.
    if (to - from < ID_START.length + AFTER_KEY.length || buffer.compare(ID_START, 0, ID_START.length, from, from + ID_START.length) !== 0) return false;
    const idEnd = buffer.indexOf(QUOTE, from + ID_START.length);
    if (idEnd === -1 || !startsWith(buffer, AFTER_KEY, idEnd, to)) return false;
    const afterStart = idEnd + AFTER_KEY.length;
    const afterEnd = startsWith(buffer, AFTER_NONE, afterStart, to) ? afterStart + AFTER_NONE.length : buffer[afterStart] === QUOTE ? buffer.indexOf(QUOTE, afterStart + 1) + 1 : 0;
    if (afterEnd <= afterStart || !startsWith(buffer, PATH_KEY, afterEnd, to)) return false;
    const pathStart = afterEnd + PATH_KEY.length - 1;
    const pathEnd = stringEnd(buffer, pathStart, to);
    const sources = promotedFrom(buffer, from, to);
    if (pathEnd === -1 || sources === undefined) return false;
    const n = found.starts.length;
    for (const { path, bytes: written } of wanted.get(pathEnd - pathStart) ?? []) if (buffer.compare(written, 0, written.length, pathStart, pathEnd) === 0) found.found.set(path, n);
    if (sources.length > 0) found.from.set(n, sources);
    const shift = start - from;
    found.starts.push(start);
    found.ends.push(to + shift);
    found.idEnds.push(idEnd + shift);
    found.afterStarts.push(afterStart + shift);
    found.afterEnds.push(afterEnd + shift);
    found.pathStarts.push(pathStart + shift);
    found.pathEnds.push(pathEnd + shift);
    return true;
  };
  const end = bytes.length - TAIL.length;
  // The start of the line being read, and its bytes so far when it began in an earlier window (a copy: windows are reused).
  let lineStart = HEAD.length;
  let carried: Buffer | undefined;
  for (let at = HEAD.length; at < end; at += bytes.windowSize) {
    const piece = bytes.window(at, Math.min(end, at + bytes.windowSize));
    let from = 0;
    for (let newline = piece.indexOf(NEWLINE); newline !== -1; newline = piece.indexOf(NEWLINE, from)) {
      if (carried) {
        const line = Buffer.concat([carried, piece.subarray(from, newline)]);
        if (line[line.length - 1] !== COMMA || !add(line, 0, line.length - 1, lineStart)) return undefined;
        carried = undefined;
      } else if (piece[newline - 1] !== COMMA || newline === from || !add(piece, from, newline - 1, lineStart)) return undefined;
      lineStart = at + newline + 1;
      from = newline + 1;
    }
    carried = carried ? Buffer.concat([carried, piece.subarray(from)]) : Buffer.from(piece.subarray(from));
  }
  const last = carried ?? Buffer.alloc(0);
  return add(last, 0, last.length, lineStart) ? found : undefined;
}

/** Pieces of an index to be written: parts of the previous index's bytes, and new bytes. */
class IndexPieces implements Iterable<Uint8Array> {
  constructor(
    private readonly parts: readonly (Range | Buffer)[],
    private readonly previous: IndexBytes,
    readonly byteLength: number,
  ) {}

  *[Symbol.iterator](): Iterator<Uint8Array> {
    for (const part of this.parts) {
      if (Buffer.isBuffer(part)) yield part;
      else for (let at = part[0]; at < part[1]; at += this.previous.windowSize) yield this.previous.window(at, Math.min(part[1], at + this.previous.windowSize));
    }
  }
}

/**
 * The index after a change, from the index of the tree before it (`previous`, as serializeIndex
 * wrote it for a tree that had nothing to stop it): the entries of the changed lessons, and of
 * the lessons whose sources they join or leave (`promoted_into`), are built again; a line
 * whose neighbour before it came or went gets its `after` written again; every other line is
 * kept as it is. The same bytes as building the whole index of the changed tree, given
 * as pieces that read the kept lines from `previous` as they are taken (so `previous` must stay
 * readable while they are used). `lessonAt` gives an unchanged lesson by its path. Undefined
 * when the change is not one this can apply (ids that would clash, an index left empty, a
 * lesson not at hand): the caller then builds the whole index, and reports what stops it.
 */
export function updateIndex(
  previous: IndexBytes,
  change: IndexChange,
  lessonAt: (path: string) => LoadedLesson | undefined,
): { chunks: Chunks; count: number; lines: IndexLines; touched: string[] } | undefined {
  const scanned = entryLines(previous, change.removed);
  if (scanned === undefined) return undefined;
  const lines = scanned;
  const idAt = (n: number): string => entryId(previous, scanned, n);
  const pathAt = (n: number): string => JSON.parse(bytesAt(previous, [scanned.pathStarts[n]!, scanned.pathEnds[n]!]).toString('utf8')) as string;
  /** The first line whose id is not before `id`. */
  const seek = (id: string): number => {
    let low = 0;
    let high = lines.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareStrings(idAt(middle), id) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const findId = (id: string): number | undefined => {
    const n = seek(id);
    return n < lines.length && idAt(n) === id ? n : undefined;
  };
  const fromOf = (n: number): readonly string[] => scanned.from.get(n) ?? [];
  const gone = new Set<number>();
  for (const path of change.removed) {
    const n = scanned.found.get(path);
    if (n === undefined) return undefined;
    gone.add(n);
  }
  const addedIds = new Set<string>();
  for (const { lesson } of change.added) {
    const at = findId(lesson.id);
    if (lesson.id === '' || addedIds.has(lesson.id) || (at !== undefined && !gone.has(at))) return undefined;
    addedIds.add(lesson.id);
  }
  // The lessons whose promoted_into may change: the new ones, and every source a changed lesson names or named.
  const targets = new Set(addedIds);
  for (const n of gone) for (const source of fromOf(n)) targets.add(source);
  for (const { lesson } of change.added) for (const source of sourcesOf(lesson)) targets.add(source);
  const referrers = new Map<string, string[]>();
  const refer = (source: string, id: () => string): void => {
    if (targets.has(source)) referrers.set(source, [...(referrers.get(source) ?? []), id()]);
  };
  for (const [n, sources] of scanned.from) if (!gone.has(n)) for (const source of sources) refer(source, () => idAt(n));
  for (const { lesson } of change.added) for (const source of sourcesOf(lesson)) refer(source, () => lesson.id);
  const rebuilt = new Map<number, IndexEntry>();
  for (const target of targets) {
    const n = addedIds.has(target) ? undefined : findId(target);
    if (n === undefined || gone.has(n)) continue;
    const item = lessonAt(pathAt(n));
    if (item?.lesson.id !== target) return undefined;
    rebuilt.set(n, entryOf(item, referrers.get(target) ?? []));
  }
  // Each new line goes before the first kept line whose id is after its own (none is its own: that line is gone).
  const fresh = change.added
    .map((item) => ({ id: item.lesson.id, at: seek(item.lesson.id), entry: entryOf(item, referrers.get(item.lesson.id) ?? []) }))
    .sort((a, b) => compareStrings(a.id, b.id));
  const parts: (Range | Buffer)[] = [HEAD];
  const after: (number | Buffer)[] = [];
  let count = 0;
  // Kept lines that follow each other in `previous` go out as one piece, separators and all.
  let run: Range | undefined;
  const flush = (): void => {
    if (run) parts.push(run);
    run = undefined;
  };
  const keep = (n: number): void => {
    const start = lines.starts[n]!;
    const end = lines.ends[n]!;
    after.push(n);
    if (run && count > 0 && run[1] + SEPARATOR.length === start) run[1] = end;
    else {
      flush();
      if (count > 0) parts.push(SEPARATOR);
      run = [start, end];
    }
    count++;
  };
  const push = (line: Buffer): void => {
    after.push(line);
    flush();
    if (count++ > 0) parts.push(SEPARATOR);
    parts.push(line);
  };
  // The line written last: a line of `previous` (kept, or built again: its id is the same) by its number, a new line by its id, null before the first.
  let last: number | string | null = null;
  const afterNow = (): string | null => (typeof last === 'number' ? idAt(last) : last);
  // Kept lines whose neighbour before them changed: their `after` is written again, the rest of the line kept.
  const relinked: number[] = [];
  const sameAfter = (n: number, after: string | null): boolean => bytesAt(previous, [lines.afterStarts[n]!, lines.afterEnds[n]!]).toString('utf8') === JSON.stringify(after);
  const relink = (n: number, after: string | null): Buffer =>
    Buffer.concat([bytesAt(previous, [lines.starts[n]!, lines.afterStarts[n]!]), Buffer.from(JSON.stringify(after)), bytesAt(previous, [lines.afterEnds[n]!, lines.ends[n]!])]);
  let next = 0;
  const pushFresh = (until: number): void => {
    for (; next < fresh.length && fresh[next]!.at <= until; next++) {
      push(Buffer.from(entryLine(fresh[next]!.entry, afterNow())));
      last = fresh[next]!.id;
    }
  };
  for (let n = 0; n < lines.length; n++) {
    if (gone.has(n)) continue;
    pushFresh(n);
    const again = rebuilt.get(n);
    if (again) push(Buffer.from(entryLine(again, afterNow())));
    else if (last === (n === 0 ? null : n - 1)) keep(n);
    else {
      const after = afterNow();
      if (sameAfter(n, after)) keep(n);
      else {
        relinked.push(n);
        push(relink(n, after));
      }
    }
    last = n;
  }
  pushFresh(Infinity);
  flush();
  parts.push(TAIL);
  if (count === 0) return undefined;
  const length = parts.reduce((sum, part) => sum + (Buffer.isBuffer(part) ? part.length : part[1] - part[0]), 0);
  // Not joined into one buffer: at 100,000 lessons that is 110 MB to allocate and copy, written and hashed piece by piece as well.
  // The entries that may differ from `previous`, by id: lines dropped, built again, relinked or new (every other line is kept byte for byte).
  const touched = [...[...gone, ...rebuilt.keys(), ...relinked].map(idAt), ...fresh.map((item) => item.id)];
  return { chunks: new IndexPieces(parts, previous, length), count, lines: { before: lines, after }, touched };
}

/**
 * Which entries differ between two indexes as serializeIndex writes them, line by line, as
 * diffIndexes says it of their parsed entries (a line whose bytes differ is parsed to tell a
 * change from formatting): no index is parsed whole. Undefined for bytes not in that layout,
 * or with an id twice; the caller then parses both.
 */
export function indexLineDiff(before: Buffer, after: Buffer): IndexDiff | undefined {
  const [beforeBytes, afterBytes] = [bytesInMemory(before), bytesInMemory(after)];
  const beforeLines = entryLines(beforeBytes, new Set());
  const afterLines = entryLines(afterBytes, new Set());
  if (beforeLines === undefined || afterLines === undefined) return undefined;
  const byId = new Map<string, Range>();
  for (let n = 0; n < beforeLines.length; n++) {
    const id = entryId(beforeBytes, beforeLines, n);
    if (byId.has(id)) return undefined;
    byId.set(id, beforeLines.range(n));
  }
  const diff: IndexDiff = { added: [], removed: [], changed: [] };
  const seen = new Set<string>();
  // An entry's neighbour (`after`) is where it is written, not what it says of its lesson.
  const entryAt = (bytes: Buffer, [start, end]: Range): string => JSON.stringify({ ...(JSON.parse(bytes.toString('utf8', start, end)) as object), after: undefined });
  for (let n = 0; n < afterLines.length; n++) {
    const line = afterLines.range(n);
    const id = entryId(afterBytes, afterLines, n);
    if (seen.has(id)) return undefined;
    seen.add(id);
    const old = byId.get(id);
    if (old === undefined) diff.added.push(id);
    else if (before.compare(after, line[0], line[1], old[0], old[1]) !== 0 && entryAt(before, old) !== entryAt(after, line)) diff.changed.push(id);
  }
  for (const id of byId.keys()) if (!seen.has(id)) diff.removed.push(id);
  return { added: diff.added.sort(compareStrings), removed: diff.removed.sort(compareStrings), changed: diff.changed.sort(compareStrings) };
}
