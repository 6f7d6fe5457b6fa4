#!/usr/bin/env node
import { createRequire } from 'node:module';
import { bundledCommand, isBundledCommand } from './fast/bundle.js';
import { commandWord } from './fast/args.js';
import type { FastCommand } from './command.js';
import { main, stopQuietlyOnClosedPipe } from './main.js';

/**
 * The CLI as an ES module: what `node dist/cli/lessons.js` runs, and where the binary
 * (dist/cli/lessons.cjs, cli/bin.ts) hands every command but the bundled ones.
 *
 * Commands on every task's, tool call's and commit's path skip yargs (about 60 ms to load, and
 * 150 ms with building the parser): they parse their flags with node:util, from the same
 * declarations (cli/commands/<name>.ts) yargs is configured from. The build bundles
 * each of them into one file (dist/fast/, compiled with V8's code cache: cli/fast/bundle.ts):
 * Node 20's ESM loader costs about a third of a millisecond per module, and they would load 25
 * to 200 of ours. From a source checkout, or before a build, the modules load one by one.
 */
function fastCommand(word: string): Promise<FastCommand> | undefined {
  if (!isBundledCommand(word)) return undefined;
  const command = bundledCommand(word, process.argv.slice(2), createRequire(import.meta.url));
  return command ? Promise.resolve(command) : import(`./commands/${word}.js`).then((module: { default: FastCommand }) => module.default);
}

stopQuietlyOnClosedPipe(commandWord(process.argv.slice(2)));
process.exitCode = await main(process.argv.slice(2), {
  fast: fastCommand,
  yargs: async () => ({ run: (await import('./app.js')).runYargs }),
});
