import yargs, { type CommandModule } from 'yargs';
import { resolveCwd } from '../src/io/repo.js';
import { outcome } from './command.js';
import { setupColor } from './format.js';
import initCommand from './commands/init.js';
import lintCommand from './commands/lint.js';
import listCommand from './commands/list.js';
import newCommand from './commands/new.js';
import showCommand from './commands/show.js';
import reviewCommand from './commands/review.js';
import captureCommand from './commands/capture.js';
import acceptCommand from './commands/accept.js';
import promoteCommand from './commands/promote.js';
import applyCommand from './commands/apply.js';
import retireCommand from './commands/retire.js';
import reportCommand from './commands/report.js';
import exportCommand from './commands/export.js';
import askCommand from './commands/ask.js';
import mcpCommand from './commands/mcp.js';
import { UsageError } from '../src/errors.js';
import { commandWord } from './fast/args.js';
import { usageMessage } from './usage-message.js';

const YARGS_COMMANDS: Pick<CommandModule, 'command'>[] = [
  lintCommand,
  newCommand,
  showCommand,
  listCommand,
  reviewCommand,
  captureCommand,
  acceptCommand,
  promoteCommand,
  applyCommand,
  retireCommand,
  reportCommand,
  initCommand,
  exportCommand,
  askCommand,
  mcpCommand,
];

/** Listed for --help only: these run before yargs is loaded (cli/lessons.ts FAST_COMMANDS). */
const FAST_COMMANDS: [string, string][] = [
  ['preflight <task..>', 'Select the lessons that matter for a task, with their checklists (--help for options)'],
  ['guard', 'Check the workflow gates for a stage: --stage pre-commit|pre-push|ci|final'],
  ['hooks <action>', 'Install, remove or show the git hooks (or --claude|--codex|--cursor agent hooks)'],
  ['index', 'Write lessons/index.json from the lessons (--check: fail when the committed one is stale)'],
  ['hook <harness> [event]', 'Answer an agent harness hook (claude, codex, cursor) from stdin; never blocks'],
];

/** Each command word and its usage (`show <id>`), for messages (the list above, as registered below). */
const USAGES: Record<string, string> = Object.fromEntries(
  [...FAST_COMMANDS.map(([usage]) => usage), ...YARGS_COMMANDS.map((module) => String(module.command))].map((usage) => [usage.split(' ')[0]!, usage]),
);

/** Every command that is not on the hot path, parsed by yargs. Returns the exit code. */
export async function runYargs(args: string[]): Promise<0 | 1 | 2> {
  setupColor(args);
  outcome.exitCode = 0;
  const base = yargs(args)
    .scriptName('lessons')
    .usage('$0 <command> [options]\n\nA git-native lessons repository: the right lessons before the work starts.')
    .option('C', { type: 'string', describe: 'Run as if started in <dir> (like git -C)', requiresArg: true })
    .option('debug', { type: 'boolean', default: false, describe: 'Show stack traces for internal errors' })
    .option('color', { type: 'boolean', describe: 'Colour the output (off when NO_COLOR is set or stdout is not a terminal)' })
    .middleware((argv) => {
      if (argv.C !== undefined) argv.C = resolveCwd(String(argv.C));
    });
  const parser = FAST_COMMANDS.reduce((argv, [usage, describe]) => argv.command(usage, describe), base)
    .command(lintCommand)
    .command(newCommand)
    .command(showCommand)
    .command(listCommand)
    .command(reviewCommand)
    .command(captureCommand)
    .command(acceptCommand)
    .command(promoteCommand)
    .command(applyCommand)
    .command(retireCommand)
    .command(reportCommand)
    .command(initCommand)
    .command(exportCommand)
    .command(askCommand)
    .command(mcpCommand)
    .example('lessons preflight "bump the version and publish the release"', 'the lessons for a task, before it starts')
    .example('lessons help new', 'the options of one command, with an example')
    .demandCommand(1, 'say which command to run')
    .recommendCommands()
    .strict()
    .help()
    .alias('h', 'help')
    .version(false)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((message, error) => {
      // Throwing stops yargs before any handler runs.
      throw error ?? new UsageError(usageMessage(message, commandWord(args), USAGES));
    });
  await parser.parseAsync();
  return outcome.exitCode;
}
