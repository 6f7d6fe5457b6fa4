import { defineCommand } from '../command.js';

export default defineCommand<{ json: boolean; 'run-hooks': boolean }>({
  command: 'doctor',
  describe: 'Check every integration that could fail silently (git and agent hooks, index, policy, cache, exports, reviewer) and say how to fix it',
  example: 'lessons doctor',
  options: {
    json: { type: 'boolean', default: false, describe: 'Print the checks as JSON' },
    'run-hooks': {
      type: 'boolean',
      default: false,
      describe: 'Also run every installed git and agent hook with a sample event in a\ntemporary copy of the repository, and report what git and the agent\nreceive: exit code, time, answer format, whether the lessons arrived',
    },
  },
  handler: async (argv, io) => {
    const { doctor } = await import('../../src/doctor/doctor.js');
    const report = await doctor({ cwd: argv.C ?? process.cwd(), pathValue: process.env.PATH, runHooks: argv['run-hooks'] });
    const { doctorReporters } = await import('../../src/doctor/reporter.js');
    io.out(doctorReporters[argv.json ? 'json' : 'text'](report));
    return report.broken ? 1 : 0;
  },
});
