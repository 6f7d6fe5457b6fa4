import type { DoctorReport } from './doctor.js';
import type { HookRunRow } from './hook-run.js';
import { jsonReporter, type Reporters } from '../render/registry.js';

const LABEL = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' } as const;

const COLUMNS = ['harness', 'event', 'exit', 'ms', 'contract', 'lessons'] as const;

function cells(row: HookRunRow): string[] {
  const lessons = row.lessons === null ? '-' : row.lessons ? 'arrived' : 'MISSING';
  return [row.harness, row.event, row.exit === null ? '-' : String(row.exit), String(row.ms), row.contract ? 'ok' : 'FAIL', lessons];
}

/** The hook runs as a table, one row per hook, columns padded to their widest cell. */
function formatHookRuns(rows: readonly HookRunRow[]): string[] {
  const table = [[...COLUMNS], ...rows.map(cells)];
  const widths = COLUMNS.map((_, column) => Math.max(...table.map((line) => line[column]!.length)));
  return ['hook runs (a sample event each, in a temporary copy of the repository):', ...table.map((line) => `  ${line.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()}`)];
}

function formatDoctor(report: DoctorReport): string {
  const lines: string[] = [];
  for (const item of report.checks) {
    lines.push(`${LABEL[item.status]}  ${item.name}: ${item.message}`);
    if (item.fix && item.status !== 'ok') lines.push(`      fix: ${item.fix}`);
  }
  if (report.hookRuns && report.hookRuns.length > 0) lines.push(...formatHookRuns(report.hookRuns));
  const failed = report.checks.filter((item) => item.status === 'fail').length;
  lines.push(failed === 0 ? 'nothing is broken' : `${failed} broken: fix ${failed === 1 ? 'it' : 'them'}, then run \`lessons doctor\` again`);
  return `${lines.join('\n')}\n`;
}

export const doctorReporters: Reporters<DoctorReport> = { text: formatDoctor, json: jsonReporter };
