import chalk from 'chalk';
import { LEVELS, STATUSES, type Level, type Status } from '../../src/lesson/model.js';
import { defineCommand } from '../command.js';

export default defineCommand<{ level?: Level; status?: Status; tag?: string; json: boolean }>({
  command: 'list',
  describe: 'List lessons, principles first',
  example: 'lessons list --level case --status candidate',
  options: {
    level: { type: 'string', choices: LEVELS, describe: 'Only this level' },
    status: { type: 'string', choices: STATUSES, describe: 'Only this status' },
    tag: { type: 'string', describe: 'Only lessons with this tag' },
    json: { type: 'boolean', default: false, describe: 'Print the lessons as JSON' },
  },
  run: async (argv, io) => {
    const { listLessons } = await import('../../src/lesson/query.js');
    const entries = await listLessons({ cwd: argv.C ?? process.cwd(), level: argv.level, status: argv.status, tag: argv.tag });
    if (argv.json) {
      io.out(JSON.stringify(entries, null, 2));
      return 0;
    }
    if (entries.length === 0) {
      io.out('no lessons match');
      return 0;
    }
    for (const entry of entries) {
      const badge = `${entry.level}/${entry.status}/${entry.severity}`;
      io.out(`${chalk.bold(entry.id)}  ${chalk.dim(badge)}\n  ${entry.title}`);
    }
    return 0;
  },
});
