import { freshRow, type Row, type Table } from '../store/lint-table.js';
import { loadFacts, type LessonFileCache, type ListedFile, type ReadFiles } from '../store/worktree.js';
import { lessonFromFacts, type FactsWanted, type LessonFacts } from '../lesson/facts.js';
import type { LoadedLesson } from '../lesson/load.js';
import type { Lesson } from '../lesson/model.js';
import { namedIds } from '../lesson/transitions.js';
import type { Policy } from '../policy/policy.js';
import type { SchemaError } from '../schema/validate.js';
import type { SourceLessons } from '../sources/load.js';
import { sortStrings } from '../util/compare.js';
import type { Finding } from '../lesson/finding.js';
import { lessonFindings, lintResult, treeFindings, waitsForReview } from './lint.js';
import { staleFinding, validationOf, type LintContext, type SourceContext } from './rules.js';

/**
 * A tree's lint in proportion to what changed since the table of the last tree checked
 * (store/lint-table.ts, which says what a row keeps): which rows still hold, which files are read
 * again, and the lint of those.
 */

/** The facts of one side's lesson files, read on demand. */
export class SideFacts {
  readonly facts = new Map<string, LessonFacts>();
  private byPathMap: Map<string, ListedFile> | undefined;

  constructor(
    /** The side's lesson files in path order, listed when first asked for. */
    private readonly listItems: () => ListedFile[],
    private readonly read: ReadFiles,
    private readonly cache: LessonFileCache,
    private readonly wanted: FactsWanted,
  ) {}

  private listed: ListedFile[] | undefined;

  get items(): ListedFile[] {
    return (this.listed ??= this.listItems());
  }

  get byPath(): Map<string, ListedFile> {
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
}

/** The lessons by id, as the lint rules read them, recording each id asked for and each lesson not loaded yet. */
class TrackedLessons extends Map<string, LoadedLesson[]> {
  readonly deps = new Set<string>();

