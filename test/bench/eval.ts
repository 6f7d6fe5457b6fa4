import fs from 'node:fs';
import path from 'node:path';
import { buildIndex } from '../../src/index/build.js';
import { loadLessons } from '../../src/lesson/load.js';
import { emptyTriggers, type Lesson } from '../../src/lesson/model.js';
import { packageFile, packageRoot } from '../../src/io/package-root.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { REVIEW_POOL, selectFromIndex } from '../../src/preflight/preflight.js';
import { reviewedSelection } from '../../src/eval/eval.js';
import { median, printedTokens } from '../../src/eval/run.js';
import { buildQuery, type PreflightInput } from '../../src/preflight/query.js';
import { rankLessons } from '../../src/preflight/rank.js';
import { buildSearchIndex, narrative } from '../../src/search/build.js';
import { parseThesaurus, THESAURUS_FILES } from '../../src/search/update.js';
import { memorySource, SearchIndex } from '../../src/search/search-index.js';
import { words } from '../../src/search/text.js';
import { VOCABULARY } from '../../src/search/vocabulary.js';

/**
 * Selection quality on labelled lesson repositories, with the figures of the development
 * sets' scorer: recall, precision and graded nDCG at 5 for tasks, the share of no-match tasks
 * that return anything, recall of the `must` lessons, and the same at 3 for tool calls (with
 * their task text, and without it as a PreToolUse hook sees them). Beside it, plain BM25
 * over whole lesson files at the same depth.
 *
 * A repository is `lessons/` plus `queries.json` ([{id, task, relevant, must, hook}]), or
 * the older layout of test/fixtures/eval (`corpus/lessons/` plus `tasks.json`).
 */

export interface Query {
  id: string;
  task: string;
  relevant: string[];
  must: string[];
  hook: { tool: string | null; path: string | null; command: string | null } | null;
}

export interface Metrics {
  /** Recall at 5 over the apply tier then the related tier (what a reader is shown at all). */
  surfaced: number;
  /** Related entries per no-match task. */
  relatedNoMatch: number;
  /** Median printed tokens of the text format on no-match tasks. */
  tokensNoMatch: number;
  /** Answerable tasks where neither tier shows anything. */
  silent: number;
  recall: number;
  precision: number;
  ndcg: number;
  must: number | null;
  noMatchFP: number;
  hookRecall: number;
  hookMust: number | null;
  hookFP: number;
  avgReturned: number;
}

export interface Evaluation {
  name: string;
  lessons: number;
  /**
   * No-match FP of long unrelated prompts: each no-match task joined with the next ones (LONG_JOIN
   * of them, in turn), as an agent's prompt holds several requests. Evidence accumulates over a
   * long prompt; a rule that judges evidence without the share of the task it explains lets them
   * through (the FLOOR.alone experiment of stop 45).
   */
  longNoMatchFP: number;
  /**
   * No-match FP of terse unrelated tasks: every run of TERSE_WORDS content words of each no-match
   * task (`GPU cost review`, `design system`), as people and agents type tasks. A rule that lets a
   * lesson apply on less evidence when it explains most of a short task lets them through (the
   * FLOOR.explains experiment of stop 46: 0 -> 4 % on repo-a, 3 -> 10 % on repo-c).
   */
  terseNoMatchFP: number;
  preflight: Metrics;
  hookOnly: Metrics;
  bm25: Metrics;
  misses: string[];
  /** Each query's first lessons of the ranking before any floor, with what the floors judge (`--ranked <file>`); ranked again only when asked. */
  ranked: () => RankedQuery[];
}

/** One query's ranking as the floors see it: for finding kinds of failure (which features tell the right lessons apart), never for fitting constants. */
export interface RankedQuery {
  repository: string;
  id: string;
  task: string;
  hook: Query['hook'];
  relevant: string[];
  lessons: { id: string; level: string; score: number; evidence: number; coverage: number; trigger: boolean; relevant: boolean }[];
}

/** How many lessons of each ranking `--ranked` writes. */
const RANKED_DEPTH = 10;

