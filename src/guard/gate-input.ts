import { LessonsError } from '../errors.js';
import { readReceiptText } from '../io/receipt-file.js';
import { blobChangesBetween, changesBetween, nameStatus, stagedBlobChanges, worktreeChanges, type ChangedFile, type StagedChange } from '../io/git/changes.js';
import { readBlobs } from '../io/git/tree.js';
import { commitsInRange } from '../io/git/log.js';
import { resolveCommit, type GitRepo } from '../io/git/repo.js';
import { readPolicyFile } from '../io/policy-file.js';
import { resolvePolicy, type Gate, type GateLevel, type Policy } from '../policy/policy.js';
import { isMergeCommit, type IncidentPatterns } from './commits.js';
import type { CommitInfo } from '../io/git/log.js';
import type { ChangeContext } from '../preflight/change.js';
import { headSearch, type HeadSearch } from './head-search.js';
import type { GateInput, QualityOutcome } from './gates/gate.js';
import { INDEX_MEMO, readAtBlob, treeDigest, type LessonFileCache } from '../store/worktree.js';
import type { LoadedTree } from '../lesson/load.js';
import { blobIdOf, joinChunks, type Chunks } from '../util/digest.js';
import type { OpenIndex, RememberedTree } from '../store/index-memo.js';
import type { IndexLines } from '../index/update.js';
import { lessonTree, type FactsWanted } from '../lesson/facts.js';
import { resolveRange, type Range } from './range.js';
import { judgeReceipt } from './receipt.js';
import { compileSecretRules } from '../secrets/rules.js';
import { GENERATED } from '../export/targets.js';
import { lessonSecretScan, lessonSecrets, scanSecrets } from '../secrets/scan.js';
import { LESSONS_DIR } from '../io/repo.js';
import { addedLinesInRange } from '../io/git/added-lines.js';
import { scanAddedLines } from '../secrets/history.js';
import type { SecretMatch } from '../secrets/rules.js';
import type { PolicyChange } from './trusted-policy.js';
import { commitSide, commitSnapshot, emptySnapshot, gitPrefix, indexSide, lessonPathLevel, worktreeSnapshot, type GitSide, type Snapshot } from './snapshot.js';
import { checkStaged, openTable, type BaseDelta, type StagedCheck } from './staged.js';
import { toIsoDate } from '../util/dates.js';
import type { StageProfile } from './stages.js';

/** What the guard decided before reading anything: where, which stage, which gates are on. */
export interface GuardPlan {
  root: string;
  /** The head's change to the trusted (base) policy, when the stage trusts the base. */
  policyChange?: PolicyChange;
  repo: GitRepo;
  cache: LessonFileCache;
  policy: Policy;
  profile: StageProfile;
  levels: Record<Gate, GateLevel>;
  incidentPatterns: IncidentPatterns;
  now: Date;
  env: Record<string, string | undefined>;
  base?: string | undefined;
  head?: string | undefined;
}

/** Everything the gates judge, and the range it came from. */
export interface JudgedChange {
  input: GateInput;
  range?: Range;
  /** What the section "Lessons for this change" is chosen from (stages that have it). */
  change?: ChangeContext;
  /** The head's lessons as a search index, built when the retrieval gate or the change section first asks. */
  search: HeadSearch;
}

export function policyError(message: string): LessonsError {
  return new LessonsError('INVALID_POLICY', `policy/workflow-policy.json is invalid: ${message}`);
}

export function compiled<T>(value: T | { error: string }): T {
  if (value && typeof value === 'object' && 'error' in value) throw policyError((value as { error: string }).error);
  return value as T;
}

/** Lessons-root-relative paths of the files the change touches (deleted ones too), in git's order. */
function pathsInRoot(repo: GitRepo, root: string, files: readonly ChangedFile[]): string[] {
  const prefix = gitPrefix(repo, root);
  return files.filter((file) => file.path.startsWith(prefix)).map((file) => file.path.slice(prefix.length));
}

/** Lessons-root-relative paths the change adds or modifies. */
function changedPaths(repo: GitRepo, root: string, files: readonly ChangedFile[]): string[] {
  return pathsInRoot(repo, root, files.filter((file) => file.status !== 'D'));
}

