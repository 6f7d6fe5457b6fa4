import { defineCommand } from '../command.js';

interface AskArgs {
  questions: string[];
  json: boolean;
  record: boolean;
  question?: string;
  answer?: string;
  provenance?: string;
  reviewer?: boolean;
}

export default defineCommand<AskArgs>({
  command: 'ask [questions..]',
  describe: 'Look for the answer in the lessons and references/ before asking a human; --record keeps a human answer',
  example: 'lessons ask "which branch do releases go out from?"',
  positionals: {
    questions: { variadic: true, describe: 'One or more questions' },
  },
  options: {
    json: { type: 'boolean', default: false, describe: 'Print the answers as JSON' },
    reviewer: { type: 'boolean', describe: 'Let the reviewer decide whether the excerpts answer each question (default: when policy review.enabled is true); --no-reviewer uses word matching' },
    record: { type: 'boolean', default: false, describe: 'Store a human answer under references/answers/ (with --question and --answer)' },
    question: { type: 'string', describe: 'With --record: the question that was asked' },
    answer: { type: 'string', describe: 'With --record: the answer the human gave (at least 20 characters)' },
    provenance: { type: 'string', describe: 'With --record: who answered and where (default: a person, recorded with lessons ask --record)' },
  },
  handler: async (argv, io) => {
    const cwd = argv.C ?? process.cwd();
    if (argv.record) {
      const { UsageError } = await import('../../src/errors.js');
      if (argv.question === undefined || argv.answer === undefined) throw new UsageError('--record needs --question "<question>" and --answer "<answer>"');
      const { recordAnswer } = await import('../../src/ask/ask.js');
      const result = await recordAnswer({ cwd, question: argv.question, answer: argv.answer, provenance: argv.provenance, now: new Date() });
      if (argv.json) io.out(JSON.stringify(result, null, 2));
      else if (result.outcome === 'exists') io.out(`already recorded in ${result.path}: nothing written`);
      else io.out([`recorded ${result.path}`, ...result.superseded.map((old) => `superseded ${old} (kept, marked)`)].join('\n'));
      return 0;
    }
    const [{ askQuestions }, { foundLines }] = await Promise.all([import('../../src/ask/ask.js'), import('../../src/ask/search.js')]);
    const result = await askQuestions({ cwd, questions: (argv.questions ?? []).map(String), ...(argv.reviewer === undefined ? {} : { reviewer: argv.reviewer }) });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return 0;
    }
    const lines: string[] = [
      result.method === 'reviewer'
        ? 'decided by the reviewer, from the excerpts found in the repository only'
        : `decided by word matching${result.reviewer_problem ? ` (the reviewer failed: ${result.reviewer_problem.message})` : ''}`,
    ];
    for (const answer of result.questions) {
      lines.push(`Q: ${answer.question}`);
      if (!answer.found) {
        lines.push('  not found in lessons/ or references/: ask a human, then keep the answer with');
        lines.push(`  lessons ask --record --question ${JSON.stringify(answer.question)} --answer "<the answer>"`);
        continue;
      }
      lines.push(answer.answer === null ? '  found in the repository:' : `  found in the repository: ${answer.answer}`);
      lines.push(...foundLines(answer.sources).map((line) => `  ${line}`));
    }
    io.out(lines.join('\n'));
    return 0;
  },
});
