import { defineCommand } from '../command.js';

export default defineCommand<{ to: string; json: boolean; check: boolean }>({
  command: 'export',
  describe: 'Render the canonical and validated lessons for Cursor rules, CLAUDE.md or AGENTS.md',
  example: 'lessons export --to cursor',
  options: {
    to: { type: 'string', choices: ['cursor', 'claude', 'agents-md'], required: true, describe: 'cursor: .cursor/rules/lessons-*.mdc; claude: a CLAUDE.md section; agents-md: an AGENTS.md section' },
    check: { type: 'boolean', default: false, describe: 'Write nothing; exit 1 when the export is stale and name the files' },
    json: { type: 'boolean', default: false, describe: 'Print what was written as JSON' },
  },
  handler: async (argv, io) => {
    const { exportLessons, isStale } = await import('../../src/export/export.js');
    const result = await exportLessons({ cwd: argv.C ?? process.cwd(), to: argv.to as 'cursor' | 'claude' | 'agents-md', check: argv.check });
    const code = argv.check && isStale(result) ? 1 : 0;
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return code;
    }
    if (argv.check) {
      if (code === 0) {
        io.out(`the ${result.target} export is current (${result.lessons} lesson${result.lessons === 1 ? '' : 's'})`);
        return 0;
      }
      const lines = [`the ${result.target} export is stale: run \`lessons export --to ${result.target}\` and commit the result`];
      for (const file of result.written) lines.push(`  out of date: ${file}`);
      for (const file of result.removed) lines.push(`  no longer exported: ${file}`);
      io.out(lines.join('\n'));
      return 1;
    }
    const lines = [`exported ${result.lessons} lesson${result.lessons === 1 ? '' : 's'} for ${result.target}: ${result.written.length} written, ${result.unchanged.length} unchanged, ${result.removed.length} removed`];
    for (const file of result.written) lines.push(`  wrote ${file}`);
    for (const file of result.removed) lines.push(`  removed ${file}`);
    io.out(lines.join('\n'));
    return 0;
  },
});
