import fs from 'node:fs';
import { FILE_CACHE_DIR } from '../io/file-cache.js';
import { readRegularFile, writeInRepo } from '../io/fs.js';
import { pathInside } from '../io/inside.js';
import { ensureStateDir } from '../io/state.js';
import { treeDigest, type LessonFileCache } from '../lesson/cached-load.js';
import { addFacts, lessonFromFacts, type FactsWanted, type FileSecretMatch, type LessonFacts } from '../lesson/facts.js';
import { fileStem, type LoadedLesson, type LoadedTree } from '../lesson/load.js';
import type { Lesson } from '../lesson/model.js';
import { namedIds, transitionFindings, type LessonAt } from '../lifecycle/transitions.js';
import type { Finding } from '../lint/finding.js';
import { compareStrings, sortStrings } from '../util/compare.js';
import { lessonFindings, lintResult, treeFindings, waitsForReview } from '../lint/lint.js';
import type { LintContext } from '../lint/rules.js';
import type { Policy } from '../policy/policy.js';
import type { SchemaError } from '../schema/validate.js';
import type { LessonSecrets } from './secrets-scan.js';
import { lessonPathLevel, loadFacts, type GitSide, type LessonFileRef, type Listed, type ReadFiles, type Snapshot } from './snapshot.js';

/**
 * The staged tree checked in proportion to the change. The guard's table (under the file cache:
 * a base file, and a delta of the rows that differ from it, so a commit's check writes little) keeps, for each lesson file of the last staged tree checked, what the gates need of
 * it without its facts: its id, the ids it names, whether it waits for review, its secret
 * matches, and its lint findings with the ids its tree rules looked up. The next check reads
 * the facts of the files whose blob differs from the table's, of the rows whose looked-up ids
 * a changed file has or had, and of the lessons those rules and the promotion rules look up,
 * and takes every other row as the table has it. With no table every file differs, and the
 * check is the whole one; the result is the same either way (a test compares them).
 */

const TABLE_FILE = `${FILE_CACHE_DIR}/staged-table`;
/** The rows that differ from the base file's, and a line with only the path for each the tree no longer has. */
const DELTA_FILE = `${FILE_CACHE_DIR}/staged-table.delta`;
const TABLE_FORMAT = 1;

/** What a row's findings and matches were computed under: the file cache's key (code, schemas, policy), the day, the gates. */
interface TableKey {
  format: number;
  cache: string;
  today: string;
  schema: boolean;
  secrets: string | null;
}

interface Row {
  path: string;
  blob: string;
  /** '' when the file holds no lesson (it did not parse). */
  id: string;
  waits: boolean;
  names: string[];
  /** The ids the lesson's tree rules looked up. */
  deps: string[];
  /** The file's problems and the lesson's lint findings (file and tree rules) that are errors: all the schema gate reads. */
  findings: Finding[];
  secrets: FileSecretMatch[];
  /** Whether the row has findings, or secret matches (without reading them, for a stored row). */
  mayHave(what: 'findings' | 'secrets'): boolean;
}

/** The names, deps, findings and secrets of a stored row, each only when set (a finding without its file when that is the row's). */
interface Extras {
  n?: string[];
  d?: string[];
  f?: Omit<Finding, 'file'>[] | Finding[];
  s?: FileSecretMatch[];
}

/** A row computed in this run. */
function freshRow(fields: Omit<Row, 'mayHave'>): Row {
  return { ...fields, mayHave: (what) => fields[what].length > 0 };
}

/**
 * A row as read from the table: its JSON part is parsed only when one of its fields is asked
 * for (most rows are only compared by blob and counted).
 */
class StoredRow implements Row {
  private extras: Extras | undefined;

  constructor(
    readonly path: string,
    readonly blob: string,
    readonly id: string,
    readonly waits: boolean,
    private readonly json: string,
    /** The row's line in the table: written back as it is. */
    readonly line: string,
    /** Read from the base file (not the delta). */
    readonly fromBase: boolean,
  ) {}

  private parsed(): Extras {
    return (this.extras ??= this.json === '' ? {} : (JSON.parse(this.json) as Extras));
  }

  get names(): string[] {
    return this.parsed().n ?? [];
  }

  get deps(): string[] {
    return this.parsed().d ?? [];
  }

  get findings(): Finding[] {
    return (this.parsed().f ?? []).map((finding) => ({ ...finding, file: (finding as Finding).file ?? this.path }));
  }

