import { defineCommand } from '../command.js';
import { flagsParser, type Flags } from '../fast/args.js';
import type { OptionTable } from '../options.js';

const options = {
  check: {
    type: 'boolean',
    default: false,
    describe: 'write nothing; exit 1 when the committed lessons/index.json is stale, naming the\nlessons that differ',
  },
  merge: {
    type: 'boolean',
    default: false,
    describe: "git's merge driver for lessons/index.json (set up by `lessons init` and\n`lessons hooks install`): merges the three versions lesson by lesson into <ours>;\nexit 1 when both sides changed one lesson differently",
  },
  json: { type: 'boolean', default: false, describe: 'print the result as JSON' },
  quiet: { type: 'boolean', default: false, describe: 'no progress on the terminal (it shows only on a terminal, never with\n--json or NO_COLOR)' },
} as const satisfies OptionTable;

export type IndexFlags = Flags<typeof options>;

/** Run after every lesson change and in CI, so it skips yargs (cli/fast/index.ts). */
export default defineCommand<IndexFlags>({
  command: 'index',
  describe: 'Write lessons/index.json from the lessons (--check: fail when the committed one is stale)',
  usage: ['index [--check] [--json] [--quiet] [-C <dir>]', 'index --merge <base> <ours> <theirs> [<path>]'],
  options,
  example: 'lessons index && git add lessons/index.json',
  epilog: 'Writes lessons/index.json from the lesson files (atomically; the same bytes for an unchanged tree).',
  fast: flagsParser<typeof options>(),
  handler: async (argv) => (await import('../fast/index.js')).indexCommand(argv),
});