export const EVAL_DIR = path.join(packageRoot(), 'test/fixtures/eval');
/** The day the evaluation runs on, so recency weighs the same every time. */
const EVAL_NOW = new Date('2026-12-01T00:00:00Z');
const K_TASK = 5;
const K_HOOK = 3;
/** How many no-match tasks one long unrelated prompt joins (Evaluation.longNoMatchFP). */
const LONG_JOIN = 5;
/** The lengths, in content words, of the terse unrelated tasks cut from each no-match task (Evaluation.terseNoMatchFP). */
const TERSE_WORDS = [2, 3];

/** Every run of TERSE_WORDS content words of a task, stopwords left out (`fix the typo in the Kafka topic` -> `fix typo`, `typo Kafka`, ..., `typo Kafka topic`). */
export function terseCuts(task: string): string[] {
  const stop = new Set(VOCABULARY.stopwords);
  const content = task.split(/\s+/).filter((word) => words(word).some((w) => !stop.has(w)));
  return TERSE_WORDS.flatMap((n) => Array.from({ length: Math.max(0, content.length - n + 1) }, (_, i) => content.slice(i, i + n).join(' ')));
}

interface OldTask {
  id: string;
  task?: string;
  hook?: { tool?: string; paths?: string[]; command?: string };
  relevant: string[];
  critical?: string[];
}

/** The queries and lessons folder of a repository in either layout. */
export function loadRepository(dir: string): { queries: Query[]; lessonsRoot: string } {
  if (fs.existsSync(path.join(dir, 'queries.json'))) {
    return { queries: JSON.parse(fs.readFileSync(path.join(dir, 'queries.json'), 'utf8')) as Query[], lessonsRoot: dir };
  }
  const tasks = JSON.parse(fs.readFileSync(path.join(dir, 'tasks.json'), 'utf8')) as OldTask[];
  const queries = tasks.map(
    (t): Query => ({
      id: t.id,
      task: t.task ?? '',
      relevant: t.relevant,
      must: t.critical ?? [],
      hook: t.hook ? { tool: t.hook.tool ?? null, path: t.hook.paths?.[0] ?? null, command: t.hook.command ?? null } : null,
    }),
  );
  return { queries, lessonsRoot: path.join(dir, 'corpus') };
}

function inputOf(query: Query, hookOnly: boolean): PreflightInput {
  return {
    task: query.hook && hookOnly ? '' : query.task,
    paths: query.hook?.path ? [query.hook.path] : [],
    tool: query.hook?.tool ?? null,
    command: query.hook?.command ?? null,
    project: null,
  };
}

function readThesaurus(): Map<string, string[]> {
  return parseThesaurus(THESAURUS_FILES.map((file) => fs.readFileSync(packageFile(file), 'utf8')).join('\n'));
}

/** Plain BM25 (k1 1.2, b 0.75) over each lesson file's whole text, every match returned: the baseline. */
function bm25Baseline(files: Map<string, string>): (text: string) => string[] {
  const docs = [...files].map(([id, text]) => {
    const tf = new Map<string, number>();
    const tokens = words(text);
    for (const w of tokens) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { id, tf, length: tokens.length };
  });
  const avg = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const w of d.tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  return (text) => {
    const query = [...new Set(words(text))];
    return docs
      .map((d) => {
        let score = 0;
        for (const w of query) {
          const f = d.tf.get(w);
          if (!f) continue;
          const n = df.get(w)!;
          const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
          score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg));
        }
        return { id: d.id, score };
      })
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .map((s) => s.id);
  };
}

interface Judged {
  query: Query;
  selected: string[];
  related: string[];
  tokens: number;
  surfaced: number;
  recall: number;
  precision: number;
  ndcg: number;
  mustHits: number;
}

