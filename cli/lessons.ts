#!/usr/bin/env node
import { UsageError, environmentError, errorMessage, isLessonsError } from '../src/errors.js';
import { io } from './command.js';
import { commandWord } from './fast/args.js';

type FastCommand = { run: (args: string[]) => Promise<0 | 1 | 2> };

/**
 * The build bundles the hottest commands into one file each (dist/fast/): Node 20's ESM loader
 * costs about a third of a millisecond per module, and they would load 25 to 35 of ours. From a
 * source checkout, or before a build, the modules load one by one.
 */
async function bundled(name: string, modules: () => Promise<FastCommand>): Promise<FastCommand> {
  try {
    return (await import(new URL(`../fast/${name}.js`, import.meta.url).href)) as FastCommand;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return modules();
  }
}

/**
 * Commands on every task's and every tool call's critical path skip yargs (about 60 ms to
 * load): they parse their few flags with node:util and load only what they use.
 */
const FAST_COMMANDS: Record<string, () => Promise<FastCommand>> = {
  preflight: () => bundled('preflight', () => import('./fast/preflight.js')),
  guard: () => import('./fast/guard.js'),
  index: () => import('./fast/index.js'),
  hooks: () => import('./fast/hooks.js'),
  hook: () => bundled('hook', () => import('./fast/hook.js')),
};

/** `lessons help <command>` is `lessons <command> --help`, as in git and npm. */
function helpArgs(args: string[]): string[] {
  const at = args.indexOf('help');
  const target = args.slice(at + 1).find((arg) => !arg.startsWith('-'));
  return target === undefined ? ['--help'] : [target, '--help'];
}

/** `-C` with no directory after it (`lessons -C -C lint`, `lessons -C`): a usage error, said plainly. */
export function checkGlobalOptions(args: readonly string[]): void {
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '-C') continue;
    const dir = args[i + 1];
    if (dir === undefined || dir.startsWith('-')) throw new UsageError('-C needs a directory after it: lessons -C <dir> <command>');
    i++;
  }
}

/** The one place that turns results and errors into an exit code. */
async function main(argv: string[]): Promise<number> {
  const debug = argv.includes('--debug');
  try {
    checkGlobalOptions(argv);
    let args = argv;
    let word = commandWord(args);
    if (word === undefined && (args.includes('--version') || args.includes('-V'))) {
      const { packageVersion } = await import('../src/package-root.js');
      io.out(packageVersion());
      return 0;
    }
    if (word === 'help') {
      args = helpArgs(args);
      word = commandWord(args);
    }
    const fast = word === undefined ? undefined : FAST_COMMANDS[word];
    if (fast) return await (await fast()).run(args);
    const { runYargs } = await import('./app.js');
    return await runYargs(args);
  } catch (error) {
    const known = isLessonsError(error) ? error : environmentError(error);
    if (known) {
      io.err(`lessons: ${known.message}`);
      if (debug && error instanceof Error && error.stack) io.err(error.stack);
      return known.exitCode;
    }
    io.err(`lessons: internal error: ${errorMessage(error)}${debug ? '' : ' (run again with --debug for details)'}`);
    if (debug && error instanceof Error && error.stack) io.err(error.stack);
    return 2;
  }
}

// A reader that goes away early (`lessons list | head`) is not an error: stop quietly, as git does.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await main(process.argv.slice(2));
