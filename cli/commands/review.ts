import { defineCommand } from '../command.js';

export default defineCommand<{ base?: string; json: boolean }>({
  command: 'review',
  describe: 'Ask the configured reviewer (default: codex exec, read-only) to check the diff against the lessons; advisory unless review.block_on says otherwise',
  example: 'lessons review --base origin/main',
  options: {
    base: { type: 'string', requiresArg: true, describe: 'Also review what the branch committed since <ref> (default in a pull request: origin/$GITHUB_BASE_REF)' },
    json: { type: 'boolean', default: false, describe: 'Print the review as JSON' },
  },
  handler: async (argv, io) => {
    const { review } = await import('../../src/review/review.js');
    const { reviewReporters } = await import('../../src/review/reporter.js');
    const { renderStdout } = await import('../../src/render/registry.js');
    const pullRequestBase = process.env.GITHUB_BASE_REF ? `origin/${process.env.GITHUB_BASE_REF}` : undefined;
    const result = await review({ cwd: argv.C ?? process.cwd(), base: argv.base ?? pullRequestBase });
    io.out(renderStdout(reviewReporters, argv.json ? 'json' : 'text', result, process.env));
    return result.blocked ? 1 : 0;
  },
});