function judge(query: Query, selected: string[], related: string[] = [], tokens = 0): Judged {
  const k = query.hook ? K_HOOK : K_TASK;
  const top = selected.slice(0, k);
  const relevant = new Set(query.relevant);
  const must = new Set(query.must);
  const hits = top.filter((id) => relevant.has(id)).length;
  const gain = (id: string): number => (must.has(id) ? 2 : relevant.has(id) ? 1 : 0);
  const dcg = top.reduce((sum, id, i) => sum + gain(id) / Math.log2(i + 2), 0);
  const ideal = [...query.relevant].map(gain).sort((a, b) => b - a).slice(0, k).reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  const surfacedHits = [...selected, ...related.filter((id) => !selected.includes(id))].slice(0, k).filter((id) => relevant.has(id)).length;
  return {
    query,
    selected,
    related,
    tokens,
    surfaced: relevant.size === 0 ? 0 : surfacedHits / Math.min(relevant.size, k),
    recall: relevant.size === 0 ? 0 : hits / Math.min(relevant.size, k),
    precision: top.length === 0 ? 0 : hits / top.length,
    ndcg: ideal === 0 ? 0 : dcg / ideal,
    mustHits: top.filter((id) => must.has(id)).length,
  };
}

const mean = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);


function summarise(rows: Judged[]): Metrics {
  const task = rows.filter((r) => !r.query.hook && r.query.relevant.length > 0);
  const none = rows.filter((r) => !r.query.hook && r.query.relevant.length === 0);
  const hook = rows.filter((r) => r.query.hook && r.query.relevant.length > 0);
  const hookNone = rows.filter((r) => r.query.hook && r.query.relevant.length === 0);
  const micro = (rs: Judged[]): number | null => {
    const total = rs.reduce((sum, r) => sum + r.query.must.length, 0);
    return total === 0 ? null : rs.reduce((sum, r) => sum + r.mustHits, 0) / total;
  };
  return {
    surfaced: mean(task.map((r) => r.surfaced)),
    relatedNoMatch: mean(none.map((r) => r.related.length)),
    tokensNoMatch: median(none.map((r) => r.tokens)) ?? 0,
    silent: task.filter((r) => r.selected.length + r.related.length === 0).length,
    recall: mean(task.map((r) => r.recall)),
    precision: mean(task.map((r) => r.precision)),
    ndcg: mean(task.map((r) => r.ndcg)),
    must: micro(task),
    noMatchFP: mean(none.map((r) => (r.selected.length > 0 ? 1 : 0))),
    hookRecall: mean(hook.map((r) => r.recall)),
    hookMust: micro(hook),
    hookFP: mean(hookNone.map((r) => (r.selected.length > 0 ? 1 : 0))),
    avgReturned: mean(rows.map((r) => r.selected.length)),
  };
}

/**
 * The same lesson written the way many incident lists are: its title and one paragraph of prose,
 * with no summary, tags, triggers, checklist or sections. Ranking should not depend on a team's
 * house style; this variant shows what it does when the structure is gone.
 */
export function asOneParagraph(lesson: Lesson): Lesson {
  const prose = narrative(lesson.body)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !/^[-*+] /.test(line) && !/^Sources?:/i.test(line))
    .join(' ');
  return { ...lesson, summary: null, tags: [], triggers: emptyTriggers(), body: `${prose}\n` };
}

/** A 32-bit FNV-1a hash: a seeded order of lessons that does not depend on their ids' wording. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * A small team's repository cut from a labelled one: `size` of its lessons (not retired) in a
 * hashed order, as a team that wrote down a handful of incidents has; the task queries whose
 * relevant lessons include one of them, labelled with those alone; every query labelled with
 * none (still unrelated to every lesson).
 */
export function smallRepository<T extends { lesson: Lesson }>(loaded: readonly T[], queries: readonly Query[], size: number): { loaded: T[]; queries: Query[] } {
  const kept = loaded
    .filter(({ lesson }) => lesson.status !== 'retired')
    .sort((a, b) => fnv1a(a.lesson.id) - fnv1a(b.lesson.id) || (a.lesson.id < b.lesson.id ? -1 : 1))
    .slice(0, size);
  const ids = new Set(kept.map(({ lesson }) => lesson.id));
  const within = queries
    .filter((query) => query.relevant.length === 0 || query.relevant.some((id) => ids.has(id)))
    .map((query) => ({ ...query, relevant: query.relevant.filter((id) => ids.has(id)), must: query.must.filter((id) => ids.has(id)) }));
  return { loaded: kept, queries: within };
}

