import { defineCommand } from '../command.js';
import { findingLine, plural } from '../format.js';

export default defineCommand<{ json: boolean }>({
  command: 'lint',
  describe: 'Validate every lesson: schema, ids, levels, references, checklists, evidence',
  example: 'lessons lint --json',
  builder: (yargs) => yargs.option('json', { type: 'boolean', default: false, describe: 'Print findings as JSON' }),
  run: async (argv, io) => {
    const { lint } = await import('../../src/lint/command.js');
    const result = await lint({ cwd: argv.C ?? process.cwd(), now: new Date() });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
    } else {
      for (const finding of result.findings) io.out(findingLine(finding));
      io.out(`${plural(result.lessons, 'lesson')} checked: ${plural(result.errors, 'error')}, ${plural(result.warnings, 'warning')}`);
    }
    return result.errors > 0 ? 1 : 0;
  },
});
