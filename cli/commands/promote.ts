import { defineCommand } from '../command.js';

export default defineCommand<{ ids: string[]; to: 'pattern' | 'principle'; title: string; id?: string; toSource?: string; json: boolean }>({
  command: 'promote <ids..>',
  describe: 'Write a pattern from >= 2 independent cases, or a principle from patterns applied in >= 3 contexts',
  example: 'lessons promote case-a case-b --to pattern --title "Bump every manifest from one input"',
  positionals: {
    ids: { variadic: true, required: true, describe: 'The source cases (--to pattern) or patterns (--to principle)' },
  },
  options: {
    to: { type: 'string', choices: ['pattern', 'principle'] as const, required: true, describe: 'The level of the new lesson' },
    title: { type: 'string', required: true, requiresArg: true, describe: 'What the sources have in common, in a short sentence' },
    id: { type: 'string', requiresArg: true, describe: 'The id of the new lesson (default: from the title)' },
    'to-source': { type: 'string', requiresArg: true, describe: "Write it into a new branch of this source's checkout (ready to push, never pushed) instead of here" },
    json: { type: 'boolean', default: false, describe: 'Print the result as JSON' },
  },
  handler: async (argv, io) => {
    if (argv.toSource !== undefined) {
      const { promoteToSource } = await import('../../src/lifecycle/promote-source.js');
      const result = await promoteToSource({ cwd: argv.C ?? process.cwd(), ids: argv.ids.map(String), to: argv.to, title: String(argv.title), id: argv.id, source: argv.toSource, now: new Date() });
      if (argv.json) io.out(JSON.stringify(result, null, 2));
      else {
        io.out(`committed ${result.path} to branch ${result.branch} of source ${result.source} (candidate ${result.level} from ${result.evidence.join(', ')})`);
        io.out(`review it, then push it yourself: ${result.push.join(' ')}`);
      }
      return 0;
    }
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
      io.out(`write its Situation (what the sources have in common) and review its checklist, then run \`lessons accept ${result.id}\``);
    }
    return 0;
  },
});