/**
 * Scores one repository: preflight (task text with tool calls, and tool calls alone) and the
 * BM25 baseline; `paragraph` rewrites every lesson as one paragraph first (asOneParagraph).
 */
/** A labelled repository's lessons in a search index held in memory, with its queries (cut to `small` lessons when asked). */
function openRepository(dir: string, paragraph = false, small?: number) {
  const repository = loadRepository(dir);
  const { lessonsRoot } = repository;
  const all = loadLessons(lessonsRoot).lessons.map((item) => (paragraph ? { ...item, lesson: asOneParagraph(item.lesson) } : item));
  const { loaded, queries } = small === undefined ? { loaded: all, queries: repository.queries } : smallRepository(all, repository.queries, small);
  const entries = buildIndex(loaded).lessons;
  const bodies = new Map(loaded.map(({ lesson }) => [lesson.id, narrative(lesson.body)]));
  const bytes = buildSearchIndex(entries, { digest: '', stat: null, verifiedMtimeMs: 0 }, { bodies, thesaurus: readThesaurus() });
  return { lessonsRoot, loaded, queries, entries, index: SearchIndex.open(memorySource(bytes))! };
}

export function evaluate(dir = EVAL_DIR, name = path.basename(dir), paragraph = false, small?: number): Evaluation {
  const { lessonsRoot, loaded, queries, entries, index } = openRepository(dir, paragraph, small);
  const files = new Map(
    loaded
      .filter(({ lesson }) => lesson.status !== 'retired')
      .map(({ lesson, path: file }) => [lesson.id, paragraph ? `${lesson.title}\n${lesson.body}` : fs.readFileSync(path.join(lessonsRoot, file), 'utf8')]),
  );
  const baseline = bm25Baseline(files);
  const select = (query: Query, hookOnly: boolean): Judged => {
    const input = inputOf(query, hookOnly);
    const selection = selectFromIndex(index, input, DEFAULT_POLICY, EVAL_NOW);
    const { selected, related } = selection;
    const tokens = printedTokens(input, selection);
    const ids = (lessons: readonly { id: string }[]): string[] => lessons.map((lesson) => lesson.id);
    return judge(query, ids(selected), ids(related), tokens);
  };
  const rows = queries.map((q) => select(q, false));
  const unrelated = queries.filter((q) => !q.hook && q.relevant.length === 0).map((q) => q.task);
  const longPrompts = unrelated.map((_, i) => Array.from({ length: Math.min(LONG_JOIN, unrelated.length) }, (__, j) => unrelated[(i + j) % unrelated.length]).join('. '));
  const applies = (task: string): number => (selectFromIndex(index, { task, paths: [], tool: null, command: null, project: null }, DEFAULT_POLICY, EVAL_NOW).selected.length > 0 ? 1 : 0);
  const longNoMatchFP = mean(longPrompts.map(applies));
  const terseNoMatchFP = mean(unrelated.flatMap(terseCuts).map(applies));
  const hookRows = queries.map((q) => (q.hook ? select(q, true) : select(q, false)));
  const bm25Rows = queries.map((q) => judge(q, baseline([q.task, q.hook?.command ?? '', q.hook?.path ?? ''].join(' '))));
  const describe = (r: Judged, mode: string): string => {
    const k = r.query.hook ? K_HOOK : K_TASK;
    const missing = r.query.relevant.filter((id) => !r.selected.slice(0, k).includes(id)).map((id) => (r.query.must.includes(id) ? `**${id}` : id));
    const extra = r.selected.filter((id) => !r.query.relevant.includes(id));
    return `${r.query.id}${mode} ${JSON.stringify(r.query.task)}${r.query.hook ? ` ${JSON.stringify(r.query.hook)}` : ''}\n    missing [${missing.join(', ')}]\n    extra [${extra.join(', ')}]`;
  };
  const missed = (r: Judged): boolean => r.recall < 1 || (r.query.relevant.length === 0 && r.selected.length > 0);
  const misses = [
    ...rows.filter(missed).map((r) => describe(r, '')),
    ...hookRows.filter((r) => r.query.hook && missed(r)).map((r) => describe(r, ' (hook only)')),
  ];
  const ranked = (): RankedQuery[] => queries.map((query): RankedQuery => {
    const relevant = new Set(query.relevant);
    const lessons = rankLessons(index, buildQuery(inputOf(query, false), VOCABULARY), DEFAULT_POLICY, EVAL_NOW)
      .slice(0, RANKED_DEPTH)
      .map((r) => {
        const id = index.id(r.doc);
        return { id, level: r.meta.level, score: r.score, evidence: r.evidence, coverage: r.coverage, trigger: r.trigger !== undefined, relevant: relevant.has(id) };
      });
    return { repository: name, id: query.id, task: query.task, hook: query.hook, relevant: query.relevant, lessons };
  });
  return { name, lessons: entries.length, longNoMatchFP, terseNoMatchFP, preflight: summarise(rows), hookOnly: summarise(hookRows), bm25: summarise(bm25Rows), misses, ranked };
}

