import { defineCommand } from '../command.js';
import { flagsParser, type Flags } from '../fast/args.js';
import type { OptionSpec, OptionTable } from '../options.js';
import { HARNESSES, HARNESS_NAMES } from '../../src/harness/registry.js';

const FLAGS = HARNESS_NAMES.map((name) => `--${name}`).join('|');

/** `--claude`, `--codex`, ...: one flag per registered harness; the last one's help says what they all do. */
const HARNESS_OPTIONS: Record<string, OptionSpec> = Object.fromEntries(
  HARNESSES.map((harness, i) => {
    const what = `${i === 0 ? 'merge the agent hook entries' : 'merge them'} into ${harness.settings.file} (${harness.product})`;
    const last = i === HARNESSES.length - 1 ? '\n(with any of these, only the agent settings are written; never clobbered;\nuninstall removes only the lessons entries; a command you edited is kept)' : '';
    return [harness.name, { type: 'boolean', default: false, describe: `${what}${last}` }];
  }),
);

const options = {
  json: { type: 'boolean', default: false, describe: 'print the result as JSON' },
  ...HARNESS_OPTIONS,
} as const satisfies OptionTable;

export type HooksFlags = Flags<typeof options>;

/** prepare-commit-msg and commit-msg run it on every commit, so it skips yargs (cli/fast/hooks.ts). */
export default defineCommand<HooksFlags>({
  command: 'hooks <action>',
  describe: `Install, remove or show the git hooks (or ${FLAGS} agent hooks)`,
  example: 'lessons hooks install && lessons hooks install --claude',
  usage: ['hooks install|uninstall|status [--json] [-C <dir>]', `hooks install|uninstall ${FLAGS} [--json] [-C <dir>]`],
  positionals: { action: { describe: 'install, uninstall or status', required: true } },
  options,
  epilog:
    '  install     write pre-commit, prepare-commit-msg, commit-msg, pre-push, post-merge, post-checkout\n' +
    '              and post-rewrite hooks where git runs hooks from (core.hooksPath aware); a hook\n' +
    '              already there is moved aside and runs first\n' +
    '  uninstall   remove them and put back what install moved aside\n' +
    '  status      show which hooks are installed\n' +
    'Agent hooks run the project\'s node_modules/.bin/lessons, else `lessons` on PATH, and say\n' +
    'on stderr when neither exists. `lessons doctor` checks the whole set-up.\n' +
    'The hooks call `lessons hooks prepare-commit-msg|commit-msg <file> [source]` to add the\n' +
    'Lessons-Preflight trailer, `lessons guard` to check commits and pushes, and, after a\n' +
    'merge, checkout or rewrite, `lessons hooks refresh` to bring the search cache up to date\n' +
    '(in the background for a large index) so the next preflight and agent hook find it fresh.\n' +
    'LESSONS_DISABLE=1 turns every hook into a no-op.',
  fast: flagsParser<typeof options>(),
  handler: async (argv) => (await import('../fast/hooks.js')).hooksCommand(argv),
});