  get secrets(): FileSecretMatch[] {
    return this.parsed().s ?? [];
  }

  mayHave(what: 'findings' | 'secrets'): boolean {
    // The key as JSON writes it; a string that holds the same characters only costs a parse.
    return this.json.includes(what === 'findings' ? '"f":' : '"s":');
  }
}

/**
 * The table as stored: a JSON header line (`{"key":…,"digest":…}`, the digest of the tree's
 * path and blob pairs as treeDigest makes it), then a line per file in path order, its fields
 * separated by tabs: path, blob, `w` when the lesson waits for review, the id when it is not the
 * file's stem, and a JSON object of the rest (Extras); empty fields at the end are left out. A
 * tree with a path or id that holds a tab or a line break is not kept.
 */
function sameKey(a: TableKey, b: unknown): boolean {
  if (typeof b !== 'object' || b === null) return false;
  const other = b as Record<string, unknown>;
  return (Object.keys(a) as (keyof TableKey)[]).every((name) => a[name] === other[name]);
}

interface Table {
  rows: Map<string, Row>;
  /** The digest of the table's tree, when there is a table. */
  digest: string | undefined;
  /** The digest of the base file's tree (the delta applies to it), and its paths. */
  base: { digest: string; paths: Set<string> } | undefined;
}

const NO_TABLE: Table = { rows: new Map(), digest: undefined, base: undefined };

/** One row line of either file. */
function parseRow(line: string, fromBase: boolean): StoredRow {
  const [path, blob, flags, id, json] = line.split('\t');
  if (!path || !blob || (flags !== undefined && flags !== '' && flags !== 'w')) throw new Error('not a row');
  return new StoredRow(path, blob, id || fileStem(path), flags === 'w', json ?? '', line, fromBase);
}

/** A file's lines after its header, when the header is of `key` (and names `base` for a delta). */
function tableLines(root: string, file: string, key: TableKey): { header: Record<string, unknown>; lines: string[] } | undefined {
  const lines = readRegularFile(pathInside(root, file)).toString('utf8').split('\n');
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  if (!sameKey(key, header.key) || typeof header.digest !== 'string' || lines.at(-1) !== '') return undefined;
  return { header, lines: lines.slice(1, -1) };
}

/**
 * The rows of the last staged tree checked under `key`: the base file's, with the delta's on top
 * when the delta is of that base; none when there is no table, it has another key, or it does
 * not parse.
 */
function readTable(root: string, key: TableKey): Table {
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
  if (row.mayHave('findings') && row.findings.length > 0) extras.f = row.findings.map(({ file, ...rest }) => (file === row.path ? rest : { file, ...rest }));
  if (row.mayHave('secrets') && row.secrets.length > 0) extras.s = row.secrets;
  const fields = [row.path, row.blob, row.waits ? 'w' : '', row.id === fileStem(row.path) ? '' : row.id, Object.keys(extras).length === 0 ? '' : JSON.stringify(extras)];
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
function writeTable(root: string, key: TableKey, digest: string, rows: readonly Row[], table: Table): void {
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
    fs.rmSync(pathInside(root, DELTA_FILE), { force: true });
  } catch {
    // Not writable: the next check reads every file.
  }
}

/** The facts of one side's lesson files, read on demand. */
class SideFacts {
  readonly facts = new Map<string, LessonFacts>();
  private byPathMap: Map<string, Listed> | undefined;

  constructor(
    /** The side's lesson files in path order, listed when first asked for. */
    private readonly listItems: () => Listed[],
    private readonly read: ReadFiles,
    private readonly cache: LessonFileCache,
    private readonly wanted: FactsWanted,
  ) {}

  private listed: Listed[] | undefined;

  get items(): Listed[] {
    return (this.listed ??= this.listItems());
  }

  get byPath(): Map<string, Listed> {
    return (this.byPathMap ??= new Map(this.items.map((item) => [item.path, item])));
  }

  async load(paths: Iterable<string>): Promise<void> {
    const items = [...new Set(paths)].filter((path) => !this.facts.has(path)).map((path) => this.byPath.get(path)!);
    if (items.length === 0) return;
    for (const [path, facts] of await loadFacts(items, this.read, this.cache, this.wanted)) this.facts.set(path, facts);
  }

  lesson(path: string): LoadedLesson | undefined {
    const facts = this.facts.get(path);
    return facts && lessonFromFacts(path, facts);
  }

