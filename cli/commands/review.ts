import { defineCommand } from '../command.js';

export default defineCommand<{ base?: string; json: boolean }>({
  command: 'review',
  describe: 'Ask the configured reviewer (default: codex exec, read-only) to check the diff against the lessons; advisory unless review.block_on says otherwise',
  example: 'lessons review --base origin/main',
  builder: (yargs) =>
    yargs
      .option('base', { type: 'string', requiresArg: true, describe: 'Also review what the branch committed since <ref> (default in a pull request: origin/$GITHUB_BASE_REF)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the review as JSON' }) as never,
  run: async (argv, io) => {
    const { review } = await import('../../src/review/command.js');
    const { reviewAnnotations, reviewJson, reviewText } = await import('../../src/review/report.js');
    const { inGitHubActions } = await import('../../src/util/workflow-commands.js');
    const pullRequestBase = process.env.GITHUB_BASE_REF ? `origin/${process.env.GITHUB_BASE_REF}` : undefined;
    const result = await review({ cwd: argv.C ?? process.cwd(), base: argv.base ?? pullRequestBase });
    if (argv.json) {
      io.out(JSON.stringify(reviewJson(result), null, 2));
    } else {
      if (inGitHubActions(process.env)) for (const line of reviewAnnotations(result)) io.out(line);
      for (const line of reviewText(result)) io.out(line);
    }
    return result.blocked ? 1 : 0;
  },
});
