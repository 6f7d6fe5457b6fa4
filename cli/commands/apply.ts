import { defineCommand } from '../command.js';

export default defineCommand<{ id: string; context: string; ref: string; date?: string; json: boolean }>({
  command: 'apply <id>',
  describe: 'Record a validated application of a pattern in a context (evidence for a principle)',
  example: 'lessons apply pattern-bump-every-manifest --context web-app --ref "PR #812"',
  positionals: {
    id: { required: true, describe: 'The pattern id, or <source>:<id> for a pattern of a source' },
  },
  options: {
    context: { type: 'string', required: true, requiresArg: true, describe: 'Where it was applied: a service, an app, a team' },
    ref: { type: 'string', required: true, requiresArg: true, describe: 'The PR or commit that applied it, like "PR #812"' },
    date: { type: 'string', requiresArg: true, describe: 'When it was validated, YYYY-MM-DD (default: today)' },
    json: { type: 'boolean', default: false, describe: 'Print the result as JSON' },
  },
  handler: async (argv, io) => {
    const id = String(argv.id);
    const applyPattern = id.includes(':') ? (await import('../../src/lifecycle/apply-source.js')).applySourcePattern : (await import('../../src/lifecycle/apply.js')).applyPattern;
    const result = await applyPattern({ cwd: argv.C ?? process.cwd(), id: String(argv.id), context: String(argv.context), ref: String(argv.ref), date: argv.date, now: new Date() });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return 0;
    }
    const { application } = result;
    if (result.action === 'unchanged') io.out(`already recorded: ${result.id} in ${application.context} (${application.ref}, ${application.validated_at}); nothing changed`);
    else io.out(`recorded ${result.id} in ${application.context} (${application.ref}, ${application.validated_at})`);
    if (result.action === 'recorded' && result.repeatedContext) io.out(`note: ${application.context} already had an application; a repeated context is not a new one`);
    io.out(`${result.applications} application${result.applications === 1 ? '' : 's'} in ${result.contexts.length} distinct context${result.contexts.length === 1 ? '' : 's'} (${result.contexts.join(', ')}); a principle needs ${result.needed}`);
    return 0;
  },
});