  /** The side as the gates that read a whole tree see it (every file's facts must be loaded first). */
  snapshot(rest: Omit<Snapshot, 'tree' | 'lessonFiles'>): Snapshot {
    let built: { tree: LoadedTree; lessonFiles: LessonFileRef[] } | undefined;
    const whole = (): NonNullable<typeof built> => {
      if (built) return built;
      const tree: LoadedTree = { lessons: [], problems: [] };
      const lessonFiles: LessonFileRef[] = [];
      for (const item of this.items) {
        const facts = this.facts.get(item.path);
        if (facts === undefined) throw new Error(`${item.path}: the tree was read without this file's facts`);
        lessonFiles.push({ path: item.path, blob: item.blob, facts });
        addFacts(tree, item.path, facts);
      }
      built = { tree, lessonFiles };
      return built;
    };
    return {
      ...rest,
      get tree() {
        return whole().tree;
      },
      get lessonFiles() {
        return whole().lessonFiles;
      },
    };
  }
}

/** The lessons by id, as the lint rules read them, recording each id asked for and each lesson not loaded yet. */
class TrackedLessons extends Map<string, LoadedLesson[]> {
  readonly deps = new Set<string>();

  constructor(
    private readonly paths: ReadonlyMap<string, string[]>,
    private readonly side: SideFacts,
    private readonly misses: Set<string>,
  ) {
    super();
  }

  override get(id: string): LoadedLesson[] | undefined {
    this.deps.add(id);
    const paths = this.paths.get(id);
    if (paths === undefined) return undefined;
    const lessons: LoadedLesson[] = [];
    for (const path of paths) {
      const lesson = this.side.lesson(path);
      if (lesson) lessons.push(lesson);
      else this.misses.add(path);
    }
    return lessons;
  }
}

/** Runs `compute` until it asked for no lesson that was not loaded, loading the ones it asked for between runs. */
async function untilLoaded<T>(side: SideFacts, compute: (misses: Set<string>) => T): Promise<T> {
  for (;;) {
    const misses = new Set<string>();
    const result = compute(misses);
    if (misses.size === 0) return result;
    await side.load(misses);
  }
}

/** HEAD as the staged tree's base: the lesson files whose blob differs from the staged ones. */
export interface BaseDelta {
  /** The commit, or `empty` before the first. */
  side: Omit<Snapshot, 'tree' | 'lessonFiles'>;
  /** Each lesson path (lessons-root-relative) whose blob differs between HEAD and the index: HEAD's blob, undefined where HEAD has none. */
  changes: ReadonlyMap<string, string | undefined>;
  /** Reads blobs by id. */
  readBlobs: (blobs: readonly string[]) => Promise<Map<string, Uint8Array>>;
}

/** The guard's table, read (so that it can be read while git lists the trees) under the key of this check's settings. */
export interface OpenTable {
  key: TableKey;
  table: Table;
}

export function openTable(root: string, cache: LessonFileCache, today: string, schema: boolean, wanted: FactsWanted): OpenTable {
  const key: TableKey = { format: TABLE_FORMAT, cache: cache.keyOf(), today, schema, secrets: wanted.secrets?.digest ?? null };
  return { key, table: readTable(root, key) };
}

export interface StagedInput {
  root: string;
  cache: LessonFileCache;
  policy: Policy;
  today: string;
  opened: OpenTable;
  head: GitSide;
  /** HEAD, for the promotion rules (undefined when the gate is off). */
  base: BaseDelta | undefined;
  wanted: FactsWanted;
}

export interface StagedCheck {
  head: Snapshot;
  base: Snapshot | undefined;
  /** Lint's errors on the staged tree (when the schema gate is on). */
  lint: Finding[] | undefined;
  /** The lifecycle rules' findings from HEAD to the staged tree (when there is a base). */
  transitions: Finding[] | undefined;
  /** The lesson files' secret matches and ids (when the secrets gate is on). */
  lessons: LessonSecrets | undefined;
  /** The staged lesson files' (path, blob id) pairs, in path order. */
  pairs: { path: string; blob: string }[];
  /** treeDigest of the pairs. */
  digest: string;
  /** Reads every lesson file's facts of both sides, for a gate that needs the whole tree (a stale index's diff, the retrieval evals). */
  loadAll: () => Promise<void>;
}

