import { defineCommand } from '../command.js';

interface AskArgs {
  questions: string[];
  json: boolean;
  record: boolean;
  question?: string;
  answer?: string;
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
    record: { type: 'boolean', default: false, describe: 'Store a human answer under references/answers/ (with --question and --answer)' },
    question: { type: 'string', describe: 'With --record: the question that was asked' },
    answer: { type: 'string', describe: 'With --record: the answer the human gave (at least 20 characters)' },
  },
  run: async (argv, io) => {
    const cwd = argv.C ?? process.cwd();
    if (argv.record) {
      const { UsageError } = await import('../../src/errors.js');
      if (argv.question === undefined || argv.answer === undefined) throw new UsageError('--record needs --question "<question>" and --answer "<answer>"');
      const { recordAnswer } = await import('../../src/ask/command.js');
      const result = await recordAnswer({ cwd, question: argv.question, answer: argv.answer });
      if (argv.json) io.out(JSON.stringify(result, null, 2));
      else io.out(result.outcome === 'written' ? `recorded ${result.path}` : `already recorded in ${result.path}: nothing written`);
      return 0;
    }
    const { askQuestions } = await import('../../src/ask/command.js');
    const answers = await askQuestions({ cwd, questions: (argv.questions ?? []).map(String) });
    if (argv.json) {
      io.out(JSON.stringify({ questions: answers }, null, 2));
      return 0;
    }
    const lines: string[] = [];
    for (const answer of answers) {
      lines.push(`Q: ${answer.question}`);
      if (!answer.found) {
        lines.push('  not found in lessons/ or references/: ask a human, then keep the answer with');
        lines.push(`  lessons ask --record --question ${JSON.stringify(answer.question)} --answer "<the answer>"`);
      }
      answer.sources.forEach((source, i) => {
        lines.push(`  ${i + 1}. ${source.path} (${source.title})`);
        if (source.excerpt) lines.push(`     ${source.excerpt}`);
      });
    }
    io.out(lines.join('\n'));
    return 0;
  },
});
