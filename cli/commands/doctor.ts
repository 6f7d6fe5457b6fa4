import { defineCommand } from '../command.js';

export default defineCommand<{ json: boolean }>({
  command: 'doctor',
  describe: 'Check every integration that could fail silently (git and agent hooks, index, policy, cache, exports, reviewer) and say how to fix it',
  example: 'lessons doctor',
  options: {
    json: { type: 'boolean', default: false, describe: 'Print the checks as JSON' },
  },
  handler: async (argv, io) => {
    const { doctor } = await import('../../src/doctor/doctor.js');
    const report = await doctor({ cwd: argv.C ?? process.cwd(), pathValue: process.env.PATH });
    const { doctorReporters } = await import('../../src/doctor/reporter.js');
    io.out(doctorReporters[argv.json ? 'json' : 'text'](report));
    return report.broken ? 1 : 0;
  },
});
