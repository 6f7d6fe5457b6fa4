import fs from 'node:fs';
import path from 'node:path';
import { buildIndex, type IndexEntry } from '../../src/index/build.js';
import { loadLessons } from '../../src/lesson/load.js';
import { packageRoot } from '../../src/package-root.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { selectFromIndex } from '../../src/preflight/command.js';
import { VOCABULARY } from '../../src/preflight/vocabulary.js';
import type { PreflightInput } from '../../src/preflight/query.js';
import { buildSearchIndex } from '../../src/preflight/search-build.js';
import { memorySource, SearchIndex } from '../../src/preflight/search-index.js';
import { words } from '../../src/preflight/text.js';

/**
 * Selection quality on the labelled set in test/fixtures/eval: preflight against a plain
 * keyword-matching baseline, on the same tasks in the same run.
 */

interface EvalTask {
  id: string;
  task?: string;
  hook?: { tool?: string; paths?: string[]; command?: string };
  relevant: string[];
  critical?: string[];
}

export interface Metrics {
  recallAt5: number;
  precisionAt5: number;
  ndcgAt5: number;
  /** Share of no-match tasks (n..) that returned anything. */
  falsePositiveRate: number;
  /** Share of critical lessons (all tasks) that were returned. */
  criticalRecall: number;
  /** Share of hook tasks (h..) whose selection is exactly the labelled set. */
  hookExact: number;
}

export interface Evaluation {
  preflight: Metrics;
  baseline: Metrics;
  misses: string[];
}

export const EVAL_DIR = path.join(packageRoot(), 'test/fixtures/eval');
/** The day the evaluation runs on, so recency weighs the same every time. */
const EVAL_NOW = new Date('2026-12-01T00:00:00Z');

function inputOf(task: EvalTask): PreflightInput {
  return {
    task: task.task ?? '',
    paths: task.hook?.paths ?? [],
    tool: task.hook?.tool ?? null,
    command: task.hook?.command ?? null,
    project: null,
  };
}

/** The baseline: lessons containing the most distinct task words (stopwords dropped), best five. */
function keywordBaseline(entries: readonly IndexEntry[], input: PreflightInput, stopwords: Set<string>): string[] {
  const query = new Set(words([input.task, input.command ?? '', ...input.paths].join(' ')).filter((w) => !stopwords.has(w)));
  const scored = entries
    .filter((entry) => entry.status !== 'retired')
    .map((entry) => {
      const text = new Set(words([entry.title, entry.summary, ...entry.tags, ...entry.checklist, ...entry.triggers.keywords].join(' ')));
      let hits = 0;
      for (const word of query) if (text.has(word)) hits++;
      return { id: entry.id, hits };
    })
    .filter((s) => s.hits > 0)
    .sort((a, b) => b.hits - a.hits);
  return scored.slice(0, 5).map((s) => s.id);
}

function metrics(tasks: readonly EvalTask[], results: Map<string, string[]>): Metrics {
  const text = tasks.filter((t) => t.id.startsWith('t'));
  const none = tasks.filter((t) => t.id.startsWith('n'));
  const hooks = tasks.filter((t) => t.id.startsWith('h'));
  let recall = 0;
  let precision = 0;
  let ndcg = 0;
  for (const task of text) {
    const top = results.get(task.id)!.slice(0, 5);
    const relevant = new Set(task.relevant);
    const hits = top.filter((id) => relevant.has(id)).length;
    recall += hits / Math.min(5, relevant.size);
    precision += top.length === 0 ? 0 : hits / top.length;
    const dcg = top.reduce((sum, id, i) => sum + (relevant.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
    let ideal = 0;
    for (let i = 0; i < Math.min(5, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
    ndcg += dcg / ideal;
  }
  let critical = 0;
  let criticalFound = 0;
  for (const task of tasks) {
    for (const id of task.critical ?? []) {
      critical++;
      if (results.get(task.id)!.includes(id)) criticalFound++;
    }
  }
  const exact = hooks.filter((task) => {
    const got = [...results.get(task.id)!].sort();
    return JSON.stringify(got) === JSON.stringify([...task.relevant].sort());
  }).length;
  return {
    recallAt5: recall / text.length,
    precisionAt5: precision / text.length,
    ndcgAt5: ndcg / text.length,
    falsePositiveRate: none.filter((task) => results.get(task.id)!.length > 0).length / none.length,
    criticalRecall: critical === 0 ? 1 : criticalFound / critical,
    hookExact: hooks.length === 0 ? 1 : exact / hooks.length,
  };
}

export function evaluate(dir = EVAL_DIR): Evaluation {
  const tasks = JSON.parse(fs.readFileSync(path.join(dir, 'tasks.json'), 'utf8')) as EvalTask[];
  const entries = buildIndex(loadLessons(path.join(dir, 'corpus')).lessons).lessons;
  const index = SearchIndex.open(memorySource(buildSearchIndex(entries, { digest: '', stat: null, verifiedMtimeMs: 0 })))!;
  const stopwords = new Set(VOCABULARY.stopwords);
  const ours = new Map<string, string[]>();
  const baseline = new Map<string, string[]>();
  const misses: string[] = [];
  for (const task of tasks) {
    const input = inputOf(task);
    const selected = selectFromIndex(index, input, DEFAULT_POLICY, EVAL_NOW).selected.map((lesson) => lesson.id);
    ours.set(task.id, selected);
    baseline.set(task.id, keywordBaseline(entries, input, stopwords));
    const missing = task.relevant.filter((id) => !selected.slice(0, 5).includes(id));
    const extra = selected.filter((id) => !task.relevant.includes(id));
    if (missing.length > 0 || extra.length > 0) misses.push(`${task.id}: missing [${missing.join(', ')}] extra [${extra.join(', ')}]`);
  }
  return { preflight: metrics(tasks, ours), baseline: metrics(tasks, baseline), misses };
}

export const TARGETS = { recallAt5: 0.85, falsePositiveRate: 0.1, criticalRecall: 1 } as const;

export function formatEvaluation(result: Evaluation): string {
  const rows: [string, keyof Metrics, string][] = [
    ['recall@5 (t tasks)', 'recallAt5', '>= 0.85'],
    ['precision@5 (t tasks)', 'precisionAt5', ''],
    ['nDCG@5 (t tasks)', 'ndcgAt5', ''],
    ['false positives (n tasks)', 'falsePositiveRate', '<= 0.10'],
    ['critical recall', 'criticalRecall', '1.00'],
    ['hook exact set (h tasks)', 'hookExact', ''],
  ];
  const lines = ['| metric | preflight | keyword baseline | target |', '|---|---:|---:|---|'];
  for (const [label, key, target] of rows) {
    lines.push(`| ${label} | ${result.preflight[key].toFixed(3)} | ${result.baseline[key].toFixed(3)} | ${target} |`);
  }
  return lines.join('\n');
}

export async function bench(): Promise<void> {
  const result = evaluate();
  process.stdout.write(`Preflight selection quality (${path.relative(packageRoot(), EVAL_DIR)})\n\n${formatEvaluation(result)}\n`);
  if (process.argv.includes('--misses')) process.stdout.write(`\n${result.misses.join('\n')}\n`);
}
