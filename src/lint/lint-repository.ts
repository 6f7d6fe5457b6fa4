import { GIT_VOUCH_MIN, listedLevels, listingPairs, listWorktree, loadWorktreeFacts, openLessonCache, readAtBlob, rememberEdit, startUnchangedWorktree, treeDigest, type LessonFileCache, type RememberedWorktree, type ListedFile, type ReadFiles, type WorktreeListing } from '../store/worktree.js';
import type { FactsWanted } from '../lesson/facts.js';
import { readMarkdownEntry } from '../io/fs.js';
import { fileSteps, silentProgress, type Progress } from '../io/progress.js';
import { findRepoRoot } from '../io/repo.js';
import { loadPolicy } from '../policy/validate-policy.js';
import type { Policy } from '../policy/policy.js';
import { validateAgainst, type SchemaError } from '../schema/validate.js';
import { toIsoDate } from '../util/dates.js';
import { gitBlobId, sha256 } from '../util/digest.js';
import { readSourceApplications, withLocalApplications } from '../sources/applications.js';
import { loadSourceLessons, type SourceLessons } from '../sources/load.js';
import { fileFindings, lintResult, lintTree, sourceContext, type LintResult } from './lint.js';
import { readTable, tableKey, writeTable, type Table } from '../store/lint-table.js';
import { lintRows, SideFacts, treeRows } from './table.js';
import { compareStrings } from '../util/compare.js';
import { rememberedIndexDigest, rememberedPairs } from '../store/index-memo.js';

export interface LintOptions {
  cwd: string;
  now: Date;
  progress?: Progress;
}

export async function lint(options: LintOptions): Promise<LintResult> {
  const root = findRepoRoot(options.cwd);
  const policy = loadPolicy(root);
  const schemaErrors = (data: unknown) => validateAgainst('lesson', data);
  const today = toIsoDate(options.now);
  const cache = openLessonCache(root);
  const progress = options.progress ?? silentProgress;
  const wanted: FactsWanted = { fileFindings: (item) => fileFindings(item, schemaErrors) };
  try {
    const sources = policy.sources.length > 0 ? sourcesOf(root, policy, schemaErrors, progress) : undefined;
    const run = { policy, today, wanted, sources, progress };
    // The tree of the last listing git made, or a few files edited since: when the table is of that tree, no folder is listed.
    const pending = startUnchangedWorktree(root, cache);
    // The table is read while git looks at the files.
    const opened = pending && readTable(root, lintKey(cache, run));
    const quick = (await pending?.result()) ?? {};
    let listing: WorktreeListing | undefined;
    try {
      const remembered = (quick.tree || quick.edit) && (await rememberedLint(root, cache, quick, run, opened));
      if (remembered) return remembered;
      listing = await listWorktree(root, cache, GIT_VOUCH_MIN, quick.started);
      const table = await tableLint(root, cache, listedTree(root, cache, listing), run, opened);
      if (table) return table;
    } catch (error) {
      if (!(error instanceof ChangedDuringRun)) throw error;
      // The listing no longer stands for the tree: take it again.
      listing = undefined;
    }
    listing ??= await listWorktree(root, cache);
    // The file rules run only on files the cache has no findings for; the tree rules run on all.
    const { tree } = await loadWorktreeFacts(root, cache, wanted, listing, progress);
    progress.say('checking ids, references and evidence');
    return lintTree({ tree, policy, today, schemaErrors, ...(sources ? { sources } : {}) });
  } finally {
    progress.end();
    await cache.save();
  }
}

/** A file changed between the listing and its read: the run lints the tree as it is then, whole. */
class ChangedDuringRun extends Error {}

/** A tree to lint through the table: its files in path order, their (path, blob id) pairs' digest, and a reader of their bytes. */
interface TreeToLint {
  items: ListedFile[];
  digest: string;
  read: ReadFiles;
}

/** The listed tree; undefined when the listing has links or other irregular entries, or more unknown files than listingPairs reads. */
function listedTree(root: string, cache: LessonFileCache, listing: WorktreeListing): TreeToLint | undefined {
  const pairs = listingPairs(root, cache, listing);
  if (pairs === undefined) return undefined;
  const byPath = new Map(listing.files.map((file) => [file.path, file]));
  const read: ReadFiles = async (paths) => {
    const contents = new Map<string, Uint8Array>();
    for (const path of paths) {
      const file = byPath.get(path)!;
      const got = file.read ? { kind: 'file' as const, bytes: file.read } : readMarkdownEntry(root, file.entry);
      if (got.kind !== 'file' || gitBlobId(got.bytes) !== file.blob) throw new ChangedDuringRun();
      contents.set(path, got.bytes);
    }
    return contents;
  };
  return { items: listing.files.map((file) => ({ path: file.path, level: file.level, blob: file.blob! })), digest: treeDigest(pairs), read };
}