/** Selection quality after a reviewer judged both tiers, as `preflight --rerank` does (Evaluation.preflight's figures). */
export interface JudgedEvaluation {
  name: string;
  judged: Metrics;
  /** Queries the reviewer was asked about (task text, and something found), and those where it failed (the plain ranking stood). */
  asked: number;
  failed: number;
}

/**
 * Scores one repository with every query that has task text judged by `reviewer` (an argv, as
 * the policy's review.command), the related tier REVIEW_POOL deep, as `preflight --rerank` and
 * `lessons eval --rerank` do: what the apply tier becomes when the judge in the loop decides.
 * Hook-only calls are never judged (hooks have no reviewer). One reviewer run a query.
 */
export async function evaluateJudged(dir: string, name: string, reviewer: readonly string[]): Promise<JudgedEvaluation> {
  const { lessonsRoot, queries, index } = openRepository(dir);
  const policy = { ...DEFAULT_POLICY, review: { ...DEFAULT_POLICY.review, command: [...reviewer] } };
  const rows: Judged[] = [];
  let asked = 0;
  let failed = 0;
  for (const query of queries) {
    const { selection, asked: judged, failed: fell } = await reviewedSelection(lessonsRoot, inputOf(query, false), index, policy, EVAL_NOW);
    if (judged) asked++;
    if (fell) failed++;
    rows.push(judge(query, selection.selected.map((lesson) => lesson.id), selection.related.map((lesson) => lesson.id)));
  }
  return { name, judged: summarise(rows), asked, failed };
}

export function formatJudged(results: readonly JudgedEvaluation[]): string {
  const lines = ['| repository, judged by the reviewer | R@5 | P@5 | nDCG@5 | noMatchFP | must@5 | surfR@5 | hookR@3 | hookMust@3 | reviewer failed |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const r of results) {
    const p = r.judged;
    lines.push(`| ${r.name} | ${fmt(p.recall)} | ${fmt(p.precision)} | ${fmt(p.ndcg)} | ${fmt(p.noMatchFP)} | ${fmt(p.must)} | ${fmt(p.surfaced)} | ${fmt(p.hookRecall)} | ${fmt(p.hookMust)} | ${r.failed} of ${r.asked} |`);
  }
  return lines.join('\n');
}

/** A small team's repository (#40: under about 20 lessons; the unseen one had 8). */
const SMALL_SIZE = 10;

export const TARGETS = { recall: 0.85, noMatchFP: 0.1, must: 1 } as const;

const fmt = (value: number | null): string => (value === null ? '   -' : value.toFixed(2));

