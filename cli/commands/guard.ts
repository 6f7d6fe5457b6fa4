import { defineCommand } from '../command.js';
import { flagsParser, type Flags } from '../fast/args.js';
import type { OptionTable } from '../options.js';

const options = {
  stage: {
    type: 'string',
    value: '<stage>',
    describe: 'pre-commit: the staged change; pre-push and ci: the commits since the base;\nfinal: the working tree (never blocks)',
  },
  json: { type: 'boolean', default: false, describe: 'print the report as JSON' },
  base: {
    type: 'string',
    value: '<ref>',
    describe: 'the commit to compare against (default: GITHUB_BASE_REF in CI, the upstream,\nor the default branch)',
  },
  head: { type: 'string', value: '<ref>', describe: 'the commit to check (pre-push and ci; default HEAD)' },
} as const satisfies OptionTable;

export type GuardFlags = Flags<typeof options>;

/** On the commit path: it skips yargs and loads only what its gates use (cli/fast/guard.ts). */
export default defineCommand<GuardFlags>({
  command: 'guard',
  describe: 'Check the workflow gates for a stage: --stage pre-commit|pre-push|ci|final',
  example: 'lessons guard --stage final',
  usage: ['guard --stage pre-commit|pre-push|ci|final [--json] [--base <ref>] [--head <ref>] [-C <dir>]'],
  options,
  epilog: 'Runs the workflow gates of policy/workflow-policy.json for a stage and exits 1 when one blocks.\nExit codes: 0 nothing blocks, 1 blocked, 2 usage or configuration error.',
  fast: flagsParser<typeof options>(),
  handler: async (argv) => (await import('../fast/guard.js')).guardCommand(argv),
});