/**
 * Lint of the tree unchangedWorktree() found, through the table when the table is of the
 * remembered tree: its rows give every file's path and blob, the edited files theirs now.
 * Undefined when the table is of another tree.
 */
async function rememberedLint(root: string, cache: LessonFileCache, quick: RememberedWorktree, run: LintRun, opened: Table | undefined): Promise<LintResult | undefined> {
  const base = quick.tree ?? quick.edit!.base;
  const table = opened ?? readTable(root, lintKey(cache, run));
  // The remembered tree's files: the table's rows when the table is of it, else the remembered index's tree when that is.
  let remembered: Iterable<{ path: string; blob: string }>;
  let blobOf: (path: string) => string | undefined;
  if (table.digest === base.digest && table.rows.size === base.count) {
    remembered = table.rows.values();
    blobOf = (path) => table.rows.get(path)?.blob;
  } else {
    const pairs = rememberedIndexDigest(cache) === base.digest ? rememberedPairs(root, cache) : undefined;
    if (pairs === undefined || pairs.size !== base.count) return undefined;
    remembered = [...pairs].map(([path, blob]) => ({ path, blob }));
    blobOf = (path) => pairs.get(path);
  }
  const levelOf = listedLevels(root);
  const edited = new Map((quick.edit?.files ?? []).map((file) => [file.path, file]));
  const items: ListedFile[] = [];
  for (const { path, blob } of remembered) {
    const level = levelOf(path);
    if (level === undefined) return undefined;
    items.push({ path, level, blob: edited.get(path)?.blob ?? blob });
  }
  // A delta's new rows come after the base's.
  items.sort((a, b) => compareStrings(a.path, b.path));
  if (![...edited.keys()].every((path) => blobOf(path) !== undefined)) return undefined;
  const read: ReadFiles = async (paths) => {
    const contents = new Map<string, Uint8Array>();
    for (const path of paths) {
      const bytes = edited.get(path)?.bytes ?? readAtBlob(root, path, blobOf(path));
      if (bytes === undefined) throw new ChangedDuringRun();
      contents.set(path, bytes);
    }
    return contents;
  };
  const pairs = items.map((item) => ({ path: item.path, blob: item.blob }));
  const result = await tableLint(root, cache, { items, digest: quick.edit ? treeDigest(pairs) : base.digest, read }, run, table);
  if (quick.edit) rememberEdit(cache, quick.edit, pairs);
  return result;
}

interface LintRun {
  policy: Policy;
  today: string;
  wanted: FactsWanted;
  sources: SourceLessons | undefined;
  progress: Progress;
}

function lintKey(cache: LessonFileCache, run: LintRun) {
  const { policy, sources } = run;
  // Not keyed by the day: the rows leave the stale warnings out, and the run works them out for its day.
  return tableKey(cache, { slot: 'lint', today: null, schema: true, secrets: null, sources: sources ? sourcesDigest(policy, sources) : null });
}

/**
 * Lint through the working tree's table (table.ts): the files whose blob differs from the last
 * lint's, and the lessons that looked up an id they have or had, are linted again. Undefined
 * for no tree (one with links or other irregular entries, or too many files to read); throws
 * ChangedDuringRun when a file changes during the run.
 */
async function tableLint(root: string, cache: LessonFileCache, tree: TreeToLint | undefined, run: LintRun, opened?: Table): Promise<LintResult | undefined> {
  if (tree === undefined) return undefined;
  const { policy, today, sources } = run;
  const key = lintKey(cache, run);
  const table = opened ?? readTable(root, key);
  const { items } = tree;
  const side = new SideFacts(() => items, tree.read, cache, run.wanted);
  const rows = await treeRows(items, table, side);
  const step = fileSteps(run.progress, items.length);
  items.forEach((item, n) => step(n + 1, item.path));
  run.progress.say('checking ids, references and evidence');
  const findings = await lintRows(rows, side, { policy, today, keep: () => true, byDay: true, sources: sources && { context: sourceContext(policy, sources), lessons: sources } });
  if (rows.changed) writeTable(root, key, tree.digest, rows.rows, table);
  return lintResult(findings, rows.rows.filter((row) => row.lesson).length);
}

/** What the sources give the rules: their names, which are fetched, and their lessons. */
function sourcesDigest(policy: Policy, sources: SourceLessons): string {
  return sha256(JSON.stringify([policy.sources.map((source) => source.name), sources.fetched, sources.lessons.map((item) => [item.qualifiedId, item.lesson])]));
}

/** The fetched sources' lessons, their patterns with the applications recorded here. */
function sourcesOf(root: string, policy: Policy, schemaErrors: (data: unknown) => SchemaError[], progress: Progress): SourceLessons {
  const loaded = loadSourceLessons(root, policy, { schemaErrors, progress });
  return { ...loaded, lessons: withLocalApplications(loaded.lessons, readSourceApplications(root)) };
}
