import { OUTPUT_FORMATS } from '../../src/render/registry.js';
import { defineCommand } from '../command.js';
import { flagsParser, type Flags } from '../fast/args.js';
import type { OptionTable } from '../options.js';

const options = {
  stage: {
    type: 'string',
    value: '<stage>',
    describe: 'pre-commit: the staged change; pre-push and ci: the commits since the base;\nfinal: the working tree (never blocks)',
  },
  format: { type: 'string', value: '<fmt>', choices: OUTPUT_FORMATS, describe: 'text (default), markdown (the job summary: the gates, the findings and,\nin ci, the lessons for the change) or json' },
  json: { type: 'boolean', default: false, describe: 'same as --format json' },
  'pr-comment': {
    type: 'string',
    value: '<file>',
    describe: 'ci: also write the section "Lessons for this change" to <file> (inside\nthe repository), as the body of a pull request comment',
  },
  base: {
    type: 'string',
    value: '<ref>',
    describe: "the commit to compare against (default in CI: the pull request's base from\nthe event payload, or GITHUB_BASE_REF; else the upstream or the default branch)",
  },
  head: { type: 'string', value: '<ref>', describe: 'the commit to check (pre-push and ci; default HEAD)' },
} as const satisfies OptionTable;

export type GuardFlags = Flags<typeof options>;

/** On the commit path: it skips yargs and loads only what its gates use (cli/fast/guard.ts). */
export default defineCommand<GuardFlags>({
  command: 'guard',
  describe: 'Check the workflow gates for a stage: --stage pre-commit|pre-push|ci|final',
  example: 'lessons guard --stage final',
  usage: ['guard --stage pre-commit|pre-push|ci|final [--format text|markdown|json] [--base <ref>] [--head <ref>] [--pr-comment <file>] [-C <dir>]'],
  options,
  epilog:
    'Runs the workflow gates of policy/workflow-policy.json for a stage and exits 1 when one blocks.\n' +
    'In ci the report ends with "Lessons for this change": the lessons whose triggers match the\n' +
    "range's paths and commands and those preflight selects for its commit subjects, with their\n" +
    "checklists, at most the policy's preflight.change_max.\n" +
    'Exit codes: 0 nothing blocks, 1 blocked, 2 usage or configuration error.',
  fast: flagsParser<typeof options>(),
  handler: async (argv) => (await import('../fast/guard.js')).guardCommand(argv),
});