/** What the head side's facts must hold for the gates that are on: the file rules' findings, the secret matches. */
async function headFactsWanted(plan: GuardPlan): Promise<FactsWanted> {
  const on = (gate: Gate): boolean => plan.levels[gate] !== 'off';
  const wanted: FactsWanted = {};
  if (on('schema')) {
    const [{ validateAgainst }, { fileFindings }] = await Promise.all([import('../schema/validate.js'), import('../lint/lint.js')]);
    wanted.fileFindings = (item) => fileFindings(item, (data) => validateAgainst('lesson', data));
  }
  if (on('secrets')) wanted.secrets = lessonSecretScan(plan.policy, compiled(compileSecretRules(plan.policy.secrets)));
  return wanted;
}

/**
 * What the index-fresh gate compares: nothing to read when the file cache remembers this very
 * tree (its path and blob pairs) with this very index blob (`lessons index` wrote or checked
 * it); for a staged tree near the remembered one, the remembered index updated for the
 * difference (fresh when it is the staged blob, else how it is stale); otherwise the side's
 * index text, which the gate compares with an index built from every lesson.
 */
async function indexState(plan: GuardPlan, head: Snapshot, staged: StagedCheck | undefined): Promise<NonNullable<GateInput['index']>> {
  const { cache } = plan;
  const memo = cache.memo(INDEX_MEMO)?.split(' ');
  if (head.regular && head.indexBlob !== undefined && memo?.[1] === head.indexBlob && memo[0] === (staged?.digest ?? treeDigest(head.lessonFiles))) return { known: true };
  const expected = staged && head.indexBlob !== undefined ? await indexByUpdate(plan, staged.pairs) : undefined;
  try {
    if (expected !== undefined && blobIdOf(expected.chunks) === head.indexBlob) {
      // The secrets gate then finds the staged index scanned, from the remembered index's scan.
      const { carryIndexScan } = await import('../store/index-memo.js');
      await carryIndexScan(plan.root, cache, expected.before, head.indexBlob, expected.lines);
      return { known: true };
    }
    if (expected !== undefined) {
      // Stale: how, from the updated index and the staged one line by line, without reading every staged lesson.
      const { indexLineDiff } = await import('../index/update.js');
      const stagedIndex = (await readBlobs(plan.repo, [head.indexBlob!])).get(head.indexBlob!);
      const stale = stagedIndex && indexLineDiff(stagedIndex, joinChunks(expected.chunks));
      if (stale) return { known: false, stale };
    }
  } finally {
    expected?.before.close();
  }
  return { known: false, text: await head.readIndex() };
}

/**
 * The staged tree's index worked out as an update of the index `lessons index`
 * last wrote or found fresh (memo.ts: its bytes on disk, the tree beside it): the staged lessons
 * whose blob differs from that tree's are read from git, a lesson the update looks up from the
 * working tree when it holds the staged blob. This is how a commit made while the working tree
 * moved on (edited again, indexed again) is known fresh without reading every staged lesson.
 * Undefined when it cannot tell: no remembered index, over UPDATE_MAX files differ, or a lesson
 * the update needs is not at hand.
 */
async function indexByUpdate(
  plan: GuardPlan,
  pairs: readonly { path: string; blob: string }[],
): Promise<{ chunks: Chunks; lines: IndexLines; before: OpenIndex & { blob: string } } | undefined> {
  // Loaded here: only a commit whose tree is not the one `lessons index` last saw comes this way.
  const [command, { rememberedBuild }] = await Promise.all([import('../store/index-write.js'), import('../store/index-memo.js')]);
  const remembered = rememberedBuild(plan.root, plan.cache);
  if (remembered === undefined) return undefined;
  let update: ReturnType<typeof command.indexAfter>;
  try {
    update = await stagedUpdate(plan, remembered, pairs, command);
  } finally {
    if (update === undefined) remembered.close();
  }
  return update && { ...update, before: remembered };
}

