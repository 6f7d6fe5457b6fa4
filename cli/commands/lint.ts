import { defineCommand } from '../command.js';
import { parseLikeYargs } from '../fast/like-yargs.js';

export default defineCommand<{ json: boolean; quiet: boolean }>({
  command: 'lint',
  describe: 'Validate every lesson: schema, ids, levels, references, checklists, evidence',
  example: 'lessons lint --json',
  options: {
    json: { type: 'boolean', default: false, describe: 'Print findings as JSON' },
    quiet: { type: 'boolean', default: false, describe: 'No progress on the terminal (shown only on a terminal, never with --json or NO_COLOR)' },
  },
  // Read without yargs: it runs from a bundle of its own (cli/fast/bundle.ts).
  fast: parseLikeYargs,
  handler: async (argv, io) => {
    const { lint } = await import('../../src/lint/lint-repository.js');
    const { lintReporters } = await import('../../src/lint/reporter.js');
    const { renderStdout } = await import('../../src/render/registry.js');
    const { progressFor } = await import('../../src/io/progress.js');
    const progress = progressFor('lint', { stream: process.stderr, env: process.env, quiet: argv.json || argv.quiet });
    const result = await lint({ cwd: argv.C ?? process.cwd(), now: new Date(), progress });
    io.out(renderStdout(lintReporters, argv.json ? 'json' : 'text', result, process.env));
    return result.errors > 0 ? 1 : 0;
  },
});
