import { LEVELS, SEVERITIES, type Level, type Severity } from '../../src/lesson/model.js';
import { defineCommand } from '../command.js';

export default defineCommand<{ title: string; level: Level; tags: string | string[]; severity: Severity; force: boolean; id?: string; date?: string; json: boolean }>({
  command: 'new <title>',
  example: 'lessons new "Version bump missed the manifest" --tags release,manifest --severity high',
  describe: 'Write a new candidate lesson from the template, update the index, and print its path and what to fill in',
  positionals: {
    title: { required: true, describe: 'What went wrong, in a short sentence' },
  },
  options: {
    level: { type: 'string', choices: LEVELS, default: 'case' as Level, describe: 'Which level the lesson is' },
    tags: { type: 'string', default: '', describe: 'Comma-separated tags' },
    severity: { type: 'string', choices: SEVERITIES, default: 'medium' as Severity, describe: 'How bad a repeat would be' },
    id: { type: 'string', requiresArg: true, describe: 'The lesson\'s id (default: the level, a case\'s date and the first few words of the title)' },
    date: { type: 'string', requiresArg: true, describe: 'The day the incident happened (YYYY-MM-DD), for a lesson written after the fact: its created_at, last_seen and a case\'s id' },
    force: { type: 'boolean', default: false, describe: 'Write the lesson even when an existing one reads alike' },
    json: { type: 'boolean', default: false, describe: 'Print the result as JSON' },
  },
  handler: async (argv, io) => {
    const { newLesson } = await import('../../src/lifecycle/new.js');
    const result = await newLesson({ cwd: argv.C ?? process.cwd(), title: String(argv.title), level: argv.level, tags: splitList(argv.tags), severity: argv.severity, force: argv.force, id: argv.id, date: argv.date, now: new Date() });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return 0;
    }
    io.out(result.path);
    io.err(
      `lessons: wrote ${result.path} (a candidate) and updated ${result.index}\n` +
        'next: fill in Situation, Mistake, Root Cause and Fix, and at least one `- [ ]` item under Prevention Checklist\n' +
        `(the part preflight shows); then \`lessons lint\`, commit both files, and \`lessons accept ${result.id}\` once it is reviewed`,
    );
    return 0;
  },
});

function splitList(value: string | string[]): string[] {
  const parts = (Array.isArray(value) ? value : [value]).flatMap((part) => String(part).split(','));
  return parts.map((part) => part.trim()).filter(Boolean);
}