/** indexByUpdate()'s update of the remembered index for the staged pairs. */
async function stagedUpdate(
  plan: GuardPlan,
  remembered: OpenIndex & { tree: RememberedTree },
  pairs: readonly { path: string; blob: string }[],
  { changeFrom, indexAfter, UPDATE_MAX }: typeof import('../store/index-write.js'),
): Promise<ReturnType<typeof indexAfter>> {
  const { root, repo } = plan;
  const { changed, removed } = changeFrom(remembered.tree.pairs(), pairs);
  if (changed.length + removed.size > UPDATE_MAX) return undefined;
  const staged = new Map(pairs.map((pair) => [pair.path, pair.blob]));
  const read = await readBlobs(repo, changed.map((path) => staged.get(path)!));
  const lessonOf = (path: string): LoadedTree | undefined => {
    const blob = staged.get(path);
    const level = lessonPathLevel(path);
    if (blob === undefined || level === undefined) return undefined;
    // Read from git, or from the working tree when it holds the staged blob.
    const bytes = read.get(blob) ?? readAtBlob(root, path, blob);
    return bytes === undefined ? undefined : lessonTree(path, bytes, level);
  };
  return indexAfter(remembered.bytes, changed, removed, lessonOf);
}

async function runQuality(policy: Policy, root: string): Promise<QualityOutcome[]> {
  const { runArgv } = await import('../io/run-command.js');
  const outcomes: QualityOutcome[] = [];
  for (const command of policy.quality.commands) {
    const outcome = await runArgv(command.run, root, policy.quality.timeout_seconds);
    outcomes.push({ name: command.name, argv: command.run, ...outcome });
  }
  return outcomes;
}

interface ComparedTrees {
  head: Snapshot;
  base?: Snapshot;
  range?: Range;
  changed: ChangedFile[];
  /** The table check's results (the staged tree, or a pushed commit): the gates take these instead of reading whole trees. */
  staged?: StagedCheck;
}

/**
 * The staged tree against HEAD, checked in proportion to the change (staged.ts); every staged
 * lesson is read only when a gate on needs the whole tree: the diff of a stale index, the
 * retrieval evals.
 */
async function stagedTrees(plan: GuardPlan, wantBase: boolean, wanted: FactsWanted): Promise<ComparedTrees> {
  const { repo, root, cache } = plan;
  // Independent git reads, run side by side.
  // The files the secrets gate reads beside the lessons are listed with them (one git call, not three).
  const also = plan.levels.secrets !== 'off' ? [...GENERATED.rules.map((rules) => rules.dir), ...GENERATED.files] : [];
  const listing = Promise.all([indexSide(repo, root, also), wantBase ? resolveCommit(repo, 'HEAD') : undefined, stagedBlobChanges(repo)]);
  // Read while git lists.
  const today = toIsoDate(plan.now);
  const opened = openTable(root, cache, plan.levels.schema !== 'off', wanted);
  const [head, commit, staged] = await listing;
  const base = wantBase ? await baseDelta(repo, root, commit, head, staged) : undefined;
  const checked = await checkStaged({ root, cache, policy: plan.policy, today, opened, head, base, wanted });
  return { head: checked.head, ...(checked.base ? { base: checked.base } : {}), changed: nameStatus(staged), staged: checked };
}

/**
 * The base (HEAD, or a range's base) against the head tree, as the lesson files whose blob
 * differs: from git's diff of the two (the base is not listed), or, when the index holds a
 * conflict (whose staged side the diff does not give), from a listing of the base. With no base
 * commit every lesson of the head is new.
 */
