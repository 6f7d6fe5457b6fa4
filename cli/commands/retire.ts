import { defineCommand } from '../command.js';

export default defineCommand<{ id: string; supersededBy?: string; reason?: string; json: boolean }>({
  command: 'retire <id>',
  describe: 'Retire a lesson: it stays findable but is never selected again',
  example: 'lessons retire case-2026-01-10-old-runner --reason "the runner was replaced"',
  positionals: {
    id: { required: true, describe: 'The lesson id' },
  },
  options: {
    'superseded-by': { type: 'string', requiresArg: true, describe: 'The lesson that replaces it' },
    reason: { type: 'string', requiresArg: true, describe: 'Why it no longer holds' },
    json: { type: 'boolean', default: false, describe: 'Print the result as JSON' },
  },
  handler: async (argv, io) => {
    const { retireLesson } = await import('../../src/lifecycle/retire.js');
    const result = await retireLesson({ cwd: argv.C ?? process.cwd(), id: String(argv.id), supersededBy: argv.supersededBy, reason: argv.reason, now: new Date() });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return 0;
    }
    io.out(`retired ${result.id}${result.superseded_by ? ` (superseded by ${result.superseded_by})` : ''}${result.retired_reason ? `: ${result.retired_reason}` : ''}`);
    if (result.referencedBy.length > 0) io.out(`still referenced by ${result.referencedBy.join(', ')} (lint warns about each)`);
    return 0;
  },
});
