import yargs from 'yargs';
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
import specCommand from './commands/spec.js';
import { UsageError } from '../src/errors.js';

/** Every command that is not on the hot path, parsed by yargs. Returns the exit code. */
export async function runYargs(args: string[]): Promise<0 | 1 | 2> {
  setupColor(args);
  outcome.exitCode = 0;
  const parser = yargs(args)
    .scriptName('lessons')
    .usage('$0 <command> [options]\n\nA git-native lessons repository: the right lessons before the work starts.')
    .option('C', { type: 'string', describe: 'Run as if started in <dir> (like git -C)', requiresArg: true })
    .option('debug', { type: 'boolean', default: false, describe: 'Show stack traces for internal errors' })
    .option('color', { type: 'boolean', describe: 'Colour the output (off when NO_COLOR is set or stdout is not a terminal)' })
    .middleware((argv) => {
      if (argv.C !== undefined) argv.C = resolveCwd(String(argv.C));
    })
    // Listed for --help only: these run before yargs is loaded (cli/lessons.ts FAST_COMMANDS).
    .command('preflight <task..>', 'Select the lessons that matter for a task, with their checklists (--help for options)')
    .command('guard', 'Check the workflow gates for a stage: --stage pre-commit|pre-push|ci|final')
    .command('hooks <action>', 'Install, remove or show the git hooks (or --claude|--codex|--cursor agent hooks)')
    .command('index', 'Write lessons/index.json from the lessons (--check: fail when the committed one is stale)')
    .command('hook <harness> [event]', 'Answer an agent harness hook (claude, codex, cursor) from stdin; never blocks')
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
    .command(specCommand)
    .demandCommand(1, 'say which command to run')
    .recommendCommands()
    .strict()
    .help()
    .alias('h', 'help')
    .version(false)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((message, error) => {
      // Throwing stops yargs before any handler runs.
      throw error ?? new UsageError(`${message}\nrun \`lessons --help\` for the commands and their options`);
    });
  await parser.parseAsync();
  return outcome.exitCode;
}