async function baseDelta(repo: GitRepo, root: string, commit: string | undefined, head: GitSide, staged: readonly StagedChange[]): Promise<BaseDelta> {
  const readBlobsOf = (blobs: readonly string[]) => readBlobs(repo, blobs);
  const changes = new Map<string, string | undefined>();
  if (commit === undefined) {
    for (const item of head.items) changes.set(item.path, undefined);
    const { tree: _tree, lessonFiles: _files, ...side } = emptySnapshot();
    return { side, changes, readBlobs: readBlobsOf };
  }
  if (staged.some((change) => change.status === 'U')) {
    const { items, readListed: _read, ...side } = await commitSide(repo, root, commit);
    const before = new Map(items.map((item) => [item.path, item.blob]));
    const after = new Map(head.items.map((item) => [item.path, item.blob]));
    for (const [path, blob] of before) if (after.get(path) !== blob) changes.set(path, blob);
    for (const path of after.keys()) if (!before.has(path)) changes.set(path, undefined);
    return { side, changes, readBlobs: readBlobsOf };
  }
  const prefix = gitPrefix(repo, root);
  for (const change of staged) {
    if (!change.path.startsWith(prefix)) continue;
    const rel = change.path.slice(prefix.length);
    if (lessonPathLevel(rel) !== undefined && change.before !== change.after) changes.set(rel, change.before);
  }
  // HEAD's own listing is read only if something asks for a file of it (nothing the staged check does).
  let listed: Promise<GitSide> | undefined;
  const side = (): Promise<GitSide> => (listed ??= commitSide(repo, root, commit));
  return {
    side: {
      label: commit,
      regular: true,
      indexBlob: undefined,
      readIndex: async () => (await side()).readIndex(),
      readFiles: async (paths) => (await side()).readFiles(paths),
      listFolder: async (folder) => (await side()).listFolder(folder),
      readBlob: async (blob) => (await side()).readBlob?.(blob),
    },
    changes,
    readBlobs: readBlobsOf,
  };
}

/** Which trees the stage compares: the staged tree against HEAD, a pushed range, or the working tree. */
async function comparedTrees(plan: GuardPlan, wantBase: boolean, wanted: FactsWanted): Promise<ComparedTrees> {
  const { repo, root, cache, profile } = plan;
  if (profile.base === 'HEAD') return stagedTrees(plan, wantBase, wanted);
  const range = await resolveRange(repo, { profile, base: plan.base, head: plan.head, env: plan.env });
  if (!range && profile.head === 'commit') {
    throw new LessonsError('GIT', `no commits yet: nothing for the ${profile.stage} guard to check; commit first`);
  }
  if (profile.head === 'commit') return committedTrees(plan, range!, wantBase, wanted);
  const base = !wantBase ? undefined : range?.base ? await commitSnapshot(repo, root, range.base, cache, {}) : emptySnapshot();
  return { head: await worktreeSnapshot(root, cache, wanted), ...(base ? { base } : {}), ...(range ? { range } : {}), changed: await worktreeChanges(repo, range?.base) };
}

/**
 * A range's head commit against its base, as the staged tree against HEAD: through the same
 * table (a pushed commit's tree is mostly the last staged tree checked), the base as git's diff
 * of the two commits.
 */
async function committedTrees(plan: GuardPlan, range: Range, wantBase: boolean, wanted: FactsWanted): Promise<ComparedTrees> {
  const { repo, root, cache } = plan;
  const listing = Promise.all([
    commitSide(repo, root, range.head),
    wantBase && range.base ? blobChangesBetween(repo, range.base, range.head) : undefined,
    changesBetween(repo, range.base, range.head),
  ]);
  const today = toIsoDate(plan.now);
  const opened = openTable(root, cache, plan.levels.schema !== 'off', wanted);
  const [head, raw, changed] = await listing;
  const base = wantBase ? await baseDelta(repo, root, range.base, head, raw ?? []) : undefined;
  const checked = await checkStaged({ root, cache, policy: plan.policy, today, opened, head, base, wanted });
  return { head: checked.head, ...(checked.base ? { base: checked.base } : {}), range, changed, staged: checked };
}

/** What each commit of a pushed range added to lessons/ and the generated files (every file with scope `change`) that the head's scan did not find. */
async function rangeHistorySecrets(plan: GuardPlan, range: Range, known: readonly SecretMatch[]): Promise<SecretMatch[]> {
  const prefix = gitPrefix(plan.repo, plan.root);
  const scanned = plan.policy.secrets.scope === 'change' ? [prefix || '.'] : [`${prefix}${LESSONS_DIR}/`, ...GENERATED.rules.map((rules) => `${prefix}${rules.dir}/${rules.prefix}*${rules.suffix}`), ...GENERATED.files.map((file) => `${prefix}${file}`)];
  const hunks = await addedLinesInRange(plan.repo, range.base, range.head, scanned);
  const rel = (path: string): string => path.slice(prefix.length);
  return scanAddedLines(hunks.filter((hunk) => hunk.path.startsWith(prefix)), compiled(compileSecretRules(plan.policy.secrets)), new Set(plan.policy.secrets.allowlist), known, rel);
}

