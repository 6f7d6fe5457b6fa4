import { style } from '../util/style.js';
import { LEVELS, STATUSES } from '../lesson/model.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './report.js';
import { jsonReporter, type Reporters } from '../render/registry.js';

function formatReport(report: Report): string {
  const lines: string[] = [style.bold(`${report.total} lesson${report.total === 1 ? '' : 's'}`)];
  const width = Math.max(...STATUSES.map((status) => status.length));
  lines.push(`  ${'level'.padEnd(10)}${STATUSES.map((status) => status.padStart(width + 1)).join('')}`);
  for (const level of LEVELS) lines.push(`  ${level.padEnd(10)}${STATUSES.map((status) => String(report.counts[level][status]).padStart(width + 1)).join('')}`);
  lines.push('', style.bold(`stale (not validated for more than ${report.stale_after_days} days): ${report.stale.length}`));
  for (const item of report.stale) lines.push(`  ${item.id}  ${item.last_validated_at === null ? 'never validated' : `${item.days} days (${item.last_validated_at})`}`);
  lines.push('', style.bold(`candidate backlog: ${report.candidates.length} (${report.auto_candidates} auto-captured, policy cap ${report.max_auto_candidates})`));
  for (const item of report.candidates) lines.push(`  ${item.id}  ${item.source}, since ${item.created_at ?? '?'}, occurrences ${item.occurrences}`);
  lines.push('', style.bold(`ready to promote: ${report.ready_to_promote.length}`));
  for (const item of report.ready_to_promote) {
    const why = item.to === 'pattern' ? `similar cases (similarity >= ${item.similarity})` : `applied in ${item.contexts.join(', ')}`;
    lines.push(`  to ${item.to}: ${item.ids.join(', ')}  ${style.dim(why)}`, `    ${item.command}`);
  }
  lines.push('', style.bold('preflight usage (Lessons-Preflight trailers and hook sessions)'));
  if (!report.usage.available && report.usage.sessions === 0) lines.push('  no git history to read');
  else if (report.usage.commits_with_trailer === 0 && report.usage.sessions === 0) lines.push('  no commit carries a Lessons-Preflight trailer yet');
  else {
    lines.push(`  ${report.usage.commits_with_trailer} commit${report.usage.commits_with_trailer === 1 ? '' : 's'} with a trailer, ${report.usage.sessions} hook session${report.usage.sessions === 1 ? '' : 's'}`);
    for (const item of report.usage.lessons) lines.push(`  ${item.id}  selected ${item.selected}x, last ${item.last_selected}`);
    if (report.usage.never_used.length > 0) lines.push(`  never selected: ${report.usage.never_used.join(', ')}`);
  }
  const { efficacy, drift } = report;
  lines.push('', style.bold(`efficacy: ${efficacy.lessons.length} shown before work, ${efficacy.not_working} not working (recurred afterwards)`));
  for (const item of efficacy.lessons.filter((lesson) => !lesson.working)) lines.push(`  ${item.id}  ${item.recurrences.map((r) => `${r.kind} ${r.ref} (${r.date})`).join(', ')}`);
  lines.push('', style.bold(`drift: ${drift.dead_paths.length} dead trigger paths, ${drift.missing_references.length} missing references, ${drift.history_available ? drift.quiet.length : '-'} quiet for a year`));
  for (const item of drift.dead_paths) lines.push(`  ${item.id}  trigger path ${item.glob} matches no file`);
  for (const item of drift.missing_references) lines.push(`  ${item.id}  ${item.kind} ${item.reference} no longer exists`);
  lines.push('', style.bold(`near-duplicate clusters: ${report.duplicates.length}`));
  for (const cluster of report.duplicates) lines.push(`  ${cluster.ids.join(', ')}  ${style.dim(`similarity >= ${cluster.similarity}`)}`);
  return `${lines.join('\n')}\n`;
}

export const reportReporters: Required<Pick<Reporters<Report>, 'text' | 'json' | 'markdown'>> = { text: formatReport, json: jsonReporter, markdown: renderMarkdown };
