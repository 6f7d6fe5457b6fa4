import type { DoctorReport } from '../../src/doctor/doctor.js';
import { defineCommand } from '../command.js';

const LABEL = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' } as const;

export default defineCommand<{ json: boolean }>({
  command: 'doctor',
  describe: 'Check every integration that could fail silently (git and agent hooks, index, policy, cache, exports, reviewer) and say how to fix it',
  example: 'lessons doctor',
  options: {
    json: { type: 'boolean', default: false, describe: 'Print the checks as JSON' },
  },
  run: async (argv, io) => {
    const { doctor } = await import('../../src/doctor/doctor.js');
    const report = await doctor({ cwd: argv.C ?? process.cwd(), pathValue: process.env.PATH });
    io.out(argv.json ? JSON.stringify(report, null, 2) : formatDoctor(report));
    return report.broken ? 1 : 0;
  },
});

export function formatDoctor(report: DoctorReport): string {
  const lines: string[] = [];
  for (const item of report.checks) {
    lines.push(`${LABEL[item.status]}  ${item.name}: ${item.message}`);
    if (item.fix && item.status !== 'ok') lines.push(`      fix: ${item.fix}`);
  }
  const failed = report.checks.filter((item) => item.status === 'fail').length;
  lines.push(failed === 0 ? 'nothing is broken' : `${failed} broken: fix ${failed === 1 ? 'it' : 'them'}, then run \`lessons doctor\` again`);
  return lines.join('\n');
}
