import { RECEIPT_FILE, findRepoRoot } from '../io/repo.js';
import { readPolicyFile, type RawPolicy } from '../io/policy-file.js';
import { writeReceiptText } from '../io/receipt-file.js';
import { resolvePolicy, type Policy } from '../policy/policy.js';
import { inferProject } from '../policy/projects.js';
import { formatJson } from '../util/json.js';
import { shortHandle } from '../lesson/handle.js';
import { explain } from './explain.js';
import { renderWithinBudget } from './report.js';
import type { OutputFormat } from '../render/registry.js';
import type { PreflightReport, RelatedLesson, SelectedLesson } from './report.js';
import { buildQuery, isHookMode, triggerPath, type PreflightInput } from './query.js';
import { rankLessons, type RankedLesson } from './rank.js';
import { makeReceipt } from './receipt.js';
import type { Reranker } from '../review/rerank.js';
import { type DocRecord, openSearch, type SearchIndex, type SearchOptions, VOCABULARY } from '../search/engine.js';
import { selectTiers } from './select.js';

export interface PreflightOptions extends PreflightInput {
  cwd: string;
  now: Date;
  format: OutputFormat;
  /** Most tokens (about four characters each) the printed output may take. */
  budget?: number;
  /** Most lessons to show (critical trigger matches are always shown). */
  limit?: number;
  /** The policy file when the caller has read it already (the CLI checks it first); read here otherwise. */
  policyFile?: RawPolicy;
  /** --rerank: a second opinion on both tiers (task mode only); see rerank.ts. */
  rerank?: Reranker;
}

export interface PreflightResult {
  report: PreflightReport;
  output: string;
  /** One line for stderr, e.g. when the index was missing or stale. */
  warning: string | undefined;
}

const NO_MATCH = 'No lesson is relevant enough to this task (nothing passed the relevance floor).';
const NO_TRIGGER = 'No lesson has a trigger matching this tool, path or command.';
const NO_SOURCES = 'the policy names sources but their lessons are not fetched: searched the local lessons only (run `lessons sources update --locked`)';
const NO_APPROVED = 'The reviewer found none of the lessons found applicable to this task.';
const NO_CONFIDENT = 'No lesson applies with confidence.';

/**
 * How many lessons below the apply tier `--rerank`'s reviewer judges (the related tier it is
 * shown). A reviewer is not bound by the line budget of an answer read before every task, and
 * the right lesson of a task that nothing applies to is often ranked fourth to eighth: on the
 * labelled sets, a judge keeping exactly the relevant lessons of the apply tier and 3 related
 * ones would surface 0.64-0.90 of them (recall at 5), of the apply tier and 8 related ones
 * 0.80-0.99. It still promotes at most `related_max` and lists at most `related_max` (rerank.ts).
 */
export const REVIEW_POOL = 8;

/** The policy a selection for the reviewer is made under: the related tier REVIEW_POOL deep (or deeper, where the policy lists more). */
export function reviewPolicy(policy: Policy): Policy {
  return { ...policy, preflight: { ...policy.preflight, related_max: Math.max(policy.preflight.related_max, REVIEW_POOL) } };
}

/** What one selection gives: both tiers (the related one in full, for a reviewer; asRelated() is its one-line form) and the records of both. */
export interface Selection {
  selected: SelectedLesson[];
  related: SelectedLesson[];
  records: Map<string, DocRecord>;
  /** The related lessons' short handles (shortHandle), by id. */
  handles: Map<string, string>;
}

/** A related lesson as an answer lists it: one line, no checklist, named by its handle where `handles` has one. */
export function asRelated(lesson: SelectedLesson, handles?: ReadonlyMap<string, string>): RelatedLesson {
  return { id: lesson.id, handle: handles?.get(lesson.id) ?? lesson.id, title: lesson.title, level: lesson.level, path: lesson.path, score: lesson.score, reasons: lesson.reasons };
}

/** Ranks and selects both tiers; pure apart from the lazy reads behind `index`. */
export function selectFromIndex(index: SearchIndex, input: PreflightInput, policy: Policy, now: Date, limit?: number): Selection {
  const query = buildQuery(input, VOCABULARY);
  const tiers = selectTiers(rankLessons(index, query, policy, now), input, policy, limit);
  const records = new Map<string, DocRecord>();
  const recordOf = (ranked: RankedLesson): DocRecord => {
    const record = index.record(ranked.doc);
    records.set(record.id, record);
    return record;
  };
  const idOf = (doc: number): string => index.id(doc);
  const full = (ranked: RankedLesson): SelectedLesson => {
    const record = recordOf(ranked);
    return {
      id: record.id,
      level: record.level,
      status: record.status,
      severity: record.severity,
      title: record.title,
      path: record.path,
      score: Math.round(ranked.score * 1000) / 1000,
      reasons: explain(ranked, record, idOf),
      checklist: record.checklist,
      kind: record.kind ?? null,
      insight: record.insight ?? null,
    };
  };
  // Local lessons are numbered in id order, so an id's neighbours bound what any other id shares with it.
  const localCount = index.docCount - index.sourceCount;
  const handles = new Map(
    tiers.related.map(({ doc }) => {
      const id = idOf(doc);
      return [id, shortHandle(id, [doc - 1, doc + 1].filter((other) => other >= 0 && other < localCount).map(idOf))];
    }),
  );
  return { selected: tiers.apply.map(full), related: tiers.related.map(full), records, handles };
}

