import { UsageError } from '../../src/errors.js';
import { escalation, redaction } from './capture-outcome.js';
import { defineCommand } from '../command.js';
import { parseLikeYargs } from '../fast/like-yargs.js';

const SAY_WHAT = 'say what to capture: lessons capture <transcript|-> (lesson blocks in text), lessons capture --from-error <log|->, or lessons capture --from-success <log|->';

export default defineCommand<{ file?: string; fromError?: string; fromSuccess?: string; json: boolean }>({
  command: 'capture [file]',
  describe: 'Turn [LESSON] and [PROCESS_KNOWLEDGE] blocks of a transcript or PR body into candidate cases; --from-error asks the reviewer to generalise an error log into one, --from-success to draw a best practice from a log of work that went well',
  example: 'lessons capture transcript.jsonl',
  positionals: {
    file: { describe: 'The text to read (a transcript, JSONL, a PR body); - for standard input' },
  },
  options: {
    'from-error': { type: 'string', requiresArg: true, describe: 'An error log (or - for stdin) to generalise into a candidate case' },
    'from-success': { type: 'string', requiresArg: true, describe: 'A log of work that succeeded (or - for stdin) to draw a best practice from' },
    json: { type: 'boolean', default: false, describe: 'Print the result as JSON' },
  },
  // Read without yargs: it runs from a bundle of its own (cli/fast/bundle.ts).
  fast: parseLikeYargs,
  handler: async (argv, io) => {
    if (argv.fromError !== undefined && argv.fromSuccess !== undefined) throw new UsageError('pass --from-error <log> or --from-success <log>, not both');
    const log = argv.fromError ?? argv.fromSuccess;
    if (log !== undefined) {
      if (argv.file !== undefined) throw new UsageError(`pass a transcript or --from-${argv.fromError !== undefined ? 'error' : 'success'} <log>, not both`);
      const { runFromError } = await import('./capture-from-error.js');
      return runFromError({ ...argv, fromError: log, outcome: argv.fromError !== undefined ? 'error' : 'success' }, io);
    }
    const { captureLessons } = await import('../../src/capture/capture.js');
    // yargs reads a lone `-` positional as ''.
    const source = argv.file === '' ? '-' : argv.file;
    const result = await captureLessons({ cwd: argv.C ?? process.cwd(), source, now: new Date(), stdin: () => readStdin(source === undefined) });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return 0;
    }
    if (result.blocks === 0) {
      io.out('no [LESSON] or [PROCESS_KNOWLEDGE] blocks found; nothing written');
      return 0;
    }
    for (const outcome of result.outcomes) {
      if (outcome.action === 'created') io.out(`created ${outcome.path} (candidate, source: auto)${redaction(outcome)}`);
      else io.out(`bumped ${outcome.path}: near-duplicate of ${outcome.duplicateOf} (similarity ${outcome.similarity?.toFixed(2)}); occurrences +1${escalation(outcome)}${redaction(outcome)}`);
    }
    return 0;
  },
});

/** Standard input; without a `-`, a terminal or empty input means nothing was said to capture. */
async function readStdin(implicit: boolean): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError(SAY_WHAT);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (implicit && text.trim() === '') throw new UsageError(SAY_WHAT);
  return text;
}
