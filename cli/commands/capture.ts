import { UsageError } from '../../src/errors.js';
import { defineCommand } from '../command.js';

export default defineCommand<{ fromError?: string; json: boolean }>({
  command: 'capture',
  describe: 'Turn text into candidate lessons; --from-error asks the reviewer to generalise an error log into one',
  builder: (yargs) =>
    yargs
      .option('from-error', { type: 'string', requiresArg: true, describe: 'An error log (or - for stdin) to generalise into a candidate case' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' }) as never,
  run: async (argv, io) => {
    if (argv.fromError === undefined) throw new UsageError('say what to capture: lessons capture --from-error <log|->');
    const { runFromError } = await import('./capture-from-error.js');
    return runFromError({ ...argv, fromError: argv.fromError }, io);
  },
});
