import path from 'node:path';
import { LessonsError, UsageError } from '../errors.js';
import { compileIncidentPatterns } from '../guard/commits.js';
import { listSessions } from '../agent/session.js';
import { buildIndex } from '../index/build.js';
import { FILE_CACHE_DIR } from '../store/file-cache.js';
import { readText, readTextIfExists, walkFiles, writeFileAtomic, writeInRepo } from '../io/fs.js';
import { isDirectory, pathExists } from '../io/paths.js';
import { pathInside } from '../io/inside.js';
import { ensureStateDir } from '../io/state.js';
import { changesBetweenDates, commitLog, repositoryFiles } from '../io/git/log.js';
import { findRepoRoot, LESSONS_DIR } from '../io/repo.js';
import { loadWorktreeFacts, openLessonCache, type LessonFileCache } from '../store/worktree.js';
import { unparsedFiles, type UnparsedFile } from '../store/query.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { readThesaurusText, shippedAcronymsText, stemmedRelatives } from '../search/engine.js';
import { isIsoDate, toIsoDate } from '../util/dates.js';
import { renderHtml } from './html.js';
import { buildReport, likenessKey, likenessOf, type Likeness, type Report } from './report.js';
import type { RetrievalHealth } from './retrieval.js';

export const EVALS_FILE = `${LESSONS_DIR}/evals.json`;

export interface ReportOptions {
  cwd: string;
  now: Date;
  /**
   * The `lessons eval` run over lessons/evals.json: the one input of the retrieval-health
   * section. Without it the section says whether evals.json exists and that no run was given.
   */
  retrieval?: RetrievalHealth | undefined;
}

/**
 * The retrieval-health input: `lessons eval` over lessons/evals.json, when the file exists.
 * A file `lessons eval` refuses gives no run (the page says the file exists but was not run;
 * `lessons eval` says why).
 */
export async function retrievalHealth(options: { cwd: string; now: Date }): Promise<RetrievalHealth | undefined> {
  const root = findRepoRoot(options.cwd);
  if (!pathExists(path.join(root, EVALS_FILE))) return undefined;
  const { runEval } = await import('../eval/eval.js');
  let result;
  try {
    ({ result } = await runEval({ cwd: root, now: options.now }));
  } catch (error) {
    if (error instanceof LessonsError) return undefined;
    throw error;
  }
  return {
    cases: result.cases.length,
    recall: result.recall ?? 1,
    false_positive_rate: result.false_positive_rate ?? 0,
    thresholds: result.thresholds,
    misses: result.cases.filter((c) => c.misses.length > 0).map((c) => ({ id: c.name, missing: c.misses.map((miss) => miss.id) })),
  };
}

const YEAR_MS = 365 * 86_400_000;

