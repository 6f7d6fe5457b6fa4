import { style } from '../../src/util/style.js';
import { INSIGHTS, KINDS, LEVELS, STATUSES, type Insight, type Kind, type Level, type Status } from '../../src/lesson/model.js';
import { defineCommand } from '../command.js';

export default defineCommand<{ level?: Level; status?: Status; tag?: string; kind?: Kind; insight?: Insight; json: boolean }>({
  command: 'list',
  describe: 'List lessons, principles first',
  example: 'lessons list --level case --status candidate',
  options: {
    level: { type: 'string', choices: LEVELS, describe: 'Only this level' },
    status: { type: 'string', choices: STATUSES, describe: 'Only this status' },
    tag: { type: 'string', describe: 'Only lessons with this tag' },
    kind: { type: 'string', choices: KINDS, describe: 'Only lessons of this kind' },
    insight: { type: 'string', choices: INSIGHTS, describe: 'Only lessons of this insight type' },
    json: { type: 'boolean', default: false, describe: 'Print the lessons as JSON' },
  },
  handler: async (argv, io) => {
    const { listLessonTree, unparsedWarning } = await import('../../src/store/query.js');
    const { entries, unparsed } = await listLessonTree({ cwd: argv.C ?? process.cwd(), level: argv.level, status: argv.status, tag: argv.tag, kind: argv.kind, insight: argv.insight });
    // A file that does not parse is named, and fails the command: it is not silently one lesson fewer.
    for (const file of unparsed) io.err(`lessons: ${unparsedWarning(file)}`);
    const exitCode = unparsed.length > 0 ? 1 : 0;
    if (argv.json) {
      io.out(JSON.stringify(entries, null, 2));
      return exitCode;
    }
    if (entries.length === 0) {
      io.out('no lessons match');
      return exitCode;
    }
    for (const entry of entries) {
      const badge = [entry.level, entry.status, entry.severity, entry.kind, entry.insight].filter(Boolean).join('/');
      io.out(`${style.bold(entry.id)}  ${style.dim(badge)}\n  ${entry.title}`);
    }
    return exitCode;
  },
});
