import { defineCommand } from '../command.js';

export default defineCommand<{ force: boolean; json: boolean; 'pr-comment': boolean }>({
  command: 'init',
  describe: 'Turn this git repository into a lessons repository (folders, schemas, policy, workflow, AGENTS.md block)',
  example: 'lessons init && lessons hooks install',
  options: {
    force: { type: 'boolean', default: false, describe: 'Replace files (and the AGENTS.md block) that differ from what init writes' },
    json: { type: 'boolean', default: false, describe: 'Print what was created, updated and skipped as JSON' },
    'pr-comment': {
      type: 'boolean',
      default: false,
      describe: "Write the workflow with a step that puts the guard's \"Lessons for this change\" on each pull request as one comment, updated on each push (the job's token gets pull-requests: write)",
    },
  },
  handler: async (argv, io) => {
    const { initRepo } = await import('../../src/init/init.js');
    const result = await initRepo({ cwd: argv.C ?? process.cwd(), force: argv.force, prComment: argv['pr-comment'] });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return 0;
    }
    for (const entry of result.entries) io.out(`${entry.action.padEnd(8)} ${entry.path}${entry.reason ? ` (${entry.reason})` : ''}`);
    if (result.mergeDriver === 'set') io.out('set      git config merge.lessons-index and .git/info/attributes (this clone merges lessons/index.json lesson by lesson)');
    const { gitAddPaths, firstPullRequestLines } = await import('../../src/init/next-steps.js');
    const written = gitAddPaths(result.entries);
    if (written.length === 0) {
      io.out('nothing to do: this is already a lessons repository');
      return 0;
    }
    io.out(`next: \`${result.command} hooks install\`, then commit the new files (\`git add ${written.join(' ')}\`)`);
    if (result.firstPullRequest) for (const line of firstPullRequestLines(result.firstPullRequest)) io.out(line);
    return 0;
  },
});
