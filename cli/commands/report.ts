import chalk from 'chalk';
import { LEVELS, STATUSES } from '../../src/lesson/model.js';
import type { Report } from '../../src/report/report.js';
import { defineCommand } from '../command.js';

export default defineCommand<{ json: boolean }>({
  command: 'report',
  describe: 'Counts, stale lessons, the candidate backlog, promotion candidates and preflight usage',
  builder: (yargs) => yargs.option('json', { type: 'boolean', default: false, describe: 'Print the report as JSON' }),
  run: async (argv, io) => {
    const { reportLessons } = await import('../../src/report/command.js');
    const report = await reportLessons({ cwd: argv.C ?? process.cwd(), now: new Date() });
    io.out(argv.json ? JSON.stringify(report, null, 2) : formatReport(report));
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
  lines.push('', chalk.bold(`recurring although shown: ${report.recurring.length}`));
  for (const item of report.recurring) {
    lines.push(`  ${item.id}  occurrences ${item.occurrences}, last ${item.last_seen}; shown since ${item.first_shown} (${item.shown_by.join(', ')})`);
  }
  if (report.recurring.length > 0) lines.push(chalk.dim('  these lessons were in front of the work and the mistake came back: sharpen their checklists or triggers'));
  lines.push('', chalk.bold(`near-duplicates: ${report.near_duplicates.length}`));
  for (const item of report.near_duplicates) {
    lines.push(`  ${item.level}s ${item.ids.join(', ')}  ${chalk.dim(`similarity >= ${item.similarity}`)}`);
  }
  if (report.near_duplicates.length > 0) lines.push(chalk.dim('  merge each cluster into one lesson, or mark the repeats with duplicate_of'));
  lines.push('', chalk.bold('preflight usage (Lessons-Preflight trailers)'));
  if (!report.usage.available) lines.push('  no git history to read');
  else if (report.usage.commits_with_trailer === 0) lines.push('  no commit carries a Lessons-Preflight trailer yet');
  else {
    lines.push(`  ${report.usage.commits_with_trailer} commit${report.usage.commits_with_trailer === 1 ? '' : 's'} with a trailer`);
    for (const item of report.usage.lessons) lines.push(`  ${item.id}  selected ${item.selected}x, last ${item.last_selected}`);
    if (report.usage.never_used.length > 0) lines.push(`  never selected: ${report.usage.never_used.join(', ')}`);
  }
  return lines.join('\n');
}
