import { defineCommand } from '../command.js';

interface SourcesArgs {
  action: 'update' | 'status';
  locked: boolean;
  json: boolean;
  quiet: boolean;
}

export default defineCommand<SourcesArgs>({
  command: 'sources <action>',
  describe: "Fetch other repositories' lessons through git (update [--locked]) or say what is behind (status)",
  example: 'lessons sources update --locked',
  positionals: {
    action: {
      required: true,
      choices: ['update', 'status'],
      describe:
        'update: fetch and lock (exit 1 when a source fails); status: compare the lock, the checkouts and the remotes (exit 0 when every source is current, 1 when one is behind, rewritten, missing or mismatched with the lock, 2 when only a remote could not be reached)',
    },
  },
  options: {
    locked: { type: 'boolean', default: false, describe: 'update: check out exactly the commits of lessons/sources.lock.json (for CI); fail on a mismatch' },
    json: { type: 'boolean', default: false, describe: 'Print the result as JSON' },
    quiet: { type: 'boolean', default: false, describe: 'No progress on the terminal' },
  },
  handler: async (argv, io) => {
    if (argv.action === 'status') {
      const { sourcesStatus, statusExitCode } = await import('../../src/sources/status.js');
      const result = await sourcesStatus({ cwd: argv.C ?? process.cwd() });
      if (argv.json) io.out(JSON.stringify(result, null, 2));
      else if (result.sources.length === 0) io.out('no sources in the policy (add them under "sources" in policy/workflow-policy.json)');
      else for (const source of result.sources) io.out(`${source.name}: ${source.state}: ${source.message}`);
      return statusExitCode(result);
    }
    const { updateSources } = await import('../../src/sources/update.js');
    const { progressFor } = await import('../../src/io/progress.js');
    const progress = progressFor('sources', { stream: process.stderr, env: process.env, quiet: argv.json || argv.quiet });
    const result = await updateSources({ cwd: argv.C ?? process.cwd(), locked: argv.locked, progress });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
    } else {
      if (result.sources.length === 0) io.out('no sources in the policy (add them under "sources" in policy/workflow-policy.json)');
      for (const source of result.sources) {
        if (source.status === 'failed') io.err(`${source.name}: failed: ${source.message}`);
        else io.out(`${source.name}: ${source.status} at ${source.commit!.slice(0, 12)}${source.message ? ` (${source.message})` : ''}`);
      }
      if (result.lock_written) io.out('wrote lessons/sources.lock.json: commit it');
    }
    return result.failed > 0 ? 1 : 0;
  },
});
