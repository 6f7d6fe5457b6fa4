import { FILE_CACHE_DIR } from './file-cache.js';
import { readRecords, writeInRepo } from '../io/fs.js';
import { pathInside } from '../io/inside.js';
import { removeIfExists } from '../io/paths.js';
import { ensureStateDir } from '../io/state.js';
import type { LessonFileCache } from './worktree.js';
import type { FileSecretMatch } from '../lesson/facts.js';
import type { Finding } from '../lesson/finding.js';
import { fileStem } from '../lesson/load.js';
import type { Validation } from '../lint/rules.js';

/**
 * A tree's lint kept per file, so the next lint of a tree that differs in a few files costs in
 * proportion to them. The table (under the file cache: a base file, and a delta of the rows that
 * differ from it, so a run after a small change writes little) keeps, for each lesson file of
 * the last tree checked, what a check needs of it without its facts: its id, the ids it names,
 * whether it waits for review, its secret matches, and its lint findings with the ids its tree
 * rules looked up. The next run reads the facts of the files whose blob differs from the
 * table's, of the rows whose looked-up ids a changed file has or had, and of the lessons those
 * rules look up, and takes every other row as the table has it. With no table every file
 * differs, and the run is the whole one; the findings are the same either way (tests compare
 * them with lint over the whole tree). The guard's pre-commit check keeps one table of the
 * staged tree (its errors only), `lessons lint` one of the working tree.
 */

const TABLE_FORMAT = 2;

function tableFiles(slot: TableKey['slot']): { table: string; delta: string } {
  return { table: `${FILE_CACHE_DIR}/${slot}-table`, delta: `${FILE_CACHE_DIR}/${slot}-table.delta` };
}

/** The key of a table: what its rows were computed under. */
export function tableKey(cache: LessonFileCache, fields: Omit<TableKey, 'format' | 'cache'>): TableKey {
  return { format: TABLE_FORMAT, cache: cache.keyOf(), ...fields };
}

/** What a row's findings and matches were computed under: the file cache's key (code, schemas, policy), the day, the gates. */
export interface TableKey {
  format: number;
  /** Which table: the guard's (of the staged tree, or a pushed commit), lint's (of the working tree). */
  slot: 'staged' | 'lint';
  cache: string;
  /**
   * The day the rows' findings were computed for, when what they keep depends on it (lint's
   * `stale` warnings); null for the guard's, which keeps errors, and no error depends on the day.
   */
  today: string | null;
  schema: boolean;
  secrets: string | null;
  /** A digest of the sources' lessons the rules resolved `<source>:<id>` references against (lint), or null. */
  sources: string | null;
}

export interface Row {
  path: string;
  blob: string;
  /** '' when the file holds no lesson (it did not parse). */
  id: string;
  /** Whether the file holds a lesson (it parsed). */
  lesson: boolean;
  waits: boolean;
  names: string[];
  /** The ids the lesson's tree rules looked up. */
  deps: string[];
  /** The file's problems and the lesson's lint findings (file and tree rules) that the table keeps (the guard's: the errors). */
  findings: Finding[];
  secrets: FileSecretMatch[];
  /** The lesson's validation date and its line, in a table whose findings leave out what depends on the day (lint's: see RowLint.byDay). */
  validated: Validation | undefined;
  /** Whether the row has findings, or secret matches (without reading them, for a stored row). */
  mayHave(what: 'findings' | 'secrets'): boolean;
}

/** The names, deps, findings, secrets and validation of a stored row, each only when set (findings as lint made them: their JSON is lint's output). */
interface Extras {
  n?: string[];
  d?: string[];
  f?: Finding[];
  s?: FileSecretMatch[];
  v?: [date: string, line: number | null];
}

/** A row computed in this run. */
export function freshRow(fields: Omit<Row, 'mayHave'>): Row {
  return { ...fields, mayHave: (what) => fields[what].length > 0 };
}

/**
 * A row as read from the table: only its path and blob are cut from the line when the table is
 * read (100,000 rows at 100k lessons, most only compared by blob and counted); its flags are
 * checked then, and its id and JSON part are read when asked for.
 */
export class StoredRow implements Row {
  private extras: Extras | undefined;
  private rest: { id: string; json: string } | undefined;

  constructor(
    /** The row's line in the table: written back as it is. */
    readonly line: string,
    readonly path: string,
    readonly blob: string,
    /** WAITS and NO_LESSON. */
    private readonly flags: number,
    /** Where the flags field ends: the tab before the id, or the line's end. */
    private readonly flagsEnd: number,
    /** Read from the base file (not the delta). */
    readonly fromBase: boolean,
  ) {}

