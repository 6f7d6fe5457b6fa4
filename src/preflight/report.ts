import type { Insight, Kind, Level, Severity, Status } from '../lesson/model.js';
import { jsonReporter, reporter, type OutputFormat, type Reporters } from '../render/registry.js';
import type { RerankOutcome } from '../review/rerank.js';
import type { PreflightInput } from './query.js';

/** One lesson as preflight shows it; also the shape of `selected[]` in --json. */
export interface SelectedLesson {
  id: string;
  level: Level;
  status: Status;
  severity: Severity;
  title: string;
  path: string;
  score: number;
  reasons: string[];
  checklist: string[];
  /** Always set by preflight (null when the lesson declares none); other callers may leave them out. */
  kind?: Kind | null;
  insight?: Insight | null;
}

/** A related entry: below the lessons that apply, shown in one line for the reader to open or ignore; `related[]` in --json. */
export interface RelatedLesson {
  id: string;
  /** The shortest prefix of the id that opens it (`lessons show <handle>`): what the one-line entry prints. */
  handle: string;
  title: string;
  level: Level;
  path: string;
  score: number;
  reasons: string[];
}

/** What preflight answers (its --json output): what was asked, and the lessons of both tiers. */
export interface PreflightReport extends PreflightInput {
  mode: 'task' | 'hook';
  /** The apply tier, in rank order. */
  selected: SelectedLesson[];
  /** The related tier, in rank order: lessons below the apply tier worth a look, one line each. */
  related: RelatedLesson[];
  /** Lessons of either tier that were selected but left out to fit --budget. */
  omitted_by_budget: number;
  /** Set when nothing was selected: why. */
  message: string | null;
  index_digest: string;
  receipt: string;
  /** Set with --rerank: what the reviewer decided, or why the plain ranking stands. */
  rerank?: RerankOutcome;
}

const GROUPS: [Level, string][] = [
  ['principle', 'Principles'],
  ['pattern', 'Patterns'],
  ['case', 'Supporting cases'],
];

/** What a reader of `--budget` is told: a token is about four characters. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function describeContext(report: PreflightReport): string {
  if (report.task.trim() !== '') return `"${report.task}"`;
  const parts = [
    report.tool === null ? '' : `tool ${report.tool}`,
    report.paths.length === 0 ? '' : `paths ${report.paths.join(', ')}`,
    report.command === null ? '' : `command \`${report.command}\``,
  ].filter(Boolean);
  return parts.join('; ');
}

function grouped(report: PreflightReport): { title: string; lessons: { rank: number; lesson: SelectedLesson }[] }[] {
  const ranked = report.selected.map((lesson, i) => ({ rank: i + 1, lesson }));
  return GROUPS.map(([level, title]) => ({ title, lessons: ranked.filter((r) => r.lesson.level === level) })).filter((g) => g.lessons.length > 0);
}

function omittedNote(report: PreflightReport): string[] {
  if (report.omitted_by_budget === 0) return [];
  const n = report.omitted_by_budget;
  return [`(${n} lower-ranked lesson${n === 1 ? '' : 's'} left out to fit the --budget)`];
}

/** The kind and insight a lesson declares, when it declares them: `warning · critical error`. */
function labels(lesson: SelectedLesson): string[] {
  return [lesson.kind ?? null, lesson.insight?.replace(/_/g, ' ') ?? null].filter((label): label is string => label !== null);
}

function checklistOrSummary(lesson: SelectedLesson, summary: (id: string) => string): string[] {
  return lesson.checklist.length > 0 ? lesson.checklist.map((item) => `- [ ] ${item}`) : [`summary: ${summary(lesson.id)}`];
}

/** What --rerank did: the lessons the reviewer turned down, or why its verdicts were not used. */
function rerankNote(report: PreflightReport): string[] {
  const rerank = report.rerank;
  if (!rerank) return [];
  if (rerank.status === 'failed') {
    return [`rerank: the reviewer failed, so this is the plain ranking: ${rerank.problem?.message ?? 'no answer'}`, ...(rerank.problem ? [`  fix: ${rerank.problem.fix}`] : [])];
  }
  const n = report.selected.length;
  const promoted = rerank.promoted ?? [];
  const before = n - promoted.length + rerank.dropped.length;
  return [
    `rerank: the reviewer kept ${n - promoted.length} of ${before} lesson${before === 1 ? '' : 's'} that applied${promoted.length > 0 ? ` and promoted ${promoted.length} related` : ''}`,
    ...rerank.dropped.map((item) => `  dropped ${item.id}: ${item.applicability}`),
    ...promoted.map((id) => `  promoted ${id}`),
  ];
}

export const RELATED_HINT = '`lessons show <id>` opens one that fits; ignore the rest';
/** The same, where nothing applies: the whole answer is a heading and a few one-line entries. */
const SHORT_RELATED_HINT = 'lessons show <id>';

/** The most characters a related entry takes (about 20 tokens). */
const RELATED_LINE = 80;

/** The shortest why of a related entry: the task words it matched (or that a trigger matched). */
export function briefWhy(reasons: readonly string[]): string {
  const matched = reasons.find((reason) => reason.startsWith('matched '));
  if (matched) {
    const found = [...matched.matchAll(/"([^"]+)"(?: ~ "[^"]*" \([a-z ]+\))?/g)].map((m) => m[1]!);
    return [...new Set(found)].slice(0, 3).join(', ');
  }
  if (reasons.some((reason) => reason.startsWith('trigger: '))) return 'trigger';
  // Relevance that flowed along a promotion link: the linked lesson is what matched.
  const via = reasons.find((reason) => reason.startsWith('distilled from ') || reason.startsWith('a source of '));
  return via ? `via ${via.slice(via.lastIndexOf(' ') + 1).split('-')[0]}` : '';
}

