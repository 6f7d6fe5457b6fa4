import type { DoctorReport } from './doctor.js';
import { jsonReporter, type Reporters } from '../render/registry.js';

const LABEL = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' } as const;

function formatDoctor(report: DoctorReport): string {
  const lines: string[] = [];
  for (const item of report.checks) {
    lines.push(`${LABEL[item.status]}  ${item.name}: ${item.message}`);
    if (item.fix && item.status !== 'ok') lines.push(`      fix: ${item.fix}`);
  }
  const failed = report.checks.filter((item) => item.status === 'fail').length;
  lines.push(failed === 0 ? 'nothing is broken' : `${failed} broken: fix ${failed === 1 ? 'it' : 'them'}, then run \`lessons doctor\` again`);
  return `${lines.join('\n')}\n`;
}

export const doctorReporters: Reporters<DoctorReport> = { text: formatDoctor, json: jsonReporter };
