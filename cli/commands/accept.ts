import { defineCommand } from '../command.js';

export default defineCommand<{ id: string; canonical: boolean; json: boolean }>({
  command: 'accept <id>',
  describe: 'Mark a lesson validated (or canonical) after review, stamping last_validated_at',
  example: 'lessons accept case-2026-05-12-plugin-version-bump',
  positionals: {
    id: { required: true, describe: 'The lesson id' },
  },
  options: {
    canonical: { type: 'boolean', default: false, describe: 'Make it canonical: proven, the reference form' },
    json: { type: 'boolean', default: false, describe: 'Print the result as JSON' },
  },
  handler: async (argv, io) => {
    const { acceptLesson } = await import('../../src/lifecycle/accept.js');
    const result = await acceptLesson({ cwd: argv.C ?? process.cwd(), id: String(argv.id), canonical: argv.canonical, now: new Date() });
    if (argv.json) io.out(JSON.stringify(result, null, 2));
    else if (result.from === result.to) io.out(`re-validated ${result.id} (${result.to}, last_validated_at ${result.last_validated_at})`);
    else io.out(`accepted ${result.id}: ${result.from} -> ${result.to} (last_validated_at ${result.last_validated_at})`);
    return 0;
  },
});
