import { defineCommand } from '../command.js';

export default defineCommand<{ to: string; json: boolean }>({
  command: 'export',
  describe: 'Render the canonical and validated lessons for Cursor rules, CLAUDE.md or AGENTS.md',
  example: 'lessons export --to cursor',
  builder: (yargs) =>
    yargs
      .option('to', { type: 'string', choices: ['cursor', 'claude', 'agents-md'], demandOption: true, describe: 'cursor: .cursor/rules/lessons-*.mdc; claude: a CLAUDE.md section; agents-md: an AGENTS.md section' })
      .option('json', { type: 'boolean', default: false, describe: 'Print what was written as JSON' }) as never,
  run: async (argv, io) => {
    const { exportLessons } = await import('../../src/export/command.js');
    const result = await exportLessons({ cwd: argv.C ?? process.cwd(), to: argv.to as 'cursor' | 'claude' | 'agents-md' });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return 0;
    }
    const lines = [`exported ${result.lessons} lesson${result.lessons === 1 ? '' : 's'} for ${result.target}: ${result.written.length} written, ${result.unchanged.length} unchanged, ${result.removed.length} removed`];
    for (const file of result.written) lines.push(`  wrote ${file}`);
    for (const file of result.removed) lines.push(`  removed ${file}`);
    io.out(lines.join('\n'));
    return 0;
  },
});
