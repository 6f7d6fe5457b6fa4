import { loadFacts, treeDigest, type LessonFileCache, type ListedFile as Listed, type ReadFiles } from '../store/worktree.js';
import { addFacts, type FactsWanted } from '../lesson/facts.js';
import type { LoadedTree } from '../lesson/load.js';
import { transitionFindings, type LessonAt } from '../lesson/transitions.js';
import type { Finding } from '../lesson/finding.js';
import { readTable, tableKey, writeTable, type Table, type TableKey } from '../store/lint-table.js';
import { lintRows, SideFacts, treeRows, untilLoaded } from '../lint/table.js';
import type { Policy } from '../policy/policy.js';
import { compareStrings } from '../util/compare.js';
import type { LessonSecrets } from '../secrets/scan.js';
import { lessonPathLevel, linkProblems, type GitSide, type LessonFileRef, type Snapshot } from './snapshot.js';

/**
 * The staged tree (pre-commit), or a pushed commit (pre-push, ci), checked in proportion to the
 * change, through the guard's table of the last tree it checked (store/lint-table.ts: its lint
 * errors and secret matches per file). The base (HEAD, or the range's base) is not listed: git's diff
 * of the two sides gives the base's blob of each changed lesson, and the lifecycle rules run on
 * the ids those touch, looking lessons up in the whole head tree.
 */

/** A side as the gates that read a whole tree see it (every file's facts must be loaded first). */
function sideSnapshot(side: SideFacts, rest: Omit<Snapshot, 'tree' | 'lessonFiles'>): Snapshot {
  let built: { tree: LoadedTree; lessonFiles: LessonFileRef[] } | undefined;
  const whole = (): NonNullable<typeof built> => {
    if (built) return built;
    const tree: LoadedTree = { lessons: [], problems: [] };
    const lessonFiles: LessonFileRef[] = [];
    for (const item of side.items) {
      const facts = side.facts.get(item.path);
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

export function openTable(root: string, cache: LessonFileCache, schema: boolean, wanted: FactsWanted): OpenTable {
  // Not keyed by the day: the rows keep errors, and the one rule that reads the day (`stale`) warns.
  const key = tableKey(cache, { slot: 'staged', today: null, schema, secrets: wanted.secrets?.digest ?? null, sources: null });
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
  /** The ids of the head's lessons. */
  ids: ReadonlySet<string>;
  /** The staged lesson files' (path, blob id) pairs, in path order. */
  pairs: { path: string; blob: string }[];
  /** treeDigest of the pairs. */
  digest: string;
  /** Reads every lesson file's facts of both sides, for a gate that needs the whole tree (a stale index's diff, the retrieval evals). */
  loadAll: () => Promise<void>;
}

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
  const tree = await treeRows(items, table, head);
  const { rows, idPaths } = tree;
  const lint = key.schema ? [...linkProblems(headSide.links), ...(await lintRows(tree, head, { policy, today, keep: (finding) => finding.severity === 'error' }))] : undefined;

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
    const idAt = new Map(rows.map((row) => [row.path, row.id]));
    const idOf = (path: string): string => idAt.get(path) ?? '';
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
    for (const path of changes.keys()) if (tree.paths.has(path)) changedIds.add(idOf(path));
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
        baseLessons.flatMap((path) => (changes.has(path) ? at(baseSide, path) : at(head, path))),
        headLessons.flatMap((path) => at(head, path)),
        {
          lookup: (id) => {
            const first = idPaths.first(id);
            return first === undefined ? undefined : loaded(first)[0]?.lesson;
          },
          referrers: (id) => rows.filter((row) => row.names.includes(id) && idPaths.first(row.id) === row.path).flatMap((row) => loaded(row.path)),
        },
      );
    });
  }

  const pairs = items.map(({ path, blob }) => ({ path, blob }));
  // With no file differing from the table's tree, the staged tree is that tree.
  const digest = tree.changed ? treeDigest(pairs) : table.digest!;
  if (tree.changed) writeTable(root, key, digest, rows, table);
  const lessons: LessonSecrets | undefined = input.wanted.secrets && {
    matches: rows.flatMap((row) => (row.mayHave('secrets') ? row.secrets.map((match) => ({ file: row.path, ...match })) : [])),
    paths: tree.paths,
    ids: idPaths.keys(),
  };
  const { items: _items, readListed: _read, links: _links, ...headRest } = headSide;
  return {
    head: sideSnapshot(head, headRest),
    base: base && input.base && sideSnapshot(base, input.base.side),
    lint,
    transitions,
    lessons,
    ids: new Set(idPaths.keys()),
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
