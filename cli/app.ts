import yargs, { type Argv, type CommandModule } from 'yargs';
import { resolveCwd } from '../src/io/repo.js';
import { UsageError } from '../src/errors.js';
import { commandName, io, outcome, type Command, type GlobalArgs } from './command.js';
import { setupColor } from './format.js';
import { helpText } from './help-text.js';
import { GLOBAL_OPTIONS } from './options.js';
import { yargsCommand, yargsOptions } from './yargs-command.js';
import { commandWord } from './fast/args.js';
import { usageMessage } from './usage-message.js';
import preflightCommand from './commands/preflight.js';
import guardCommand from './commands/guard.js';
import hooksCommand from './commands/hooks.js';
import indexCommand from './commands/index.js';
import hookCommand from './commands/hook.js';
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
import evalCommand from './commands/eval.js';
import doctorCommand from './commands/doctor.js';
import sourcesCommand from './commands/sources.js';
import specCommand from './commands/spec.js';

/** Every command, in the order `lessons --help` lists them: the ones on the hot path first. */
const COMMANDS = [
  preflightCommand,
  guardCommand,
  hooksCommand,
  indexCommand,
  hookCommand,
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
  evalCommand,
  doctorCommand,
  sourcesCommand,
  specCommand,
] as Command<unknown>[];

/** Each command word and its usage (`show <id>`), for messages. */
const USAGES: Record<string, string> = Object.fromEntries(COMMANDS.map((command) => [commandName(command), command.command]));

/** `--help` or `-h` before any `--`: yargs would show its help whatever else the line says. */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.includes('--') ? args.indexOf('--') : args.length;
  return args.slice(0, end).some((arg) => arg === '--help' || arg === '-h');
}

/** Every command that is not on the hot path, parsed by yargs. Returns the exit code. */
export async function runYargs(args: string[]): Promise<0 | 1 | 2> {
  setupColor(args);
  outcome.exitCode = 0;
  // A command's help is the same page whichever parser reads its command line (cli/help-text.ts).
  const asked = COMMANDS.find((command) => commandName(command) === commandWord(args));
  if (asked !== undefined && asksForHelp(args)) {
    io.out(helpText(asked));
    return 0;
  }
  const base = yargs(args)
    .scriptName('lessons')
    .usage('$0 <command> [options]\n\nA git-native lessons repository: the right lessons before the work starts.')
    // --no-color is yargs's negation of --color, and --help its own.
    .options(yargsOptions({ C: GLOBAL_OPTIONS.C, debug: GLOBAL_OPTIONS.debug, color: GLOBAL_OPTIONS.color })) as unknown as Argv<GlobalArgs>;
  const parser = COMMANDS.reduce(
    (argv, command) => argv.command(yargsCommand(command) as CommandModule<GlobalArgs, GlobalArgs>),
    base.middleware((argv) => {
      if (argv.C !== undefined) argv.C = resolveCwd(String(argv.C));
    }),
  )
    .completion('completion', 'Print a bash or zsh completion script (add its output to your shell profile)')
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
      // A yargs parse error (YError) is a usage mistake; anything else a handler threw goes on as it is.
      if (error && error.name !== 'YError') throw error;
      throw new UsageError(usageMessage(message ?? error?.message ?? 'invalid arguments', commandWord(args), USAGES));
    });
  await parser.parseAsync();
  return outcome.exitCode;
}