/** The report, and the lesson files it could not count because they do not parse. */
export async function reportLessons(options: ReportOptions): Promise<Report & { unparsed: UnparsedFile[] }> {
  const root = findRepoRoot(options.cwd);
  // git reads the history while the lessons load (their load keeps this process busy, not git).
  const history = Promise.all([commitLog(root), repositoryFiles(root), changesBetweenDates(root, new Date(options.now.getTime() - YEAR_MS), options.now)]);
  history.catch(() => undefined);
  // The lessons as the file cache summarises them: only files changed since the last run are parsed.
  const cache = openLessonCache(root);
  const { tree } = await loadWorktreeFacts(root, cache, {});
  const { lessons } = tree;
  await cache.save();
  const index = buildIndex(lessons);
  const policy = loadPolicy(root);
  const patterns = compileIncidentPatterns(policy.incident);
  if ('error' in patterns) throw new LessonsError('INVALID_POLICY', `${patterns.error}: fix it in policy/workflow-policy.json`);
  const [commits, listed, changed] = await history;
  // Without a history, the files on disk and no recent changes.
  const [files, recent] = commits === undefined ? [undefined, undefined] : [listed, changed];
  // The first of two files with one id is the lesson, as in the index; lint reports the clash.
  const chosen = new Set(index.lessons.map((entry) => entry.path));
  // Near-duplicates in preflight's text model, with its thesaurus: as the last report found them when no text they compare changed.
  const thesaurus = await readThesaurusText();
  const lessonsChosen = lessons.filter((item) => chosen.has(item.path)).map((item) => item.lesson);
  const key = likenessKey(lessonsChosen, index.lessons, policy, thesaurus, shippedAcronymsText());
  let likeness = rememberedLikeness(root, cache, key);
  if (likeness === undefined) {
    likeness = likenessOf(lessonsChosen, index.lessons, policy, stemmedRelatives(thesaurus));
    rememberLikeness(root, cache, key, likeness);
  }
  const report = buildReport({
    likeness,
    lessons: lessonsChosen,
    index: index.lessons,
    policy,
    today: toIsoDate(options.now),
    history: { commits, sessions: listSessions(root), incident: { patterns: [...patterns.block, ...patterns.warn], trailers: policy.incident.trailers } },
    // Outside git: the files on disk, without dot-folders (.git, .lessons) and node_modules.
    files: files ?? walkFiles(root, { skipFolder: (name) => name.startsWith('.') || name === 'node_modules' }),
    scripts: packageScripts(root),
    recent,
    evalsFile: pathExists(path.join(root, EVALS_FILE)),
    retrieval: options.retrieval,
    code: new Map(lessons.filter((item) => chosen.has(item.path)).map((item) => [item.lesson.id, item.precomputed?.code ?? { spans: [], lines: [] }])),
  });
  return { ...report, unparsed: unparsedFiles(tree) };
}

/** Where the last report's likeness is kept, with the digest of what it was computed from. */
const LIKENESS_FILE = `${FILE_CACHE_DIR}/report-likeness.json`;

/** The likeness the last report computed, when it was computed from the text of `key` under this cache's key (code, policy). */
function rememberedLikeness(root: string, cache: LessonFileCache, key: string): Likeness | undefined {
  try {
    const stored = JSON.parse(readTextIfExists(pathInside(root, LIKENESS_FILE)) ?? 'null') as { cache?: unknown; key?: unknown; likeness?: Likeness } | null;
    const likeness = stored?.likeness;
    if (stored?.cache !== cache.keyOf() || stored.key !== key || !Array.isArray(likeness?.duplicates) || !Array.isArray(likeness.cases)) return undefined;
    return likeness;
  } catch {
    return undefined;
  }
}

function rememberLikeness(root: string, cache: LessonFileCache, key: string, likeness: Likeness): void {
  try {
    ensureStateDir(root);
    writeInRepo(root, LIKENESS_FILE, JSON.stringify({ cache: cache.keyOf(), key, likeness }), { durable: false });
  } catch {
    // Not writable: the next report computes it again.
  }
}

/** The script names of the root package.json; undefined without a readable one. */
function packageScripts(root: string): Set<string> | undefined {
  try {
    const data = JSON.parse(readText(path.join(root, 'package.json'))) as { scripts?: unknown };
    return new Set(data.scripts !== null && typeof data.scripts === 'object' ? Object.keys(data.scripts) : []);
  } catch {
    return undefined;
  }
}

/** `--now`: a calendar date, read as midnight UTC. */
export function parseReportDate(value: string): Date {
  if (!isIsoDate(value)) throw new UsageError(`--now takes a date written YYYY-MM-DD, not '${value}'`);
  return new Date(`${value}T00:00:00Z`);
}

/**
 * Writes the HTML report to `file` atomically. The folder must exist: a typo in it is refused
 * rather than created.
 */
export function writeHtmlReport(file: string, report: Report): void {
  const folder = path.dirname(file);
  if (!isDirectory(folder)) throw new UsageError(`cannot write ${file}: no folder ${folder}; create it first or choose another path`);
  if (isDirectory(file)) throw new UsageError(`cannot write ${file}: it is a folder; give a file name such as ${path.join(file, 'lessons-report.html')}`);
  writeFileAtomic(file, renderHtml(report));
}
