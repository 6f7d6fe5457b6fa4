import { defineCommand } from '../command.js';

export default defineCommand<{ file?: string; json: boolean; rerank: boolean }>({
  command: 'eval [file]',
  describe: "Run the retrieval regression tests (lessons/evals.json): recall, false positives and each miss with preflight's reasons",
  example: 'lessons eval --json',
  positionals: {
    file: { describe: 'The evals file (default: lessons/evals.json)' },
  },
  options: {
    json: { type: 'boolean', default: false, describe: 'Print the result as JSON' },
    rerank: { type: 'boolean', default: false, describe: "Judge each task case's lessons (both tiers) with the policy's reviewer first, as preflight --rerank does: measures your own model" },
  },
  handler: async (argv, io) => {
    const { runEval } = await import('../../src/eval/eval.js');
    const { result, warning } = await runEval({ cwd: argv.C ?? process.cwd(), file: argv.file, now: new Date(), rerank: argv.rerank });
    if (warning) io.err(`lessons: warning: ${warning}`);
    const { evalReporters } = await import('../../src/eval/reporter.js');
    io.out(evalReporters[argv.json ? 'json' : 'text'](result));
    return result.passed ? 0 : 1;
  },
});