export interface RepositorySelection extends Selection {
  digest: string;
  warning: string | undefined;
}

/**
 * The preflight selection for `input` in the repository at `root`, through the cached search
 * index, without printing or writing a receipt: what review, hooks and other callers use.
 */
async function selectInRepository(
  root: string,
  input: PreflightInput,
  policy: Policy,
  now: Date,
  limit?: number,
  search?: SearchOptions,
): Promise<RepositorySelection> {
  const opened = await openSearch(root, search);
  const warning = opened.warning ?? (policy.sources.length > 0 && !opened.index.hasSources ? NO_SOURCES : undefined);
  try {
    return { ...selectFromIndex(opened.index, input, policy, now, limit), digest: opened.digest, warning };
  } finally {
    opened.close();
  }
}

/** What a caller outside preflight asks for (review, agent hooks, the MCP server): a task, or only the context flags of hook mode. */
export interface SelectionRequest {
  task: string;
  /** The policy when the caller has it already; the repository's otherwise. */
  policy?: Policy | undefined;
  paths?: readonly string[] | undefined;
  tool?: string | undefined;
  command?: string | undefined;
  limit?: number | undefined;
  now?: Date | undefined;
  /** Where a caller collects what is broken (an index that had to be scanned around). */
  problems?: string[] | undefined;
  /** The project; by default the one policy `projects` infers from `paths`. */
  project?: string | undefined;
  /** `background` for a caller that must answer at once (an agent hook): a stale search cache is updated by a detached process. */
  update?: SearchOptions['update'];
}

/**
 * The one way other callers select lessons: preflight's selection with the repository's
 * policy, through the cached search index, without printing or writing a receipt. With a task
 * it ranks by relevance; with only a tool, paths or a command it is hook mode (trigger matches,
 * at most the policy's hook_max, critical ones first).
 */
export async function selectForRequest(root: string, request: SelectionRequest): Promise<SelectedLesson[]> {
  return (await selectTiersForRequest(root, request)).selected;
}

/** selectForRequest() with the related tier: what an agent or a client that can open lessons is shown. */
export async function selectTiersForRequest(root: string, request: SelectionRequest): Promise<{ selected: SelectedLesson[]; related: RelatedLesson[] }> {
  const policy = request.policy ?? resolvePolicy(readPolicyFile(root).data);
  const paths = [...(request.paths ?? [])];
  const input = { task: request.task, paths, tool: request.tool ?? null, command: request.command ?? null, project: request.project ?? inferProject(policy.projects, paths) };
  const { selected, related, handles, warning } = await selectInRepository(root, input, policy, request.now ?? new Date(), request.limit, { update: request.update ?? 'inline' });
  if (warning) request.problems?.push(`lessons: ${warning}`);
  return { selected, related: related.map((lesson) => asRelated(lesson, handles)) };
}

/** `lessons preflight`: the lessons to have in front of you before the task, and a receipt that you saw them. */
export async function preflight(options: PreflightOptions): Promise<PreflightResult> {
  const root = findRepoRoot(options.cwd);
  const policy = resolvePolicy((options.policyFile ?? readPolicyFile(root)).data);
  const input: PreflightInput = {
    task: options.task,
    paths: options.paths.map((file) => triggerPath(root, root, file)),
    tool: options.tool,
    command: options.command,
    project: options.project,
  };
  input.project ??= inferProject(policy.projects, input.paths);
  const hook = isHookMode(input);
  // Hook mode has no reviewer.
  const rerank = hook ? undefined : options.rerank;
  const chosen = await selectInRepository(root, input, rerank ? reviewPolicy(policy) : policy, options.now, options.limit);
  const { records, digest } = chosen;
  const summary = (id: string): string => records.get(id)?.summary ?? '';
  const reranked = rerank ? await rerank(chosen.selected, chosen.related, summary) : undefined;
  const selected = reranked?.selected ?? chosen.selected;
  const related = (reranked?.related ?? chosen.related).map((lesson) => asRelated(lesson, chosen.handles));
  const full: PreflightReport = {
    ...input,
    paths: [...input.paths],
    mode: hook ? 'hook' : 'task',
    selected,
    related,
    omitted_by_budget: 0,
    message: selected.length > 0 ? null : hook ? NO_TRIGGER : reranked && chosen.selected.length + chosen.related.length > 0 ? NO_APPROVED : related.length > 0 ? NO_CONFIDENT : NO_MATCH,
    index_digest: digest,
    receipt: RECEIPT_FILE,
    ...(reranked ? { rerank: reranked.outcome } : {}),
  };
  const { report, output } = renderWithinBudget(full, options.format, options.budget, summary);
  const ids = (lessons: readonly { id: string }[]): string[] => lessons.map((lesson) => lesson.id);
  writeReceiptText(root, formatJson(makeReceipt(input, ids(report.selected), ids(report.related), digest, options.now)));
  return { report, output, warning: chosen.warning };
}