/**
 * The change as the section "Lessons for this change" reads it, from what the range gave
 * already: its paths, the commands the quality gate runs on it, its commit subjects.
 */
function changeContext(plan: GuardPlan, paths: string[], commits: readonly CommitInfo[]): ChangeContext {
  const commands = plan.levels.quality === 'off' ? [] : plan.policy.quality.commands.map((command) => command.run.join(' '));
  return { paths, commands, subjects: commits.filter((commit) => !isMergeCommit(commit)).map((commit) => commit.subject) };
}

/** Every git and file read the gates need, and only those of the gates that are on. */
export async function gatherGateInput(plan: GuardPlan): Promise<JudgedChange> {
  const { policy, profile, root, cache } = plan;
  const on = (gate: Gate): boolean => plan.levels[gate] !== 'off';
  const { head, base, range, changed, staged } = await comparedTrees(plan, on('promotion'), await headFactsWanted(plan));
  const paths = changedPaths(plan.repo, root, changed);
  const needCommits = on('incident-lesson') || (on('preflight-evidence') && profile.evidence === 'trailers') || profile.changeLessons;
  const commits = range && needCommits ? await commitsInRange(plan.repo, range.base, range.head) : undefined;
  const input: GateInput = {
    stage: profile.stage,
    policy,
    now: plan.now,
    head,
    ...(base ? { base } : {}),
    ...(commits ? { commits } : profile.base === 'range' ? { commits: [] } : {}),
    changedPaths: paths,
    incidentPatterns: plan.incidentPatterns,
    ...(staged ? { checked: { lint: staged.lint, transitions: staged.transitions, ids: staged.ids } } : {}),
  };
  if (on('index-fresh')) input.index = await indexState(plan, head, staged);
  if (staged && ((input.index && 'text' in input.index) || on('retrieval') || profile.changeLessons)) await staged.loadAll();
  const search = headSearch(head, root);
  if (on('preflight-evidence') && profile.evidence === 'receipt') {
    input.receipt = judgeReceipt(readReceiptText(root), plan.now, policy.preflight.receipt_max_age_minutes);
  }
  if (on('secrets')) {
    const allowlist = new Set(policy.secrets.allowlist);
    const matches = await scanSecrets(policy, compiled(compileSecretRules(policy.secrets)), head, paths, cache, staged?.lessons ?? lessonSecrets(head), GENERATED);
    input.secrets = matches.filter((match) => !allowlist.has(match.fingerprint));
    if (range && profile.head === 'commit') input.secrets.push(...(await rangeHistorySecrets(plan, range, input.secrets)));
  }
  if (on('secrets') && profile.scansSources) {
    // Every fetched source is scanned, as the working tree's policy names them (what
    // `lessons sources update --locked` fetched), with the trusted policy's rules: scanning more
    // never lets a change through.
    const { sourceSecrets } = await import('../sources/secrets.js');
    const fetched = resolvePolicy(readPolicyFile(root).data).sources;
    input.secrets!.push(...sourceSecrets(root, { ...policy, sources: fetched }, compiled(compileSecretRules(policy.secrets))));
  }
  if (on('quality')) input.quality = await runQuality(policy, root);
  if (on('retrieval')) input.retrieval = await (await import('../eval/snapshot.js')).evaluateSnapshot(head, search, policy, plan.now);
  if (plan.policyChange) input.policyChange = plan.policyChange;
  const change = profile.changeLessons ? changeContext(plan, pathsInRoot(plan.repo, root, changed), commits ?? []) : undefined;
  return { input, search, ...(range ? { range } : {}), ...(change ? { change } : {}) };
}
