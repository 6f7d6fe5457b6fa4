import { LEVELS, SEVERITIES, type Level, type Severity } from '../../src/lesson/model.js';
import { defineCommand } from '../command.js';

export default defineCommand<{ title: string; level: Level; tags: string[]; severity: Severity; force: boolean; json: boolean }>({
  command: 'new <title>',
  describe: 'Write a new candidate lesson from the template and print its path',
  builder: (yargs) =>
    yargs
      .positional('title', { type: 'string', demandOption: true, describe: 'What went wrong, in a short sentence' })
      .option('level', { choices: LEVELS, default: 'case' as Level, describe: 'Which level the lesson is' })
      .option('tags', { type: 'string', default: '', describe: 'Comma-separated tags', coerce: (value: string | string[]) => splitList(value) })
      .option('severity', { choices: SEVERITIES, default: 'medium' as Severity, describe: 'How bad a repeat would be' })
      .option('force', { type: 'boolean', default: false, describe: 'Write the lesson even when an existing one reads alike' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' }) as never,
  run: async (argv, io) => {
    const { newLesson } = await import('../../src/lesson/new.js');
    const result = await newLesson({ cwd: argv.C ?? process.cwd(), title: String(argv.title), level: argv.level, tags: argv.tags, severity: argv.severity, force: argv.force, now: new Date() });
    io.out(argv.json ? JSON.stringify(result, null, 2) : result.path);
    return 0;
  },
});

function splitList(value: string | string[]): string[] {
  const parts = (Array.isArray(value) ? value : [value]).flatMap((part) => String(part).split(','));
  return parts.map((part) => part.trim()).filter(Boolean);
}
