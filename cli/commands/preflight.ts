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
    describe: 'cap the printed size, dropping related entries first, then whole\nlessons from the bottom; a token is estimated as 4 characters',
  },
  limit: { type: 'string', value: '<n>', describe: 'apply at most n lessons (critical trigger matches always apply)' },
  format: { type: 'string', value: '<fmt>', choices: OUTPUT_FORMATS, describe: 'text (default), markdown (for a PR or status update) or json' },
  json: { type: 'boolean', describe: 'same as --format json' },
  rerank: {
    type: 'boolean',
    describe: "ask the configured reviewer (policy review.command) which lessons of\nboth tiers (the related one 8 deep) apply: the ones it approves\napply, with its reasons (related ones are promoted, at most\nrelated_max). Falls back to the plain ranking, and says so, when\nthe reviewer fails. Task mode only; never used by hooks",
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
    'Print the lessons to have in front of you before a task in two tiers, and record both in\n' +
    'the receipt .lessons/preflight/last.json. The lessons that apply are shown in full with\n' +
    'their checklist, only when confident (a trigger matched, or the task names their\n' +
    "subject); up to the policy's related_max related lessons below them get one line each,\n" +
    'to open with `lessons show <id>` when one fits the task. With --tool, --path or\n' +
    "--command and no task (hook mode) at most the policy's hook_max lessons apply, those\n" +
    'whose own triggers match the call first, critical ones first; a critical lesson whose\n' +
    'trigger matches always applies.\n\n' +
    'Exit codes: 0 on a normal run (also when nothing matches), 2 on a usage error or outside\n' +
    'a lessons repository.',
  fast: flagsParser<typeof options>('run `lessons preflight --help` for the options'),
  handler: async (argv, _io, importModule) => (await import('../fast/preflight.js')).preflightCommand(argv, importModule),
  // Not a run that rebuilt the search cache: its one-off code stays out of the code cache.
  cacheable: isUsualRun,
});
