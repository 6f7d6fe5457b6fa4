/**
 * The report as one self-contained HTML page: inline CSS, inline SVG charts, no script and a
 * Content-Security-Policy that allows none, no network. Deterministic: a function of the report.
 * Every string that comes from a lesson, a commit or the policy goes through escapeHtml.
 */
import { LEVELS, STATUSES, type Level } from '../lesson/model.js';
import { escapeHtml as e } from './markup.js';
import type { Report } from './report.js';
import { REPORT_STYLE } from './style.js';
import { barChart, graphChart, stackedBarChart, weeklyChart, type GraphColumn } from './svg.js';

/** Rows a list shows before it points to `lessons report --json`. */
export const LIST_LIMIT = 100;
/** Nodes the promotion graph draws per level. */
export const GRAPH_LIMIT = 40;

const SECTIONS = [
  ['tree', 'The tree'],
  ['aging', 'Aging'],
  ['use', 'Use'],
  ['efficacy', 'Efficacy'],
  ['drift', 'Drift'],
  ['backlog', 'Backlog'],
  ['retrieval', 'Retrieval health'],
] as const;

type SectionId = (typeof SECTIONS)[number][0];

export function renderHtml(report: Report): string {
  const body: Record<SectionId, string> = {
    tree: treeSection(report),
    aging: agingSection(report),
    use: useSection(report),
    efficacy: efficacySection(report),
    drift: driftSection(report),
    backlog: backlogSection(report),
    retrieval: retrievalSection(report),
  };
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Lessons report ${e(report.today)}</title>`,
    `<style>${REPORT_STYLE}</style></head><body>`,
    `<header><h1>Lessons report</h1><p>as of ${e(report.today)}</p>`,
    figures([
      ['lessons', 'lessons', report.total],
      ['stale', 'stale', report.stale.length],
      ['candidates', 'candidates', report.candidates.length],
      ['not-working', 'not working', report.efficacy.not_working],
    ]),
    `<nav>${SECTIONS.map(([id, title]) => `<a href="#${id}">${title}</a>`).join('')}</nav></header><main>`,
    ...SECTIONS.map(([id, title]) => `<section id="${id}" data-section="${id}"><h2>${title}</h2>${body[id]}</section>`),
    '</main></body></html>',
    '',
  ].join('\n');
}

function figures(items: readonly [key: string, label: string, value: number | string][]): string {
  return `<dl class="figures">${items.map(([key, label, value]) => `<div><dt>${e(label)}</dt><dd data-figure="${e(key)}">${e(value)}</dd></div>`).join('')}</dl>`;
}

function table(headings: readonly string[], rows: readonly (readonly string[])[], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${e(empty)}</p>`;
  const shown = rows.slice(0, LIST_LIMIT).map((cells) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`);
  const more = rows.length > LIST_LIMIT ? `<p class="more">and ${rows.length - LIST_LIMIT} more: <code>lessons report --json</code> lists them all</p>` : '';
  return `<table><thead><tr>${headings.map((heading) => `<th>${e(heading)}</th>`).join('')}</tr></thead><tbody>${shown.join('')}</tbody></table>${more}`;
}

const code = (text: string): string => `<code>${e(text)}</code>`;
const pct = (rate: number): string => `${Math.round(rate * 1000) / 10}%`;

function lessonCell(report: Report, id: string): string {
  const about = Object.hasOwn(report.directory, id) ? report.directory[id] : undefined;
  return about === undefined ? code(id) : `${code(id)}<br><span class="title" title="${e(about.summary)}">${e(about.title)}</span>`;
}

function treeSection(report: Report): string {
  const rows = LEVELS.map((level) => ({ label: level, parts: STATUSES.map((status) => ({ key: status, value: report.counts[level][status] })) }));
  const counts = table(
    ['level', ...STATUSES],
    LEVELS.map((level) => [level, ...STATUSES.map((status) => String(report.counts[level][status]))]),
    'no lessons',
  );
  return (
    figures(LEVELS.map((level) => [level, `${level}s`, STATUSES.reduce((sum, status) => sum + report.counts[level][status], 0)])) +
    stackedBarChart('Lessons by level and status', rows, STATUSES) +
    counts +
    `<h3>Promotion graph</h3>${promotionGraph(report)}`
  );
}

function promotionGraph(report: Report): string {
  const { nodes, edges } = report.graph;
  if (edges.length === 0) return '<p class="empty">no lesson has been promoted yet</p>';
  const levelOf = new Map(nodes.map((node) => [node.id, node]));
  const into = new Map<string, string[]>();
  for (const edge of edges) into.set(edge.to, [...(into.get(edge.to) ?? []), edge.from]);
  // Lay the columns out from the principles down, each node near what it was promoted into.
  const chosen: Record<Level, string[]> = { principle: [], pattern: [], case: [] };
  const add = (level: Level, id: string): void => {
    if (chosen[level].length < GRAPH_LIMIT && !chosen[level].includes(id)) chosen[level].push(id);
  };
  for (const node of nodes) if (node.level === 'principle') add('principle', node.id);
  for (const id of chosen.principle) for (const from of into.get(id) ?? []) if (levelOf.get(from)?.level === 'pattern') add('pattern', from);
  for (const node of nodes) if (node.level === 'pattern') add('pattern', node.id);
  for (const id of chosen.pattern) for (const from of into.get(id) ?? []) if (levelOf.get(from)?.level === 'case') add('case', from);
  const columns: GraphColumn[] = (['case', 'pattern', 'principle'] as const).map((level) => ({
    label: `${level}s`,
    nodes: chosen[level].map((id) => ({ id, tone: level, muted: levelOf.get(id)!.status === 'retired' })),
  }));
  const total = nodes.length;
  const drawn = columns.reduce((sum, column) => sum + column.nodes.length, 0);
  const note = drawn < total ? `<p class="more">drawing ${drawn} of ${total} lessons in the graph (${GRAPH_LIMIT} per level)</p>` : '';
  return graphChart('Promotion graph: cases, patterns, principles; retired lessons greyed', columns, edges) + note;
}

function agingSection(report: Report): string {
  const bars = report.aging.buckets.map((bucket) => ({ label: bucket.label, value: bucket.count, tone: bucket.over ? 'over' : 'fresh' }));
  bars.push({ label: 'never validated', value: report.aging.never, tone: 'over' });
  return (
    figures([
      ['stale', 'stale', report.stale.length],
      ['limit', 'policy limit (days)', report.stale_after_days],
    ]) +
    barChart(`Validated and canonical lessons by days since last validation (limit ${report.stale_after_days})`, bars) +
    '<h3>Stale lessons</h3>' +
    table(
      ['lesson', 'status', 'last validated', 'days', 're-validate'],
      report.stale.map((item) => [lessonCell(report, item.id), e(item.status), e(item.last_validated_at ?? 'never'), e(item.days ?? '-'), code(item.command)]),
      'no lesson is past the limit',
    )
  );
}

function useSection(report: Report): string {
  const { usage } = report;
  if (!usage.available && usage.sessions === 0) return '<p class="empty">no git history and no hook session records to read</p>';
  const top = usage.lessons.slice(0, 15).map((item) => ({ label: item.id, value: item.selected, tone: 'selected' }));
  return (
    figures([
      ['commits-with-trailer', 'commits with a trailer', usage.commits_with_trailer],
      ['sessions', 'hook sessions', usage.sessions],
      ['selected-lessons', 'lessons selected', usage.lessons.length],
      ['never-selected', 'never selected', usage.never_used.length],
    ]) +
    `<h3>Selections by week</h3>${weeklyChart('Lessons shown per week', usage.by_week)}` +
    (top.length > 0 ? `<h3>Most selected</h3>${barChart('Most selected lessons', top)}` : '') +
    table(['lesson', 'selected', 'last selected'], usage.lessons.map((item) => [lessonCell(report, item.id), e(item.selected), e(item.last_selected ?? '-')]), 'no lesson selected yet') +
    '<h3>Never selected</h3>' +
    table(['lesson'], usage.never_used.map((id) => [lessonCell(report, id)]), 'every live lesson was selected at least once, or nothing was recorded yet')
  );
}

function efficacySection(report: Report): string {
  const { efficacy } = report;
  const working = efficacy.lessons.length - efficacy.not_working;
  return (
    figures([
      ['shown', 'lessons shown', efficacy.lessons.length],
      ['not-working', 'not working', efficacy.not_working],
      ['working', 'no recurrence', working],
    ]) +
    (efficacy.lessons.length > 0
      ? barChart('Lessons shown before work: recurred afterwards or not', [
          { label: 'not working', value: efficacy.not_working, tone: 'over' },
          { label: 'no recurrence', value: working, tone: 'fresh' },
        ])
      : '') +
    table(
      ['lesson', 'verdict', 'shown', 'first shown', 'recurred'],
      efficacy.lessons.map((item) => [
        lessonCell(report, item.id),
        item.working ? '<span class="ok">no recurrence</span>' : '<span class="bad">not working</span>',
        e(item.shown),
        e(item.first_shown),
        item.recurrences.map((r) => e(`${r.kind === 'incident' ? `incident ${r.ref}` : r.ref} on ${r.date}`)).join('<br>'),
      ]),
      'no lesson has been shown before work yet (no Lessons-Preflight trailers or hook sessions)',
    )
  );
}

function driftSection(report: Report): string {
  const { drift } = report;
  return (
    figures([
      ['dead-paths', 'dead trigger paths', drift.dead_paths.length],
      ['missing-references', 'missing references', drift.missing_references.length],
      ['quiet', 'quiet for a year', drift.quiet.length],
    ]) +
    '<h3>Trigger paths that match no file</h3>' +
    table(['lesson', 'path glob'], drift.dead_paths.map((item) => [lessonCell(report, item.id), code(item.glob)]), 'every trigger path matches a file') +
    '<h3>Files and commands a lesson names that no longer exist</h3>' +
    table(['lesson', 'kind', 'reference'], drift.missing_references.map((item) => [lessonCell(report, item.id), e(item.kind), code(item.reference)]), 'every file and npm script the lessons name exists') +
    '<h3>Tags and triggers that match nothing changed in a year</h3>' +
    (drift.history_available
      ? table(
          ['lesson', 'tags', 'trigger paths', 'keywords'],
          drift.quiet.map((item) => [lessonCell(report, item.id), e(item.tags.join(', ')), e(item.paths.join(', ')), e(item.keywords.join(', '))]),
          'every tagged lesson matches something changed in the last year',
        )
      : '<p class="empty">no git history to read</p>')
  );
}

function backlogSection(report: Report): string {
  const bars = report.candidate_ages.buckets.map((bucket) => ({ label: bucket.label, value: bucket.count, tone: 'candidate' }));
  if (report.candidate_ages.undated > 0) bars.push({ label: 'undated', value: report.candidate_ages.undated, tone: 'candidate' });
  return (
    figures([
      ['candidates', 'candidates', report.candidates.length],
      ['auto-candidates', `auto-captured (cap ${report.max_auto_candidates})`, report.auto_candidates],
      ['ready-to-promote', 'ready to promote', report.ready_to_promote.length],
      ['duplicate-clusters', 'near-duplicate clusters', report.duplicates.length],
    ]) +
    barChart('Candidates by days since created', bars) +
    '<h3>Candidates</h3>' +
    table(
      ['lesson', 'source', 'created', 'occurrences'],
      report.candidates.map((item) => [lessonCell(report, item.id), e(item.source), e(item.created_at ?? '-'), e(item.occurrences)]),
      'no candidate waits for review',
    ) +
    '<h3>Ready to promote</h3>' +
    table(
      ['to', 'lessons', 'why', 'command'],
      report.ready_to_promote.map((item) => [
        e(item.to),
        item.ids.map(code).join(' '),
        e(item.to === 'pattern' ? `similar cases (similarity >= ${item.similarity})` : `applied in ${item.contexts.join(', ')}`),
        code(item.command),
      ]),
      'nothing is ready to promote',
    ) +
    '<h3>Near-duplicate clusters</h3>' +
    table(['lessons', 'similarity'], report.duplicates.map((cluster) => [cluster.ids.map(code).join(' '), e(cluster.similarity)]), 'no two live lessons read as one')
  );
}

function retrievalSection(report: Report): string {
  const { retrieval } = report;
  if (retrieval.result === null) {
    return retrieval.evals_file
      ? '<p class="empty">lessons/evals.json exists, but no eval run was given: run <code>lessons eval</code></p>'
      : '<p class="empty">no lessons/evals.json: add labelled tasks there to measure retrieval</p>';
  }
  const result = retrieval.result;
  return (
    figures([
      ['recall', `recall (min ${pct(result.thresholds.min_recall)})`, pct(result.recall)],
      ['false-positive-rate', `false positives (max ${pct(result.thresholds.max_false_positive_rate)})`, pct(result.false_positive_rate)],
      ['eval-cases', 'tasks', result.cases],
      ['verdict', 'verdict', retrieval.passing ? 'passing' : 'failing'],
    ]) +
    barChart('Recall and false positive rate, in percent', [
      { label: 'recall', value: Math.round(result.recall * 100), tone: result.recall >= result.thresholds.min_recall ? 'fresh' : 'over' },
      { label: 'false positives', value: Math.round(result.false_positive_rate * 100), tone: result.false_positive_rate <= result.thresholds.max_false_positive_rate ? 'fresh' : 'over' },
    ]) +
    '<h3>Misses</h3>' +
    table(['task', 'lessons not selected'], result.misses.map((miss) => [code(miss.id), miss.missing.map(code).join(' ')]), 'every expected lesson was selected')
  );
}
