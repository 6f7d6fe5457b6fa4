import { defineCommand } from '../command.js';

export default defineCommand<{ id: string; json: boolean }>({
  command: 'show <id>',
  describe: 'Print a lesson',
  example: 'lessons show case-2026-05-12-plugin-version-bump',
  positionals: {
    id: { required: true, describe: "The lesson id, or a prefix of it no other id starts with (a related entry's handle)" },
  },
  options: {
    json: { type: 'boolean', default: false, describe: 'Print its index entry and body as JSON' },
  },
  handler: async (argv, io) => {
    const { showLesson } = await import('../../src/store/query.js');
    const result = await showLesson({ cwd: argv.C ?? process.cwd(), id: String(argv.id) });
    io.out(argv.json ? JSON.stringify({ ...result.entry, text: result.text }, null, 2) : `${result.entry.path}\n\n${result.text}`);
    return 0;
  },
});