const noSchema = (): SchemaError[] => {
  throw new Error('the staged check runs on summarised lessons only');
};

/** HEAD's lesson files: the staged ones with the changed paths at HEAD's blobs, in path order. */
function baseItems(head: readonly Listed[], changes: ReadonlyMap<string, string | undefined>): Listed[] {
  const items: Listed[] = [];
  const staged = new Set<string>();
  for (const item of head) {
    staged.add(item.path);
    if (!changes.has(item.path)) items.push(item);
    else if (changes.get(item.path) !== undefined) items.push({ ...item, blob: changes.get(item.path)! });
  }
  for (const [path, blob] of changes) {
    const level = lessonPathLevel(path);
    if (!staged.has(path) && blob !== undefined && level !== undefined) items.push({ path, level, blob });
  }
  return items.sort((a, b) => compareStrings(a.path, b.path));
}

/** Checks the staged tree against the table and HEAD, reading what the change touches; writes the table for the next check. */
export async function checkStaged(input: StagedInput): Promise<StagedCheck> {
  const { root, cache, policy, today, head: headSide } = input;
  const { key, table } = input.opened;
  const items = headSide.items;
  const head = new SideFacts(() => items, headSide.readListed, cache, input.wanted);

  // Each staged file's row in the table, when it is of the same blob; the others differ and are read now.
  const kept: (Row | undefined)[] = items.map((item) => {
    const row = table.rows.get(item.path);
    return row?.blob === item.blob ? row : undefined;
  });
  const differ = items.filter((_, n) => kept[n] === undefined);
  const staged = new Set<string>();
  for (const item of items) staged.add(item.path);
  const gone = [...table.rows.values()].filter((row) => !staged.has(row.path));
  await head.load(differ.map((item) => item.path));
  const ids = items.map((item, n) => kept[n]?.id ?? head.facts.get(item.path)!.lesson?.meta.id ?? '');
  const idAt = new Map<string, string>();
  const idOf = (path: string): string => {
    if (idAt.size === 0) items.forEach((item, n) => idAt.set(item.path, ids[n]!));
    return idAt.get(path) ?? '';
  };

  // Every id a differing or gone file has or had: the rows that looked one up are computed again.
  const touched = new Set<string>();
  for (const item of differ) {
    touched.add(head.facts.get(item.path)!.lesson?.meta.id ?? '');
    const old = table.rows.get(item.path);
    if (old) touched.add(old.id);
  }
  for (const row of gone) touched.add(row.id);
  touched.delete('');

  const idPaths = new Map<string, string[]>();
  items.forEach((item, n) => {
    const id = ids[n]!;
    if (id === '') return;
    const paths = idPaths.get(id);
    if (paths) paths.push(item.path);
    else idPaths.set(id, [item.path]);
  });

  const rows: Row[] = items.map((item, n) => {
    const old = kept[n];
    if (old) return old;
    const facts = head.facts.get(item.path)!;
    const lesson = facts.lesson?.meta;
    return freshRow({
      path: item.path,
      blob: item.blob,
      id: ids[n]!,
      waits: lesson !== undefined && waitsForReview(lesson),
      names: lesson ? namedIds(lesson as Lesson) : [],
      deps: [],
      findings: [],
      secrets: facts.secrets?.matches ?? [],
    });
  });

  let lint: Finding[] | undefined;
  if (key.schema) {
    const again: number[] = [];
    rows.forEach((row, n) => {
      if (kept[n] === undefined || (touched.size > 0 && row.deps.some((id) => touched.has(id)))) again.push(n);
    });
    await head.load(again.map((n) => items[n]!.path));
    const fresh = await untilLoaded(head, (misses) =>
      again.map((n) => {
        const path = items[n]!.path;
        const facts = head.facts.get(path)!;
        const lesson = head.lesson(path);
        const byId = new TrackedLessons(idPaths, head, misses);
        const context: LintContext = { policy, today, byId, schemaErrors: noSchema, sources: undefined };
        const findings = [...facts.problems, ...(lesson ? lessonFindings(lesson, context) : [])].filter((finding) => finding.severity === 'error');
        return { n, findings, deps: sortStrings([...byId.deps]) };
      }),
    );
    // (A row is computed again only when a file differs or is gone: the table is rewritten then.)
    for (const { n, findings, deps } of fresh) {
      const { path, blob, id, waits, names, secrets } = rows[n]!;
      rows[n] = freshRow({ path, blob, id, waits, names, secrets, findings, deps });
    }
    const twice = [...idPaths].filter(([, paths]) => paths.length > 1);
    await head.load(twice.flatMap(([, paths]) => paths));
    const byId = new Map(twice.map(([id, paths]) => [id, paths.map((path) => head.lesson(path)!)]));
    const waiting = rows.filter((row) => row.waits).length;
    const errors = treeFindings(byId, waiting, policy, undefined).filter((finding) => finding.severity === 'error');
    for (const row of rows) if (row.mayHave('findings')) errors.push(...row.findings);
    lint = lintResult(errors, 0).findings;
  }

  let transitions: Finding[] | undefined;
  let base: SideFacts | undefined;
  if (input.base) {
    const { changes, readBlobs } = input.base;
    const readBase: ReadFiles = async (paths) => {
      const blobs = await readBlobs(paths.map((path) => changes.get(path)!));
      return new Map(paths.map((path) => [path, blobs.get(changes.get(path)!)!]));
    };
    const baseSide = new SideFacts(() => baseItems(items, changes), readBase, cache, {});
    base = baseSide;
    // Only the paths that moved are read on HEAD's side: every other file has the staged blob, and the staged facts.
    const moved = [...changes].filter(([, blob]) => blob !== undefined).map(([path]) => path);
    for (const [path, facts] of await loadFacts(
      moved.map((path) => ({ path, level: lessonPathLevel(path)!, blob: changes.get(path)! })),
      readBase,
      cache,
      {},
    )) {
      baseSide.facts.set(path, facts);
    }
    const baseIdOf = (path: string): string => (changes.has(path) ? (baseSide.facts.get(path)?.lesson?.meta.id ?? '') : idOf(path));
    const changedIds = new Set<string>();
    for (const path of moved) changedIds.add(baseIdOf(path));
    for (const path of changes.keys()) if (staged.has(path)) changedIds.add(idOf(path));
    changedIds.delete('');
    const headLessons = [...changedIds].flatMap((id) => idPaths.get(id) ?? []).sort(compareStrings);
    const baseLessons = [...new Set([...headLessons.filter((path) => !changes.has(path)), ...moved.filter((path) => changedIds.has(baseIdOf(path)))])].sort(compareStrings);
    await head.load(headLessons);
    const at = (side: SideFacts, path: string): LessonAt[] => {
      const lesson = side.lesson(path);
      return lesson ? [{ lesson: lesson.lesson, path }] : [];
    };
    transitions = await untilLoaded(head, (misses) => {
      const loaded = (path: string): LessonAt[] => {
        if (!head.facts.has(path)) misses.add(path);
        return at(head, path);
      };
      return transitionFindings(
        baseLessons.map((path) => (changes.has(path) ? at(baseSide, path) : at(head, path))).flat(),
        headLessons.flatMap((path) => at(head, path)),
        {
          lookup: (id) => {
            const first = idPaths.get(id)?.[0];
            return first === undefined ? undefined : loaded(first)[0]?.lesson;
          },
          referrers: (id) => rows.filter((row, n) => row.names.includes(id) && idPaths.get(ids[n]!)?.[0] === row.path).flatMap((row) => loaded(row.path)),
        },
      );
    });
  }

  const pairs = items.map(({ path, blob }) => ({ path, blob }));
  // With no file differing from the table's tree, the staged tree is that tree.
  const same = differ.length === 0 && gone.length === 0 && table.digest !== undefined;
  const digest = same ? table.digest! : treeDigest(pairs);
  if (!same) writeTable(root, key, digest, rows, table);
  const lessons: LessonSecrets | undefined = input.wanted.secrets && {
    matches: rows.flatMap((row) => (row.mayHave('secrets') ? row.secrets.map((match) => ({ file: row.path, ...match })) : [])),
    paths: staged,
    ids: idPaths.keys(),
  };
  const { items: _items, readListed: _read, ...headRest } = headSide;
  return {
    head: head.snapshot(headRest),
    base: base && input.base && base.snapshot(input.base.side),
    lint,
    transitions,
    lessons,
    pairs,
    digest,
    loadAll: async () => {
      await head.load(items.map((item) => item.path));
      if (base) {
        // HEAD's files that did not move have the staged facts.
        for (const item of base.items) if (!base.facts.has(item.path)) base.facts.set(item.path, head.facts.get(item.path)!);
      }
    },
  };
}