/**
 * One related entry in one line of at most RELATED_LINE characters: `handle: title (why)`. The
 * reader judges by the title, so the why gives way before the title is shortened, and the title
 * is shortened to fit (never below MIN_TITLE characters).
 */
export function relatedLine(lesson: RelatedLesson, prefix: string): string {
  const head = `${prefix}${lesson.handle}: `;
  const why = briefWhy(lesson.reasons);
  const withWhy = why === '' ? '' : ` (${why})`;
  const tail = head.length + lesson.title.length + withWhy.length <= RELATED_LINE ? withWhy : '';
  const room = Math.max(MIN_TITLE, RELATED_LINE - head.length - tail.length);
  const title = lesson.title.length <= room ? lesson.title : `${lesson.title.slice(0, room - 1).trimEnd()}…`;
  return `${head}${title}${tail}`;
}

/** The fewest characters of a title a related entry keeps. */
const MIN_TITLE = 24;

function relatedText(report: PreflightReport): string[] {
  if (report.related.length === 0) return [];
  return [`Related (${RELATED_HINT}):`, ...report.related.map((lesson) => relatedLine(lesson, '  - '))];
}

export function formatText(report: PreflightReport, summary: (id: string) => string): string {
  const context = describeContext(report);
  if (report.selected.length === 0) {
    if (report.related.length > 0) {
      // Short: most tasks that get here are unrelated to every lesson (the heading and three
      // entries stay within about 75 tokens), and the reader judges the titles.
      const related = report.related.map((lesson) => relatedLine(lesson, '  - '));
      return [`No lesson applies; related (${SHORT_RELATED_HINT}):`, ...related, ...rerankNote(report), ...omittedNote(report)].join('\n') + '\n';
    }
    return [`lessons preflight: no lessons for ${context}`, report.message ?? '', ...rerankNote(report), ...omittedNote(report), `receipt: ${report.receipt}`].filter(Boolean).join('\n') + '\n';
  }
  const n = report.selected.length;
  const lines = [`lessons preflight: ${n} lesson${n === 1 ? '' : 's'} for ${context}`, ...rerankNote(report)];
  for (const group of grouped(report)) {
    lines.push('', group.title);
    for (const { rank, lesson } of group.lessons) {
      lines.push(`${String(rank).padStart(3)}. ${lesson.title}`);
      lines.push(`     ${[lesson.id, lesson.status, lesson.severity, ...labels(lesson), lesson.path].join(' · ')}`);
      lines.push(`     why: ${lesson.reasons.join('; ')}`);
      for (const item of checklistOrSummary(lesson, summary)) lines.push(`     ${item}`);
    }
  }
  const related = relatedText(report);
  lines.push(...(related.length > 0 ? ['', ...related] : []), '', ...omittedNote(report), `receipt: ${report.receipt}`);
  return lines.join('\n') + '\n';
}

const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

export function formatMarkdown(report: PreflightReport, summary: (id: string) => string): string {
  const note = rerankNote(report);
  const lines = [`### Lessons preflight: ${describeContext(report)}`, '', ...(note.length > 0 ? [...note, ''] : [])];
  const related = report.related.length === 0 ? [] : [`**Related** (${RELATED_HINT}):`, '', ...report.related.map((lesson) => relatedLine({ ...lesson, handle: code(lesson.handle) }, '- ')), ''];
  if (report.selected.length === 0) {
    lines.push(`No lessons selected. ${report.message ?? ''}`.trim(), '', ...related, ...omittedNote(report));
    return lines.join('\n').trimEnd() + '\n';
  }
  for (const group of grouped(report)) {
    lines.push(`**${group.title}**`, '');
    for (const { lesson } of group.lessons) {
      lines.push(`- **${lesson.title}** (${[code(lesson.id), lesson.status, lesson.severity, ...labels(lesson)].join(', ')}): ${lesson.reasons.join('; ')}`);
      for (const item of checklistOrSummary(lesson, summary)) lines.push(`  ${item}`);
    }
    lines.push('');
  }
  lines.push(...related, ...omittedNote(report), `Receipt: ${code(report.receipt)}, index ${code(report.index_digest.slice(0, 12))}`);
  return lines.join('\n') + '\n';
}

/** Preflight's reporters; a lesson without a checklist shows its summary, which `summary` looks up. */
export function preflightReporters(summary: (id: string) => string): Reporters<PreflightReport> {
  return { text: (report) => formatText(report, summary), markdown: (report) => formatMarkdown(report, summary), json: jsonReporter };
}

export function formatReport(report: PreflightReport, format: OutputFormat, summary: (id: string) => string): string {
  return reporter(preflightReporters(summary), format)(report);
}

/**
 * Renders the report within `budget` tokens: the related entries go first (one line each, the
 * least confident), then whole lessons from the bottom of the apply tier, until the output fits
 * (or nothing is left to drop).
 */
export function renderWithinBudget(
  report: PreflightReport,
  format: OutputFormat,
  budget: number | undefined,
  summary: (id: string) => string,
): { report: PreflightReport; output: string } {
  let current = report;
  let output = formatReport(current, format, summary);
  while (budget !== undefined && estimateTokens(output) > budget && current.selected.length + current.related.length > 0) {
    current =
      current.related.length > 0
        ? { ...current, related: current.related.slice(0, -1), omitted_by_budget: current.omitted_by_budget + 1 }
        : { ...current, selected: current.selected.slice(0, -1), omitted_by_budget: current.omitted_by_budget + 1 };
    output = formatReport(current, format, summary);
  }
  return { report: current, output };
}