  private fields(): { id: string; json: string } {
    if (this.rest) return this.rest;
    const { line, flagsEnd } = this;
    if (flagsEnd >= line.length) return (this.rest = { id: '', json: '' });
    const jsonAt = line.indexOf('\t', flagsEnd + 1);
    const id = line.slice(flagsEnd + 1, jsonAt === -1 ? line.length : jsonAt);
    return (this.rest = { id, json: jsonAt === -1 ? '' : line.slice(jsonAt + 1) });
  }

  get lesson(): boolean {
    return (this.flags & NO_LESSON) === 0;
  }

  get waits(): boolean {
    return (this.flags & WAITS) !== 0;
  }

  get id(): string {
    return this.lesson ? this.fields().id || fileStem(this.path) : '';
  }

  private parsed(): Extras {
    if (this.extras) return this.extras;
    const { json } = this.fields();
    return (this.extras = json === '' ? {} : (JSON.parse(json) as Extras));
  }

  get names(): string[] {
    return this.parsed().n ?? [];
  }

  get deps(): string[] {
    return this.parsed().d ?? [];
  }

  get findings(): Finding[] {
    return this.parsed().f ?? [];
  }

  get secrets(): FileSecretMatch[] {
    return this.parsed().s ?? [];
  }

  get validated(): Validation | undefined {
    // Every lesson row of lint's table has one: read from its key alone, the rest of the JSON is not parsed (a quote inside a string is escaped, so the key is never part of one).
    const { json } = this.fields();
    const at = json.indexOf(VALIDATED_KEY);
    if (at === -1) return undefined;
    const [date, line] = JSON.parse(json.slice(at + VALIDATED_KEY.length - 1, json.indexOf(']', at) + 1)) as [string, number | null];
    return { date, line: line ?? undefined };
  }

  mayHave(what: 'findings' | 'secrets'): boolean {
    // The key as JSON writes it; a string that holds the same characters only costs a parse.
    return this.fields().json.includes(what === 'findings' ? '"f":' : '"s":');
  }
}

const VALIDATED_KEY = '"v":[';

const TAB = 9;
const W = 0x77;
const X = 0x78;
const WAITS = 1;
const NO_LESSON = 2;

/**
 * The table as stored: a JSON header line (`{"key":…,"digest":…}`, the digest of the tree's
 * path and blob pairs as treeDigest makes it), then a line per file in path order, its fields
 * separated by tabs: path, blob, flags (`w` when the lesson waits for review, `x` when the file
 * holds no lesson), the id when it is not the file's stem, and a JSON object of the rest
 * (Extras); empty fields at the end are left out. A tree with a path or id that holds a tab or a
 * line break is not kept.
 */
function sameKey(a: TableKey, b: unknown): boolean {
  if (typeof b !== 'object' || b === null) return false;
  const other = b as Record<string, unknown>;
  return (Object.keys(a) as (keyof TableKey)[]).every((name) => a[name] === other[name]);
}

export interface Table {
  rows: Map<string, Row>;
  /** The digest of the table's tree, when there is a table. */
  digest: string | undefined;
  /** The digest of the base file's tree (the delta applies to it), and its paths. */
  base: { digest: string; paths: Set<string> } | undefined;
}

const NO_TABLE: Table = { rows: new Map(), digest: undefined, base: undefined };

/** One row line of either file: path, blob and flags checked, the rest read when asked for. */
function parseRow(line: string, fromBase: boolean): StoredRow {
  const pathEnd = line.indexOf('\t');
  if (pathEnd <= 0) throw new Error('not a row');
  let blobEnd = line.indexOf('\t', pathEnd + 1);
  if (blobEnd === -1) blobEnd = line.length;
  if (blobEnd === pathEnd + 1) throw new Error('not a row');
  // Flags: nothing, `w`, `x` or `wx`, up to the next tab or the end.
  let at = Math.min(blobEnd + 1, line.length);
  let flags = 0;
  if (line.charCodeAt(at) === W) {
    flags |= WAITS;
    at += 1;
  }
  if (line.charCodeAt(at) === X) {
    flags |= NO_LESSON;
    at += 1;
  }
  if (at < line.length && line.charCodeAt(at) !== TAB) throw new Error('not a row');
  return new StoredRow(line, line.slice(0, pathEnd), line.slice(pathEnd + 1, blobEnd), flags, at, fromBase);
}

