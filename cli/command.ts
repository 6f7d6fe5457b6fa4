import type { OptionTable, PositionalSpec } from './options.js';
import { helpText } from './help-text.js';
import { writeOutput } from '../src/io/output.js';
import { printable } from '../src/util/printable.js';

/** Options every command takes. */
export interface GlobalArgs {
  C?: string | undefined;
  debug: boolean;
}

/** What a command ended with; cli/lessons.ts turns it into the process's exit code. */
export interface Outcome {
  exitCode: 0 | 1 | 2;
}

export const outcome: Outcome = { exitCode: 0 };

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * Everything the commands print goes through here: lesson and reviewer text reaches the
 * terminal without control characters or escape sequences other than the colours we add.
 */
export const io: Io = {
  out: (text) => {
    writeOutput(1, printable(text.endsWith('\n') ? text : `${text}\n`, { keepColour: true }));
  },
  err: (text) => {
    writeOutput(2, printable(text.endsWith('\n') ? text : `${text}\n`, { keepColour: true }));
  },
};

/** import() of a module by URL, for code that cannot call it itself (cli/fast/bundle.ts). */
export type ImportModule = (url: string) => Promise<unknown>;

/** A command that skips yargs; `cacheable` says whether its run is one to save the V8 code cache of (cli/fast/bundle.ts). */
export type FastCommand = { run: (args: string[], importModule?: ImportModule) => Promise<0 | 1 | 2>; cacheable?: () => boolean };

/** What a fast parser returns for --help: the command's help is printed instead of running it. */
export const HELP = Symbol('help');

/**
 * How a command that skips yargs reads its command line, from its declaration: the handler's
 * argv, or HELP. A bad command line is a UsageError.
 */
export type FastParser<A> = (args: string[], command: CommandShape) => A | typeof HELP | Promise<A | typeof HELP>;

/** What a command takes, as its help shows it (cli/help-text.ts), yargs registers it (cli/yargs-command.ts) and a fast parser reads it (cli/fast/). */
export interface CommandShape {
  /** The name with its positionals, as yargs writes them (`show <id>`, `preflight [task..]`). */
  command: string;
  describe: string;
  positionals?: Record<string, PositionalSpec>;
  options: OptionTable;
  /** Synopsis lines for the help, when the command string alone says too little; the first is its usage. */
  usage?: readonly string[];
  /** Paragraphs after the options in the help: what it does at length, its exit codes. */
  epilog?: string;
  /** One command line that shows the command at work, last in its help. */
  example: string;
}

/** A command, declared once: what it takes and its handler. */
export interface CommandDeclaration<A> extends CommandShape {
  /**
   * For a command on the hot path (cli/fast/bundle.ts): the parser that reads its command line
   * without yargs. Without one, yargs parses it (cli/app.ts).
   */
  fast?: FastParser<A & GlobalArgs>;
  /** Runs the command and returns its exit code; prints through `io`. Imports what it needs when it runs. */
  handler: (argv: A & GlobalArgs, io: Io, importModule: ImportModule) => Promise<0 | 1 | 2>;
  /** Whether this run is one to save the code cache of (cli/fast/bundle.ts). */
  cacheable?: () => boolean;
}

/** A declared command; one with a fast parser runs from its bundle through `run`. */
export type Command<A> = CommandDeclaration<A> & Partial<FastCommand>;

/** The command word of a declaration (`show` of `show <id>`). */
export function commandName(command: Pick<CommandShape, 'command'>): string {
  return command.command.split(' ')[0]!;
}

export function defineCommand<A>(declaration: CommandDeclaration<A>): Command<A> {
  const { fast } = declaration;
  if (fast === undefined) return declaration;
  const run = async (args: string[], importModule: ImportModule = (url) => import(url)): Promise<0 | 1 | 2> => {
    const argv = await fast(args, declaration);
    if (argv === HELP) {
      io.out(helpText(declaration));
      return 0;
    }
    return declaration.handler(argv, io, importModule);
  };
  return { ...declaration, run, ...(declaration.cacheable ? { cacheable: declaration.cacheable } : {}) };
}
