/**
 * Small inline SVG charts for the HTML report: horizontal bars, stacked bars, a weekly
 * timeline and a layered graph. Pure functions of their data; colours come from CSS classes
 * (`tone-<name>`), so the page's one stylesheet styles every chart. Every label is escaped.
 */
import { escapeHtml } from './markup.js';

export interface Bar {
  label: string;
  value: number;
  /** CSS tone: the bar gets class `tone-<tone>`. */
  tone: string;
}

const ROW = 22;
const LABEL_WIDTH = 150;
const WIDTH = 560;
const CHAR_WIDTH = 6.5;

function svg(width: number, height: number, title: string, body: string[]): string {
  return (
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}">` +
    `<title>${escapeHtml(title)}</title>${body.join('')}</svg>`
  );
}

/** A label cut to fit `width` pixels, with an ellipsis. */
function fit(label: string, width: number): string {
  const max = Math.max(3, Math.floor(width / CHAR_WIDTH));
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

const round = (n: number): number => Math.round(n * 10) / 10;

/** One horizontal bar per item, scaled to the largest value, the value printed after it. */
export function barChart(title: string, bars: readonly Bar[]): string {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const span = WIDTH - LABEL_WIDTH - 50;
  const body = bars.map((bar, n) => {
    const y = 6 + n * ROW;
    const width = round((bar.value / max) * span);
    return (
      `<text x="${LABEL_WIDTH - 6}" y="${y + 13}" text-anchor="end">${escapeHtml(fit(bar.label, LABEL_WIDTH - 8))}</text>` +
      `<rect class="tone-${escapeHtml(bar.tone)}" x="${LABEL_WIDTH}" y="${y + 2}" width="${width}" height="${ROW - 6}" rx="2"/>` +
      `<text x="${round(LABEL_WIDTH + width + 5)}" y="${y + 13}">${bar.value}</text>`
    );
  });
  return svg(WIDTH, bars.length * ROW + 12, title, body);
}

export interface StackedRow {
  label: string;
  parts: readonly { key: string; value: number }[];
}

/** One horizontal bar per row, split into its parts (class `tone-<key>`), with a legend. */
export function stackedBarChart(title: string, rows: readonly StackedRow[], keys: readonly string[]): string {
  const max = Math.max(1, ...rows.map((row) => row.parts.reduce((sum, part) => sum + part.value, 0)));
  const span = WIDTH - LABEL_WIDTH - 50;
  const body: string[] = [];
  rows.forEach((row, n) => {
    const y = 6 + n * ROW;
    let x = LABEL_WIDTH;
    body.push(`<text x="${LABEL_WIDTH - 6}" y="${y + 13}" text-anchor="end">${escapeHtml(fit(row.label, LABEL_WIDTH - 8))}</text>`);
    for (const part of row.parts) {
      if (part.value === 0) continue;
      const width = round((part.value / max) * span);
      body.push(`<rect class="tone-${escapeHtml(part.key)}" x="${round(x)}" y="${y + 2}" width="${width}" height="${ROW - 6}"><title>${escapeHtml(`${row.label} ${part.key}: ${part.value}`)}</title></rect>`);
      x += width;
    }
    body.push(`<text x="${round(x + 5)}" y="${y + 13}">${row.parts.reduce((sum, part) => sum + part.value, 0)}</text>`);
  });
  const legendY = 12 + rows.length * ROW;
  keys.forEach((key, n) => {
    const x = LABEL_WIDTH + n * 100;
    body.push(`<rect class="tone-${escapeHtml(key)}" x="${x}" y="${legendY}" width="10" height="10"/><text x="${x + 14}" y="${legendY + 9}">${escapeHtml(key)}</text>`);
  });
  return svg(WIDTH, legendY + 18, title, body);
}

/** Columns per week (oldest left), the Monday of every fourth week under the axis. */
export function weeklyChart(title: string, weeks: readonly { week: string; count: number }[]): string {
  const height = 150;
  const base = height - 24;
  const max = Math.max(1, ...weeks.map((week) => week.count));
  const step = (WIDTH - 40) / Math.max(1, weeks.length);
  const body: string[] = [`<line class="axis" x1="30" y1="${base}" x2="${WIDTH - 6}" y2="${base}"/>`, `<text x="26" y="14" text-anchor="end">${max}</text>`];
  weeks.forEach((week, n) => {
    const x = round(32 + n * step);
    const barHeight = round((week.count / max) * (base - 16));
    body.push(`<rect class="tone-selected" x="${x}" y="${round(base - barHeight)}" width="${round(step - 3)}" height="${barHeight}"><title>${escapeHtml(`week of ${week.week}: ${week.count}`)}</title></rect>`);
    if (n % 4 === 0) body.push(`<text x="${x}" y="${base + 16}">${escapeHtml(week.week.slice(5))}</text>`);
  });
  return svg(WIDTH, height, title, body);
}

export interface GraphColumn {
  label: string;
  nodes: readonly { id: string; tone: string; muted: boolean }[];
}

/** Columns of nodes left to right, edges drawn from a node to one in a later column. */
export function graphChart(title: string, columns: readonly GraphColumn[], edges: readonly { from: string; to: string }[]): string {
  const width = 760;
  const columnWidth = width / columns.length;
  const tallest = Math.max(1, ...columns.map((column) => column.nodes.length));
  const height = 40 + tallest * 18;
  const where = new Map<string, { x: number; y: number }>();
  const nodes: string[] = [];
  columns.forEach((column, c) => {
    const x = round(c * columnWidth + 12);
    nodes.push(`<text class="heading" x="${x}" y="16">${escapeHtml(column.label)}</text>`);
    column.nodes.forEach((node, n) => {
      const y = 36 + n * 18;
      where.set(node.id, { x, y });
      nodes.push(
        `<g class="node${node.muted ? ' muted' : ''}"><circle class="tone-${escapeHtml(node.tone)}" cx="${x + 5}" cy="${y - 4}" r="5"/>` +
          `<text x="${x + 14}" y="${y}">${escapeHtml(fit(node.id, columnWidth - 30))}</text><title>${escapeHtml(node.id)}</title></g>`,
      );
    });
  });
  const lines: string[] = [];
  for (const edge of edges) {
    const from = where.get(edge.from);
    const to = where.get(edge.to);
    if (!from || !to) continue;
    lines.push(`<line class="edge" x1="${round(from.x + columnWidth - 24)}" y1="${from.y - 4}" x2="${to.x}" y2="${to.y - 4}"/>`);
  }
  return svg(width, height, title, [...lines, ...nodes]);
}
