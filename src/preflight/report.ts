import type { Insight, Kind, Level, Severity, Status } from '../lesson/model.js';
import { jsonReporter, reporter, type OutputFormat, type Reporters } from '../render/registry.js';
import type { RerankOutcome } from '../review/rerank.js';

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

export interface PreflightReport {
  task: string;
  paths: string[];
  tool: string | null;
  command: string | null;
  project: string | null;
  mode: 'task' | 'hook';
  /** In rank order. */
  selected: SelectedLesson[];
  /** Lessons that were selected but left out to fit --budget. */
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
  return [
    `rerank: the reviewer kept ${n} of ${n + rerank.dropped.length} lesson${n + rerank.dropped.length === 1 ? '' : 's'}`,
    ...rerank.dropped.map((item) => `  dropped ${item.id}: ${item.applicability}`),
  ];
}

export function formatText(report: PreflightReport, summary: (id: string) => string): string {
  const context = describeContext(report);
  if (report.selected.length === 0) {
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
  lines.push('', ...omittedNote(report), `receipt: ${report.receipt}`);
  return lines.join('\n') + '\n';
}

const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

export function formatMarkdown(report: PreflightReport, summary: (id: string) => string): string {
  const note = rerankNote(report);
  const lines = [`### Lessons preflight: ${describeContext(report)}`, '', ...(note.length > 0 ? [...note, ''] : [])];
  if (report.selected.length === 0) {
    lines.push(`No lessons selected. ${report.message ?? ''}`.trim(), ...omittedNote(report));
    return lines.join('\n') + '\n';
  }
  for (const group of grouped(report)) {
    lines.push(`**${group.title}**`, '');
    for (const { lesson } of group.lessons) {
      lines.push(`- **${lesson.title}** (${[code(lesson.id), lesson.status, lesson.severity, ...labels(lesson)].join(', ')}): ${lesson.reasons.join('; ')}`);
      for (const item of checklistOrSummary(lesson, summary)) lines.push(`  ${item}`);
    }
    lines.push('');
  }
  lines.push(...omittedNote(report), `Receipt: ${code(report.receipt)}, index ${code(report.index_digest.slice(0, 12))}`);
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
 * Renders the report, dropping whole lessons from the bottom of the ranking until the
 * output fits `budget` tokens (or nothing is left to drop).
 */
export function renderWithinBudget(
  report: PreflightReport,
  format: OutputFormat,
  budget: number | undefined,
  summary: (id: string) => string,
): { report: PreflightReport; output: string } {
  let current = report;
  let output = formatReport(current, format, summary);
  while (budget !== undefined && estimateTokens(output) > budget && current.selected.length > 0) {
    current = { ...current, selected: current.selected.slice(0, -1), omitted_by_budget: current.omitted_by_budget + 1 };
    output = formatReport(current, format, summary);
  }
  return { report: current, output };
}
