#!/usr/bin/env node
/**
 * The `lessons` binary (built into dist/cli/lessons.cjs by scripts/build-bundles.mjs). A
 * CommonJS file starts faster than an ES module, and an agent hook or preflight runs on every
 * tool call and task, the guard on every commit: the commands that skip yargs run from their
 * code-cached bundles (cli/fast/bundle.ts) here; every other command is handed to the ES module
 * CLI (dist/cli/lessons.js), which loads yargs.
 */
import { bundledCommand, isBundledCommand } from './fast/bundle.js';
import { commandWord } from './fast/args.js';
import type { FastCommand } from './command.js';
import { main, stopQuietlyOnClosedPipe } from './main.js';

const args = process.argv.slice(2);
const word = commandWord(args);
// Module paths computed at run time, so the build leaves them out of this file.
const esm = (file: string): Promise<unknown> => import(new URL(file, import.meta.url).href);

if (isBundledCommand(word)) {
  stopQuietlyOnClosedPipe(word);
  void main(args, {
    fast: (name) => {
      if (name !== word) return undefined;
      const command = bundledCommand(word, args, require);
      // Not built (a source checkout): the command's declaration, module by module.
      return command ? Promise.resolve(command) : esm(`./commands/${name}.js`).then((module) => (module as { default: FastCommand }).default);
    },
    yargs: async () => ({ run: ((await esm('./app.js')) as typeof import('./app.js')).runYargs }),
  }).then((code) => {
    process.exitCode = code;
  });
} else {
  void esm('./lessons.js');
}