export function formatEvaluations(results: readonly Evaluation[]): string {
  const lines = [
    '| repository | lessons | R@5 | P@5 | nDCG@5 | noMatchFP | long NM FP | terse NM FP | must@5 | surfR@5 | silent | relNM | tokNM | hookR@3 | hookMust@3 | hookFP | hook-only must@3 | hook-only FP | BM25 R@5 | BM25 P@5 | BM25 noMatchFP |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    const p = r.preflight;
    lines.push(
      `| ${r.name} | ${r.lessons} | ${fmt(p.recall)} | ${fmt(p.precision)} | ${fmt(p.ndcg)} | ${fmt(p.noMatchFP)} | ${fmt(r.longNoMatchFP)} | ${fmt(r.terseNoMatchFP)} | ${fmt(p.must)} | ${fmt(p.surfaced)} | ${p.silent} | ${p.relatedNoMatch.toFixed(1)} | ${p.tokensNoMatch} | ${fmt(p.hookRecall)} | ${fmt(p.hookMust)} | ${fmt(p.hookFP)} | ${fmt(r.hookOnly.hookMust)} | ${fmt(r.hookOnly.hookFP)} | ${fmt(r.bm25.recall)} | ${fmt(r.bm25.precision)} | ${fmt(r.bm25.noMatchFP)} |`,
    );
  }
  return lines.join('\n');
}

/** `--reviewer '<argv as a JSON array>'`, with {schema}, {output} and {root} as in the policy's review.command. */
function parseReviewer(text: string | undefined): string[] {
  let argv: unknown;
  try {
    argv = JSON.parse(text ?? '');
  } catch {
    argv = undefined;
  }
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((arg) => typeof arg === 'string')) {
    throw new Error('--reviewer takes the reviewer command as a JSON array of strings, as review.command in the policy (e.g. \'["codex","exec","--output-schema","{schema}","-o","{output}","-"]\')');
  }
  return argv as string[];
}

/**
 * `npm run eval [-- <repository>...] [--misses] [--paragraph] [--small] [--ranked <file>] [--rerank [--reviewer '<argv>']]`: the own fixture and
 * every repository named (a folder with lessons/ and queries.json), one row each; `--paragraph`
 * adds a row per repository with every lesson rewritten as one paragraph (asOneParagraph);
 * `--small` a row per repository cut to SMALL_SIZE lessons (smallRepository); `--rerank` a table
 * of each repository judged by the reviewer (evaluateJudged: the policy's default review.command,
 * or `--reviewer`), one reviewer run a query.
 */
export async function bench(): Promise<void> {
  const args = process.argv.slice(2);
  const rankedAt = args.indexOf('--ranked');
  const reviewerAt = args.indexOf('--reviewer');
  const valueAt = new Set([rankedAt, reviewerAt].filter((i) => i >= 0).map((i) => i + 1));
  const dirs = [EVAL_DIR, ...args.filter((a, i) => !a.startsWith('--') && !valueAt.has(i)).map((a) => path.resolve(a))];
  const names = dirs.map((dir) => (dir === EVAL_DIR ? 'own fixture' : path.basename(dir)));
  const results = dirs.map((dir, i) => evaluate(dir, names[i]));
  if (args.includes('--paragraph')) results.push(...dirs.map((dir, i) => evaluate(dir, `${names[i]} (one paragraph)`, true)));
  if (args.includes('--small')) results.push(...dirs.map((dir, i) => evaluate(dir, `${names[i]} (${SMALL_SIZE} lessons)`, false, SMALL_SIZE)));
  process.stdout.write(`Preflight selection quality beside plain BM25 over whole lesson files\n\n${formatEvaluations(results)}\n`);
  if (args.includes('--misses')) for (const r of results) process.stdout.write(`\n== ${r.name}\n${r.misses.join('\n')}\n`);
  if (args.includes('--rerank')) {
    const reviewer = reviewerAt >= 0 ? parseReviewer(args[reviewerAt + 1]) : DEFAULT_POLICY.review.command;
    const judged = [];
    for (const [i, dir] of dirs.entries()) judged.push(await evaluateJudged(dir, names[i]!, reviewer));
    process.stdout.write(`\nThe same, every query with task text judged by the reviewer \`${reviewer.join(' ')}\` (the related tier ${REVIEW_POOL} deep, as preflight --rerank)\n\n${formatJudged(judged)}\n`);
  }
  if (rankedAt >= 0) {
    const file = args[rankedAt + 1];
    if (file === undefined || file.startsWith('--')) throw new Error('--ranked takes the file to write the rankings to (JSON lines, one query a line)');
    fs.writeFileSync(file, results.flatMap((r) => r.ranked().map((query) => JSON.stringify(query))).join('\n') + '\n');
  }
}
