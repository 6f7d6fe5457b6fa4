import { defineCommand } from '../command.js';

export default defineCommand<{ ids: string[]; to: 'pattern' | 'principle'; title: string; id?: string; json: boolean }>({
  command: 'promote <ids..>',
  describe: 'Write a pattern from >= 2 independent cases, or a principle from patterns applied in >= 3 contexts',
  example: 'lessons promote case-a case-b --to pattern --title "Bump every manifest from one input"',
  builder: (yargs) =>
    yargs
      .positional('ids', { type: 'string', array: true, demandOption: true, describe: 'The source cases (--to pattern) or patterns (--to principle)' })
      .option('to', { choices: ['pattern', 'principle'] as const, demandOption: true, describe: 'The level of the new lesson' })
      .option('title', { type: 'string', demandOption: true, requiresArg: true, describe: 'What the sources have in common, in a short sentence' })
      .option('id', { type: 'string', requiresArg: true, describe: 'The id of the new lesson (default: from the title)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' }) as never,
  run: async (argv, io) => {
    const { promoteLessons } = await import('../../src/lifecycle/promote.js');
    const result = await promoteLessons({
      cwd: argv.C ?? process.cwd(),
      sources: argv.ids.map(String),
      to: argv.to,
      title: String(argv.title),
      id: argv.id,
      now: new Date(),
    });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
    } else {
      io.out(`wrote ${result.path} (candidate ${result.level} from ${result.sources.join(', ')}; ${result.checklist} checklist item${result.checklist === 1 ? '' : 's'} gathered)`);
      io.out(`review its checklist, then run \`lessons accept ${result.id}\``);
    }
    return 0;
  },
});
