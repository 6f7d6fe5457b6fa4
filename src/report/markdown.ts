/**
 * The report as GitHub-flavoured markdown, short enough for a job summary or a PR comment:
 * the figures of every section and the first rows of each list. Lesson strings are escaped.
 */
import { LEVELS, STATUSES } from '../lesson/model.js';
import { escapeMarkdown as m } from './markup.js';
import type { Report } from './report.js';

/** Rows a list shows in markdown. */
export const MARKDOWN_ROWS = 10;

function table(headings: readonly string[], rows: readonly (readonly (string | number)[])[], empty: string): string[] {
  if (rows.length === 0) return [`_${empty}_`, ''];
  const lines = [`| ${headings.join(' | ')} |`, `|${headings.map(() => '---').join('|')}|`, ...rows.slice(0, MARKDOWN_ROWS).map((cells) => `| ${cells.map(m).join(' | ')} |`)];
  if (rows.length > MARKDOWN_ROWS) lines.push('', `_and ${rows.length - MARKDOWN_ROWS} more_`);
  return [...lines, ''];
}

const pct = (rate: number): string => `${Math.round(rate * 1000) / 10}%`;

export function renderMarkdown(report: Report): string {
  const { usage, efficacy, drift, retrieval } = report;
  const lines: string[] = [
    `## Lessons report (${m(report.today)})`,
    '',
    `**${report.total}** lessons, **${report.stale.length}** stale, **${report.candidates.length}** candidates, **${efficacy.not_working}** not working.`,
    '',
    '### The tree',
    '',
    ...table(['level', ...STATUSES], LEVELS.map((level) => [level, ...STATUSES.map((status) => report.counts[level][status])]), 'no lessons'),
    `Promotion graph: ${report.graph.nodes.length} lessons linked by ${report.graph.edges.length} promotions.`,
    '',
    '### Aging',
    '',
    `${report.stale.length} lessons not validated for more than ${report.stale_after_days} days; ${report.aging.never} never validated.`,
    '',
    ...table(['lesson', 'last validated', 'days', 're-validate'], report.stale.map((item) => [item.id, item.last_validated_at ?? 'never', item.days ?? '-', item.command]), 'no lesson is past the limit'),
    '### Use',
    '',
    usage.available || usage.sessions > 0
      ? `${usage.commits_with_trailer} commits with a Lessons-Preflight trailer, ${usage.sessions} hook sessions; ${usage.lessons.length} lessons selected, ${usage.never_used.length} never selected.`
      : 'No git history and no hook session records to read.',
    '',
    ...table(['lesson', 'selected', 'last selected'], usage.lessons.map((item) => [item.id, item.selected, item.last_selected ?? '-']), 'no lesson selected yet'),
    '### Efficacy',
    '',
    `${efficacy.lessons.length} lessons shown before work; ${efficacy.not_working} recurred afterwards (not working).`,
    '',
    ...table(
      ['lesson', 'verdict', 'first shown', 'recurred'],
      efficacy.lessons.filter((item) => !item.working).map((item) => [item.id, 'not working', item.first_shown, item.recurrences.map((r) => `${r.kind} ${r.ref} (${r.date})`).join(', ')]),
      'no lesson recurred after it was shown',
    ),
    '### Drift',
    '',
    `${drift.dead_paths.length} trigger paths match no file, ${drift.missing_references.length} references to missing files or scripts, ` +
      (drift.history_available ? `${drift.quiet.length} lessons match nothing changed in a year.` : 'no git history for the last year.'),
    '',
    ...table(
      ['lesson', 'drift'],
      [
        ...drift.dead_paths.map((item) => [item.id, `trigger path ${item.glob} matches no file`]),
        ...drift.missing_references.map((item) => [item.id, `${item.kind} ${item.reference} no longer exists`]),
      ],
      'no dead trigger path or missing reference',
    ),
    '### Backlog',
    '',
    `${report.candidates.length} candidates (${report.auto_candidates} auto-captured, cap ${report.max_auto_candidates}), ${report.ready_to_promote.length} ready to promote, ${report.duplicates.length} near-duplicate clusters.`,
    '',
    ...table(['promote to', 'lessons', 'command'], report.ready_to_promote.map((item) => [item.to, item.ids.join(', '), item.command]), 'nothing is ready to promote'),
    '### Retrieval health',
    '',
    retrieval.result === null
      ? retrieval.evals_file
        ? 'lessons/evals.json exists, but no eval run was given: run `lessons eval`.'
        : 'No lessons/evals.json.'
      : `Recall ${pct(retrieval.result.recall)} (min ${pct(retrieval.result.thresholds.min_recall)}), false positives ${pct(retrieval.result.false_positive_rate)} ` +
        `(max ${pct(retrieval.result.thresholds.max_false_positive_rate)}) over ${retrieval.result.cases} tasks: **${retrieval.passing ? 'passing' : 'failing'}**.`,
    '',
  ];
  return lines.join('\n');
}
