import { OUTPUT_FORMATS } from '../../src/render/registry.js';
import { isUsualRun } from '../../src/io/run-state.js';
import { defineCommand } from '../command.js';
import { flagsParser, type Flags } from '../fast/args.js';
import type { OptionTable } from '../options.js';

const options = {
  path: { type: 'string', value: '<file|glob>', multiple: true, describe: 'a file about to be touched (repeatable); matched against trigger paths' },
  tool: { type: 'string', value: '<name>', describe: 'the tool about to run (e.g. Edit, Bash); matched against trigger tools' },
  command: { type: 'string', value: '"<cmd>"', describe: 'the shell command about to run; matched against trigger commands' },
  project: { type: 'string', value: '<name>', describe: 'the project (policy projects); lessons scoped to another project are not shown. Default: inferred from --path' },
  budget: {
    type: 'string',
    value: '<tokens>',
    describe: 'cap the printed size, dropping whole lessons from the bottom of the\nranking; a token is estimated as 4 characters',
  },
  limit: { type: 'string', value: '<n>', describe: 'show at most n lessons (critical trigger matches are always shown)' },
  format: { type: 'string', value: '<fmt>', choices: OUTPUT_FORMATS, describe: 'text (default), markdown (for a PR or status update) or json' },
  json: { type: 'boolean', describe: 'same as --format json' },
  rerank: {
    type: 'boolean',
    describe: "ask the configured reviewer (policy review.command) which of the\nselected lessons apply; keep only those, with its reasons. Falls\nback to the plain ranking, and says so, when the reviewer fails.\nTask mode only; never used by hooks",
  },
} as const satisfies OptionTable;

export type PreflightFlags = Flags<typeof options>;

/** Before every task and, in hook mode, every tool call: it skips yargs (cli/fast/preflight.ts). */
export default defineCommand<PreflightFlags>({
  command: 'preflight [task..]',
  describe: 'Select the lessons that matter for a task, with their checklists',
  example: 'lessons preflight "bump the version and publish the release" --path package.json',
  usage: ['preflight "<task>" [options]'],
  positionals: { task: { describe: 'What is about to be done', variadic: true } },
  options,
  epilog:
    'Print the lessons to have in front of you before a task, as a checklist, and record a\n' +
    'receipt in .lessons/preflight/last.json. With --tool, --path or --command and no task\n' +
    "(hook mode) it returns at most the policy's hook_max lessons whose triggers match,\n" +
    'critical ones first; a critical lesson whose trigger matches is always returned.\n\n' +
    'Exit codes: 0 on a normal run (also when nothing matches), 2 on a usage error or outside\n' +
    'a lessons repository.',
  fast: flagsParser<typeof options>('run `lessons preflight --help` for the options'),
  handler: async (argv, _io, importModule) => (await import('../fast/preflight.js')).preflightCommand(argv, importModule),
  // Not a run that rebuilt the search cache: its one-off code stays out of the code cache.
  cacheable: isUsualRun,
});
