import chalk from 'chalk';
import path from 'node:path';
import { LEVELS, STATUSES } from '../../src/lesson/model.js';
import type { Report } from '../../src/report/report.js';
import { defineCommand } from '../command.js';

const FORMATS = ['text', 'json', 'markdown'] as const;

export default defineCommand<{ json: boolean; format: (typeof FORMATS)[number] | undefined; html: string | undefined; now: string | undefined }>({
  command: 'report',
  describe: 'Aging, use, efficacy, drift and the backlog of the lessons, as text, JSON, markdown or an HTML page',
  example: 'lessons report --html lessons-report.html --format markdown',
  options: {
    json: { type: 'boolean', default: false, describe: 'Print the report as JSON (same as --format json)' },
    format: { type: 'string', choices: FORMATS, describe: 'What to print: text (default), json, or markdown for a job summary or a PR comment' },
    html: { type: 'string', requiresArg: true, describe: 'Also write the report as one self-contained HTML page to <file>' },
    now: { type: 'string', requiresArg: true, describe: 'The date the report describes, YYYY-MM-DD (default: today, UTC)' },
  },
  run: async (argv, io) => {
    const { parseReportDate, reportLessons, retrievalHealth, writeHtmlReport } = await import('../../src/report/command.js');
    const cwd = argv.C ?? process.cwd();
    const now = argv.now === undefined ? new Date() : parseReportDate(argv.now);
    const format = argv.format ?? (argv.json ? 'json' : 'text');
    const report = await reportLessons({ cwd, now, retrieval: await retrievalHealth({ cwd, now }) });
    if (argv.html !== undefined) writeHtmlReport(path.resolve(cwd, argv.html), report);
    if (format === 'json') io.out(JSON.stringify(report, null, 2));
    else if (format === 'markdown') io.out((await import('../../src/report/markdown.js')).renderMarkdown(report));
    else if (argv.html !== undefined && argv.format === undefined) io.out(`wrote ${argv.html}: ${report.total} lessons, ${report.stale.length} stale, ${report.efficacy.not_working} not working`);
    else io.out(formatReport(report));
    return 0;
  },
});
export function formatReport(report: Report): string {
  const lines: string[] = [chalk.bold(`${report.total} lesson${report.total === 1 ? '' : 's'}`)];
  const width = Math.max(...STATUSES.map((status) => status.length));
  lines.push(`  ${'level'.padEnd(10)}${STATUSES.map((status) => status.padStart(width + 1)).join('')}`);
  for (const level of LEVELS) lines.push(`  ${level.padEnd(10)}${STATUSES.map((status) => String(report.counts[level][status]).padStart(width + 1)).join('')}`);
  lines.push('', chalk.bold(`stale (not validated for more than ${report.stale_after_days} days): ${report.stale.length}`));
  for (const item of report.stale) lines.push(`  ${item.id}  ${item.last_validated_at === null ? 'never validated' : `${item.days} days (${item.last_validated_at})`}`);
  lines.push('', chalk.bold(`candidate backlog: ${report.candidates.length} (${report.auto_candidates} auto-captured, policy cap ${report.max_auto_candidates})`));
  for (const item of report.candidates) lines.push(`  ${item.id}  ${item.source}, since ${item.created_at ?? '?'}, occurrences ${item.occurrences}`);
  lines.push('', chalk.bold(`ready to promote: ${report.ready_to_promote.length}`));
  for (const item of report.ready_to_promote) {
    const why = item.to === 'pattern' ? `similar cases (similarity >= ${item.similarity})` : `applied in ${item.contexts.join(', ')}`;
    lines.push(`  to ${item.to}: ${item.ids.join(', ')}  ${chalk.dim(why)}`, `    ${item.command}`);
  }
  lines.push('', chalk.bold('preflight usage (Lessons-Preflight trailers and hook sessions)'));
  if (!report.usage.available && report.usage.sessions === 0) lines.push('  no git history to read');
  else if (report.usage.commits_with_trailer === 0 && report.usage.sessions === 0) lines.push('  no commit carries a Lessons-Preflight trailer yet');
  else {
    lines.push(`  ${report.usage.commits_with_trailer} commit${report.usage.commits_with_trailer === 1 ? '' : 's'} with a trailer, ${report.usage.sessions} hook session${report.usage.sessions === 1 ? '' : 's'}`);
    for (const item of report.usage.lessons) lines.push(`  ${item.id}  selected ${item.selected}x, last ${item.last_selected}`);
    if (report.usage.never_used.length > 0) lines.push(`  never selected: ${report.usage.never_used.join(', ')}`);
  }
  const { efficacy, drift } = report;
  lines.push('', chalk.bold(`efficacy: ${efficacy.lessons.length} shown before work, ${efficacy.not_working} not working (recurred afterwards)`));
  for (const item of efficacy.lessons.filter((lesson) => !lesson.working)) lines.push(`  ${item.id}  ${item.recurrences.map((r) => `${r.kind} ${r.ref} (${r.date})`).join(', ')}`);
  lines.push('', chalk.bold(`drift: ${drift.dead_paths.length} dead trigger paths, ${drift.missing_references.length} missing references, ${drift.history_available ? drift.quiet.length : '-'} quiet for a year`));
  for (const item of drift.dead_paths) lines.push(`  ${item.id}  trigger path ${item.glob} matches no file`);
  for (const item of drift.missing_references) lines.push(`  ${item.id}  ${item.kind} ${item.reference} no longer exists`);
  lines.push('', chalk.bold(`near-duplicate clusters: ${report.duplicates.length}`));
  for (const cluster of report.duplicates) lines.push(`  ${cluster.ids.join(', ')}  ${chalk.dim(`similarity >= ${cluster.similarity}`)}`);
  return lines.join('\n');
}
