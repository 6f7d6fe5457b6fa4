#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { errorMessage, isLessonsError } from '../src/errors.js';
import { resolveCwd } from '../src/io/repo.js';
import { io, outcome } from './command.js';
import { setupColor } from './format.js';
import indexCommand from './commands/index.js';
import lintCommand from './commands/lint.js';
import listCommand from './commands/list.js';
import newCommand from './commands/new.js';
import showCommand from './commands/show.js';

/** The one place that turns results and errors into an exit code. */
async function main(argv: string[]): Promise<number> {
  setupColor(argv);
  const debug = argv.includes('--debug');
  let usageFailure: string | undefined;
  const parser = yargs(argv)
    .scriptName('lessons')
    .usage('$0 <command> [options]\n\nA git-native lessons repository: the right lessons before the work starts.')
    .option('C', { type: 'string', describe: 'Run as if started in <dir> (like git -C)', requiresArg: true })
    .option('debug', { type: 'boolean', default: false, describe: 'Show stack traces for internal errors' })
    .option('color', { type: 'boolean', describe: 'Colour the output (off when NO_COLOR is set or stdout is not a terminal)' })
    .middleware((args) => {
      if (args.C !== undefined) args.C = resolveCwd(String(args.C));
    })
    .command(lintCommand)
    .command(indexCommand)
    .command(newCommand)
    .command(showCommand)
    .command(listCommand)
    .demandCommand(1, 'say which command to run')
    .recommendCommands()
    .strict()
    .help()
    .alias('h', 'help')
    .version(false)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((message, error) => {
      if (error) throw error;
      usageFailure = message;
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    if (isLessonsError(error)) {
      io.err(`lessons: ${error.message}`);
      return error.exitCode;
    }
    io.err(`lessons: internal error: ${errorMessage(error)}${debug ? '' : ' (run again with --debug for details)'}`);
    if (debug && error instanceof Error && error.stack) io.err(error.stack);
    return 2;
  }
  if (usageFailure !== undefined) {
    io.err(`lessons: ${usageFailure}\nrun \`lessons --help\` for the commands and their options`);
    return 2;
  }
  return outcome.exitCode;
}

process.exitCode = await main(hideBin(process.argv));
