import path from 'node:path';
import { findRepoRoot } from '../io/repo.js';
import { readPolicyFile, resolvePolicy, type Policy } from '../policy/policy.js';
import { explain } from './explain.js';
import { renderWithinBudget, type OutputFormat, type PreflightReport, type SelectedLesson } from './format.js';
import { buildQuery, isHookMode, type PreflightInput } from './query.js';
import { rankLessons } from './rank.js';
import { makeReceipt, writeReceipt, RECEIPT_FILE } from './receipt.js';
import type { RerankOutcome } from './rerank.js';
import { openSearch } from './search-cache.js';
import type { DocRecord, SearchIndex } from './search-index.js';
import { selectLessons } from './select.js';
import { VOCABULARY } from './vocabulary.js';

export interface PreflightOptions extends PreflightInput {
  cwd: string;
  now: Date;
  format: OutputFormat;
  /** Most tokens (about four characters each) the printed output may take. */
  budget?: number;
  /** Most lessons to show (critical trigger matches are always shown). */
  limit?: number;
  /** --rerank: a second opinion on the selection (task mode only); see rerank.ts. */
  rerank?: (selected: SelectedLesson[], summary: (id: string) => string) => Promise<{ selected: SelectedLesson[]; outcome: RerankOutcome }>;
}

export interface PreflightResult {
  report: PreflightReport;
  output: string;
  /** One line for stderr, e.g. when the index was missing or stale. */
  warning: string | undefined;
}

const NO_MATCH = 'No lesson is relevant enough to this task (nothing passed the relevance floor).';
const NO_TRIGGER = 'No lesson has a trigger matching this tool, path or command.';
const NO_APPROVED = 'The reviewer found none of the selected lessons applicable to this task.';

/** Ranks and selects; pure apart from the lazy reads behind `index`. */
export function selectFromIndex(
  index: SearchIndex,
  input: PreflightInput,
  policy: Policy,
  now: Date,
  limit?: number,
): { selected: SelectedLesson[]; records: Map<string, DocRecord> } {
  const query = buildQuery(input, VOCABULARY);
  const chosen = selectLessons(rankLessons(index, query, policy, now), input, policy, limit);
  const records = new Map<string, DocRecord>();
  const selected = chosen.map((ranked): SelectedLesson => {
    const record = index.record(ranked.doc);
    records.set(record.id, record);
    return {
      id: record.id,
      level: record.level,
      status: record.status,
      severity: record.severity,
      title: record.title,
      path: record.path,
      score: Math.round(ranked.score * 1000) / 1000,
      reasons: explain(ranked, record, (doc) => index.record(doc).id),
      checklist: record.checklist,
      kind: record.kind ?? null,
      insight: record.insight ?? null,
    };
  });
  return { selected, records };
}

/** A --path as lesson triggers see it: repo-relative and POSIX (absolute paths inside the repository are made relative). */
export function repoPath(root: string, file: string): string {
  const posix = file.split(path.sep).join('/');
  if (path.isAbsolute(file)) {
    const relative = path.relative(root, file);
    if (!relative.startsWith('..') && !path.isAbsolute(relative)) return relative.split(path.sep).join('/');
    return posix;
  }
  return posix.replace(/^(\.\/)+/, '');
}

export interface RepositorySelection {
  selected: SelectedLesson[];
  records: Map<string, DocRecord>;
  digest: string;
  warning: string | undefined;
}

/**
 * The preflight selection for `input` in the repository at `root`, through the cached search
 * index, without printing or writing a receipt: what review, hooks and other callers use.
 */
export async function selectInRepository(root: string, input: PreflightInput, policy: Policy, now: Date, limit?: number): Promise<RepositorySelection> {
  const opened = await openSearch(root);
  try {
    return { ...selectFromIndex(opened.index, input, policy, now, limit), digest: opened.digest, warning: opened.warning };
  } finally {
    opened.close();
  }
}

/** `lessons preflight`: the lessons to have in front of you before the task, and a receipt that you saw them. */
export async function preflight(options: PreflightOptions): Promise<PreflightResult> {
  const root = findRepoRoot(options.cwd);
  const policy = resolvePolicy(readPolicyFile(root).data);
  const input: PreflightInput = {
    task: options.task,
    paths: options.paths.map((file) => repoPath(root, file)),
    tool: options.tool,
    command: options.command,
    project: options.project,
  };
  const chosen = await selectInRepository(root, input, policy, options.now, options.limit);
  const { records, digest } = chosen;
  const hook = isHookMode(input);
  const summary = (id: string): string => records.get(id)?.summary ?? '';
  const reranked = options.rerank && !hook ? await options.rerank(chosen.selected, summary) : undefined;
  const selected = reranked?.selected ?? chosen.selected;
  const full: PreflightReport = {
    ...input,
    paths: [...input.paths],
    mode: hook ? 'hook' : 'task',
    selected,
    omitted_by_budget: 0,
    message: selected.length > 0 ? null : hook ? NO_TRIGGER : chosen.selected.length > 0 ? NO_APPROVED : NO_MATCH,
    index_digest: digest,
    receipt: RECEIPT_FILE,
    ...(reranked ? { rerank: reranked.outcome } : {}),
  };
  const { report, output } = renderWithinBudget(full, options.format, options.budget, summary);
  writeReceipt(root, makeReceipt(input, report.selected.map((lesson) => lesson.id), digest, options.now));
  return { report, output, warning: chosen.warning };
}
