import { defineCommand } from '../command.js';

export default defineCommand<{ json: boolean }>({
  command: 'lint',
  describe: 'Validate every lesson: schema, ids, levels, references, checklists, evidence',
  example: 'lessons lint --json',
  options: {
    json: { type: 'boolean', default: false, describe: 'Print findings as JSON' },
  },
  run: async (argv, io) => {
    const { lint } = await import('../../src/lint/command.js');
    const { lintReporters } = await import('../../src/reporters/lint.js');
    const { renderStdout } = await import('../../src/reporters/registry.js');
    const result = await lint({ cwd: argv.C ?? process.cwd(), now: new Date() });
    io.out(renderStdout(lintReporters, argv.json ? 'json' : 'text', result, process.env));
    return result.errors > 0 ? 1 : 0;
  },
});