/** A file's lines after its header, when the header is of `key` (and names `base` for a delta). */
function tableLines(root: string, file: string, key: TableKey): { header: Record<string, unknown>; lines: string[] } | undefined {
  const lines = readRecords(pathInside(root, file), '\n');
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  // A file that ends in a newline splits into an empty last record.
  if (!sameKey(key, header.key) || typeof header.digest !== 'string' || lines.length < 2 || lines.pop() !== '') return undefined;
  lines.shift();
  return { header, lines };
}

/**
 * The rows of the last staged tree checked under `key`: the base file's, with the delta's on top
 * when the delta is of that base; none when there is no table, it has another key, or it does
 * not parse.
 */
export function readTable(root: string, key: TableKey): Table {
  const { table: TABLE_FILE, delta: DELTA_FILE } = tableFiles(key.slot);
  try {
    const base = tableLines(root, TABLE_FILE, key);
    if (base === undefined) return NO_TABLE;
    const rows = new Map<string, Row>();
    for (const line of base.lines) {
      const row = parseRow(line, true);
      rows.set(row.path, row);
    }
    const baseDigest = base.header.digest as string;
    const table: Table = { rows, digest: baseDigest, base: { digest: baseDigest, paths: new Set(rows.keys()) } };
    let delta: ReturnType<typeof tableLines>;
    try {
      delta = tableLines(root, DELTA_FILE, key);
    } catch {
      delta = undefined;
    }
    if (delta === undefined || delta.header.base !== baseDigest) return table;
    // A line without a tab is a path the tree no longer has.
    for (const line of delta.lines) {
      if (!line.includes('\t')) rows.delete(line);
      else {
        const row = parseRow(line, false);
        rows.set(row.path, row);
      }
    }
    return { ...table, digest: delta.header.digest as string };
  } catch {
    return NO_TABLE;
  }
}

/** A row's line in the table. */
function rowLine(row: Row): string {
  if (row instanceof StoredRow) return row.line;
  const extras: Extras = {};
  if (row.names.length > 0) extras.n = row.names;
  if (row.deps.length > 0) extras.d = row.deps;
  if (row.mayHave('findings') && row.findings.length > 0) extras.f = row.findings;
  if (row.mayHave('secrets') && row.secrets.length > 0) extras.s = row.secrets;
  if (row.validated) extras.v = [row.validated.date, row.validated.line ?? null];
  const flags = `${row.waits ? 'w' : ''}${row.lesson ? '' : 'x'}`;
  const fields = [row.path, row.blob, flags, !row.lesson || row.id === fileStem(row.path) ? '' : row.id, Object.keys(extras).length === 0 ? '' : JSON.stringify(extras)];
  while (fields.length > 2 && fields.at(-1) === '') fields.pop();
  return fields.join('\t');
}

/** How many rows a delta may hold (at least; or a fiftieth of the tree) before the base is written again whole. */
const DELTA_MIN = 16;

/**
 * Writes the table of `rows` (in path order): as a delta over the base file when the rows that
 * differ from it are few (a commit's worth), else as a new base. Never throws: a table that cannot
 * be written costs the next check its time only.
 */
export function writeTable(root: string, key: TableKey, digest: string, rows: readonly Row[], table: Table): void {
  const { table: TABLE_FILE, delta: DELTA_FILE } = tableFiles(key.slot);
  if (rows.some((row) => /[\t\n]/.test(row.path) || /[\t\n]/.test(row.id))) return;
  try {
    pathInside(root, TABLE_FILE);
    ensureStateDir(root);
    const base = table.base;
    if (base !== undefined) {
      const delta = rows.filter((row) => !(row instanceof StoredRow && row.fromBase)).map(rowLine);
      const present = new Set(rows.map((row) => row.path));
      for (const path of base.paths) if (!present.has(path)) delta.push(path);
      if (delta.length <= Math.max(DELTA_MIN, rows.length / 50)) {
        writeInRepo(root, DELTA_FILE, `${[JSON.stringify({ key, base: base.digest, digest }), ...delta].join('\n')}\n`, { durable: false });
        return;
      }
    }
    writeInRepo(root, TABLE_FILE, `${[JSON.stringify({ key, digest }), ...rows.map(rowLine)].join('\n')}\n`, { durable: false });
    removeIfExists(pathInside(root, DELTA_FILE));
  } catch {
    // Not writable: the next check reads every file.
  }
}
