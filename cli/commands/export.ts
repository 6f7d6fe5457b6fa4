import { defineCommand } from '../command.js';
import { EXPORT_TARGET_DECLARATIONS, EXPORT_TARGETS, type ExportTarget } from '../../src/export/targets.js';

export default defineCommand<{ to: string; json: boolean; check: boolean }>({
  command: 'export',
  describe: 'Render the canonical and validated lessons as the rules or instructions files of each coding agent',
  example: 'lessons export --to cursor',
  options: {
    to: { type: 'string', choices: [...EXPORT_TARGETS], required: true, describe: EXPORT_TARGET_DECLARATIONS.map((target) => `${target.name}: ${target.writes}`).join('; ') },
    check: { type: 'boolean', default: false, describe: 'Write nothing; exit 1 when the export is stale and name the files' },
    json: { type: 'boolean', default: false, describe: 'Print what was written as JSON' },
  },
  handler: async (argv, io) => {
    const { exportLessons, isStale } = await import('../../src/export/export.js');
    const result = await exportLessons({ cwd: argv.C ?? process.cwd(), to: argv.to as ExportTarget, check: argv.check });
    const code = argv.check && isStale(result) ? 1 : 0;
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return code;
    }
    // A tool that would cut the export is worth knowing, not a failure: like lint's warnings, it leaves the exit code alone.
    for (const warning of result.warnings) io.err(`warning: ${warning.message}`);
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
