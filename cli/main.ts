import { UsageError, environmentError, errorMessage, isLessonsError } from '../src/errors.js';
import { io, type FastCommand } from './command.js';
import { commandWord } from './fast/args.js';

/**
 * What both entries of the binary share (cli/lessons.ts, ESM, and cli/bin.ts, the CommonJS
 * launcher): the command word, global options, and the one place that turns results and errors
 * into an exit code.
 */

/** Where a command's code comes from: a fast command (no yargs) for the words that have one, else the yargs application. */
export interface CommandSource {
  fast: (word: string) => Promise<FastCommand> | undefined;
  yargs: () => Promise<FastCommand>;
}

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
export async function main(argv: string[], commands: CommandSource): Promise<number> {
  const debug = argv.includes('--debug');
  try {
    checkGlobalOptions(argv);
    let args = argv;
    let word = commandWord(args);
    if (word === undefined && (args.includes('--version') || args.includes('-V'))) {
      const { packageVersion } = await import('../src/io/package-root.js');
      io.out(packageVersion());
      return 0;
    }
    if (word === 'help') {
      args = helpArgs(args);
      word = commandWord(args);
    }
    const fast = word === undefined ? undefined : commands.fast(word);
    return await (await (fast ?? commands.yargs())).run(args);
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

/**
 * A reader that goes away early (`lessons list | head`) is not an error: stop quietly, as git
 * does. What `io` prints is written without Node's streams (src/io/output.ts), which stop the
 * same way; process.stdout and stderr, which yargs and a few commands write to, get this
 * handler when something first uses them: making them costs a few milliseconds, and most runs
 * of preflight never do. Not for `lessons hook`: it writes its answer with fs.writeSync and
 * survives a closed pipe itself.
 */
export function stopQuietlyOnClosedPipe(word: string | undefined): void {
  if (word === 'hook') return;
  const quietly = (stream: NodeJS.WriteStream): NodeJS.WriteStream =>
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  for (const name of ['stdout', 'stderr'] as const) {
    const made = Object.getOwnPropertyDescriptor(process, name);
    if (!made?.get || !made.configurable) {
      quietly(process[name]);
      continue;
    }
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: made.enumerable ?? true,
      get: () => {
        const stream = quietly(made.get!.call(process) as NodeJS.WriteStream);
        Object.defineProperty(process, name, { configurable: true, enumerable: made.enumerable ?? true, get: () => stream });
        return stream;
      },
    });
  }
}
