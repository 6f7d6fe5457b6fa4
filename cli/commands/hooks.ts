import { defineCommand } from '../command.js';
import { flagsParser, type Flags } from '../fast/args.js';
import type { OptionTable } from '../options.js';

const options = {
  json: { type: 'boolean', default: false, describe: 'print the result as JSON' },
  claude: { type: 'boolean', default: false, describe: 'merge the agent hook entries into .claude/settings.json (Claude Code)' },
  codex: { type: 'boolean', default: false, describe: 'merge them into .codex/hooks.json (Codex CLI)' },
  cursor: {
    type: 'boolean',
    default: false,
    describe: 'merge them into .cursor/hooks.json (Cursor)\n(with any of these, only the agent settings are written; never clobbered;\nuninstall removes only the lessons entries; a command you edited is kept)',
  },
} as const satisfies OptionTable;

export type HooksFlags = Flags<typeof options>;

/** prepare-commit-msg and commit-msg run it on every commit, so it skips yargs (cli/fast/hooks.ts). */
export default defineCommand<HooksFlags>({
  command: 'hooks <action>',
  describe: 'Install, remove or show the git hooks (or --claude|--codex|--cursor agent hooks)',
  example: 'lessons hooks install && lessons hooks install --claude',
  usage: ['hooks install|uninstall|status [--json] [-C <dir>]', 'hooks install|uninstall --claude|--codex|--cursor [--json] [-C <dir>]'],
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
