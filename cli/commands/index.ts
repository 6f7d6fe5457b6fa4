import { defineCommand } from '../command.js';
import { plural } from '../format.js';

export default defineCommand<{ check: boolean; json: boolean }>({
  command: 'index',
  describe: 'Write lessons/index.json from the lessons (--check: fail when the committed one is stale)',
  builder: (yargs) =>
    yargs
      .option('check', { type: 'boolean', default: false, describe: 'Write nothing; exit 1 when lessons/index.json is stale' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' }),
  run: async (argv, io) => {
    const { writeIndex, checkIndex } = await import('../../src/index/command.js');
    const cwd = argv.C ?? process.cwd();
    if (!argv.check) {
      const result = await writeIndex({ cwd });
      if (argv.json) io.out(JSON.stringify(result, null, 2));
      else io.out(`${result.written ? 'wrote' : 'unchanged:'} ${result.path} (${plural(result.lessons, 'lesson')})`);
      return 0;
    }
    const result = await checkIndex({ cwd });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return result.fresh ? 0 : 1;
    }
    if (result.fresh) {
      io.out(`${result.path} is up to date`);
      return 0;
    }
    const { added, removed, changed } = result.diff;
    const lines = [result.missing ? `${result.path} is missing: run \`lessons index\` and commit it` : `${result.path} is stale: run \`lessons index\` and commit it`];
    if (added.length > 0) lines.push(`  not in the index: ${added.join(', ')}`);
    if (removed.length > 0 && !result.missing) lines.push(`  no longer in the tree: ${removed.join(', ')}`);
    if (changed.length > 0) lines.push(`  changed: ${changed.join(', ')}`);
    if (!result.missing && added.length + removed.length + changed.length === 0) lines.push('  the lessons are the same; only the file\'s formatting differs');
    io.err(lines.join('\n'));
    return 1;
  },
});