  constructor(
    private readonly paths: IdPaths,
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
export async function untilLoaded<T>(side: SideFacts, compute: (misses: Set<string>) => T): Promise<T> {
  for (;;) {
    const misses = new Set<string>();
    const result = compute(misses);
    if (misses.size === 0) return result;
    await side.load(misses);
  }
}


/** A tree's files against a table: which rows are kept, which files differ, the ids of all. */
export interface TreeRows {
  items: readonly ListedFile[];
  /** Each file's row (the table's when it is of the same blob, else made from the file's facts, read now). */
  rows: Row[];
  /** Which rows are the table's. */
  kept: boolean[];
  /** Whether any file differs from the table's tree, or is gone from it. */
  changed: boolean;
  /** Every id a differing or gone file has or had: the rows that looked one up are computed again. */
  touched: Set<string>;
  /** The paths of each id, in path order. */
  idPaths: IdPaths;
  /** Every file's path. */
  paths: { has(path: string): boolean };
}

/** The paths of each id, in path order: one string for an id of one file (nearly all of them), an array for an id used twice. */
export class IdPaths {
  private readonly byId = new Map<string, string | string[]>();

  add(id: string, path: string): void {
    const known = this.byId.get(id);
    if (known === undefined) this.byId.set(id, path);
    else if (typeof known === 'string') this.byId.set(id, [known, path]);
    else known.push(path);
  }

  get(id: string): readonly string[] | undefined {
    const known = this.byId.get(id);
    return typeof known === 'string' ? [known] : known;
  }

  first(id: string): string | undefined {
    const known = this.byId.get(id);
    return typeof known === 'string' ? known : known?.[0];
  }

  keys(): IterableIterator<string> {
    return this.byId.keys();
  }

  /** The ids used more than once, and those of `also` the tree has, with their paths. */
  sharedOr(also: ReadonlySet<string>): [string, readonly string[]][] {
    const found: [string, readonly string[]][] = [];
    for (const [id, known] of this.byId) if (typeof known !== 'string' || also.has(id)) found.push([id, typeof known === 'string' ? [known] : known]);
    return found;
  }
}

/** The rows of `items` (in path order) against the table, reading the facts of the files that differ. */
export async function treeRows(items: readonly ListedFile[], table: Table, side: SideFacts): Promise<TreeRows> {
  let found = 0;
  const tableRows: (Row | undefined)[] = items.map((item) => {
    const row = table.rows.get(item.path);
    if (row === undefined) return undefined;
    found += 1;
    return row.blob === item.blob ? row : undefined;
  });
  const differ = items.filter((_, n) => tableRows[n] === undefined);
  // The side's map of its files by path says which paths the tree has.
  const paths = side.byPath;
  const gone = found === table.rows.size ? [] : [...table.rows.values()].filter((row) => !paths.has(row.path));
  await side.load(differ.map((item) => item.path));
  const touched = new Set<string>();
  for (const item of differ) {
    touched.add(side.facts.get(item.path)!.lesson?.meta.id ?? '');
    const old = table.rows.get(item.path);
    if (old) touched.add(old.id);
  }
  for (const row of gone) touched.add(row.id);
  touched.delete('');
  const rows = items.map((item, n) => {
    const old = tableRows[n];
    if (old) return old;
    const facts = side.facts.get(item.path)!;
    const lesson = facts.lesson?.meta;
    return freshRow({
      path: item.path,
      blob: item.blob,
      id: lesson?.id ?? '',
      lesson: lesson !== undefined,
      waits: lesson !== undefined && waitsForReview(lesson),
      names: lesson ? namedIds(lesson as Lesson) : [],
      deps: [],
      findings: [],
      secrets: facts.secrets?.matches ?? [],
      validated: undefined,
    });
  });
  const idPaths = new IdPaths();
  for (const row of rows) if (row.id !== '') idPaths.add(row.id, row.path);
  return { items, rows, kept: tableRows.map((row) => row !== undefined), changed: differ.length > 0 || gone.length > 0 || table.digest === undefined, touched, idPaths, paths };
}

const noSchema = (): SchemaError[] => {
  throw new Error('a table check runs on summarised lessons only');
};

export interface RowLint {
  policy: Policy;
  today: string;
  /** Which findings a row keeps (the guard keeps the errors). */
  keep: (finding: Finding) => boolean;
  /**
   * Rows keep no finding that depends on the day (`stale`), but each lesson's validation date,
   * and the run works those findings out for `today`: a table that serves any day (lint's).
   */
  byDay?: boolean;
  /** The sources' lessons, when lint loaded them: `<source>:<id>` references resolve against these (the key names them). */
  sources?: { context: SourceContext; lessons: SourceLessons } | undefined;
}

/**
 * Lint's findings on the tree: the rows that differ or looked up a touched id are computed again
 * (their lessons and what their rules look up are read), the others are the table's; then the
 * rules about the tree as a whole. Updates the rows.
 */
export async function lintRows(tree: TreeRows, side: SideFacts, options: RowLint): Promise<Finding[]> {
  const { rows, idPaths, touched } = tree;
  const again: number[] = [];
  rows.forEach((row, n) => {
    if (!tree.kept[n] || (touched.size > 0 && row.deps.some((id) => touched.has(id)))) again.push(n);
  });
  await side.load(again.map((n) => rows[n]!.path));
  const fresh = await untilLoaded(side, (misses) =>
    again.map((n) => {
      const path = rows[n]!.path;
      const facts = side.facts.get(path)!;
      const lesson = side.lesson(path);
      const byId = new TrackedLessons(idPaths, side, misses);
      const context: LintContext = { policy: options.policy, today: options.today, byId, schemaErrors: noSchema, sources: options.sources?.context };
      const findings = [...facts.problems, ...(lesson ? lessonFindings(lesson, context) : [])].filter((finding) => options.keep(finding) && !(options.byDay && finding.rule === 'stale'));
      return { n, findings, deps: sortStrings([...byId.deps]), validated: options.byDay && lesson ? validationOf(lesson) : undefined };
    }),
  );
  // (A row is computed again only when a file differs or is gone: the table is written again then.)
  for (const { n, findings, deps, validated } of fresh) {
    const { path, blob, id, lesson, waits, names, secrets } = rows[n]!;
    rows[n] = freshRow({ path, blob, id, lesson, waits, names, secrets, findings, deps, validated });
  }
  // Every id used twice, and each local lesson a source's id names (the sources' shadowing rule).
  const sourceIds = new Set(options.sources?.lessons.lessons.map((item) => item.lesson.id));
  const wanted = idPaths.sharedOr(sourceIds);
  await side.load(wanted.flatMap(([, paths]) => paths));
  const byId = new Map(wanted.map(([id, paths]) => [id, paths.map((path) => side.lesson(path)!)]));
  const waiting = rows.filter((row) => row.waits).length;
  const findings = treeFindings(byId, waiting, options.policy, options.sources?.lessons).filter(options.keep);
  const limit = options.policy.lessons.stale_after_days;
  for (const row of rows) {
    if (row.mayHave('findings')) findings.push(...row.findings);
    const validated = options.byDay ? row.validated : undefined;
    const stale = validated && staleFinding(row.path, row.id, validated, options.today, limit);
    if (stale && options.keep(stale)) findings.push(stale);
  }
  return lintResult(findings, 0).findings;
}
