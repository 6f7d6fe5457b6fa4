import type { CommandTable } from '../options.js';

export const INDEX = {
  command: 'index',
  describe: 'Write lessons/index.json from the lessons (--check: fail when the committed one is stale)',
  usage: ['index [--check] [--json] [-C <dir>]'],
  options: {
    check: {
      type: 'boolean',
      default: false,
      describe: 'write nothing; exit 1 when the committed lessons/index.json is stale, naming the\nlessons that differ',
    },
    json: { type: 'boolean', default: false, describe: 'print the result as JSON' },
  },
  epilog: 'Writes lessons/index.json from the lesson files (atomically; the same bytes for an unchanged tree).',
} as const satisfies CommandTable;
