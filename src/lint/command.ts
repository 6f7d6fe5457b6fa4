import { listingPairs, listWorktree, loadWorktreeFacts, openLessonCache, treeDigest, type LessonFileCache, type ReadFiles, type WorktreeListing } from '../lesson/cached-load.js';
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
import { lintRows, readTable, SideFacts, tableKey, treeRows, writeTable } from './table.js';

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
    let listing = await listWorktree(root, cache);
    try {
      const table = await tableLint(root, cache, listing, { policy, today, wanted, sources, progress });
      if (table) return table;
    } catch (error) {
      if (!(error instanceof ChangedDuringRun)) throw error;
      // The listing no longer stands for the tree: take it again.
      listing = await listWorktree(root, cache);
    }
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

/**
 * Lint through the working tree's table (table.ts): the files whose blob differs from the last
 * lint's, and the lessons that looked up an id they have or had, are linted again. Undefined
 * when the tree holds links or other irregular entries, or more files than the listing reads are
 * unknown to the stat table; throws ChangedDuringRun when a file changes during the run.
 */
async function tableLint(
  root: string,
  cache: LessonFileCache,
  listing: WorktreeListing,
  run: { policy: Policy; today: string; wanted: FactsWanted; sources: SourceLessons | undefined; progress: Progress },
): Promise<LintResult | undefined> {
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
  const { policy, today, sources } = run;
  const items = listing.files.map((file) => ({ path: file.path, level: file.level, blob: file.blob! }));
  const key = tableKey(cache, { slot: 'lint', today, schema: true, secrets: null, sources: sources ? sourcesDigest(policy, sources) : null });
  const table = readTable(root, key);
  const side = new SideFacts(() => items, read, cache, run.wanted);
  const tree = await treeRows(items, table, side);
  const step = fileSteps(run.progress, items.length);
  items.forEach((item, n) => step(n + 1, item.path));
  run.progress.say('checking ids, references and evidence');
  const findings = await lintRows(tree, side, { policy, today, keep: () => true, sources: sources && { context: sourceContext(policy, sources), lessons: sources } });
  if (tree.changed) writeTable(root, key, treeDigest(pairs), tree.rows, table);
  return lintResult(findings, tree.rows.filter((row) => row.lesson).length);
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
