#!/usr/bin/env node
import { createRequire } from 'node:module';
import { bundledCommand } from './fast/bundle.js';
import { commandWord } from './fast/args.js';
import { main, stopQuietlyOnClosedPipe, type FastCommand } from './main.js';
import type { CommandSpec } from './command.js';

/**
 * The CLI as an ES module: what `node dist/cli/lessons.js` runs, and where the binary
 * (dist/cli/lessons.cjs, cli/bin.ts) hands every command but the bundled ones.
 *
 * The build bundles the hottest commands into one file each (dist/fast/, compiled with V8's
 * code cache: cli/fast/bundle.ts): Node 20's ESM loader costs about a third of a millisecond
 * per module, and they would load 25 to 35 of ours. From a source checkout, or before a build,
 * the modules load one by one.
 */
function bundled(name: 'preflight' | 'hook', modules: () => Promise<FastCommand>): Promise<FastCommand> {
  const command = bundledCommand(name, process.argv.slice(2), createRequire(import.meta.url));
  return command ? Promise.resolve(command) : modules();
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
  // Their yargs modules' own specs, run without yargs (about 150 ms of start, a third of what capture may cost at 10k lessons).
  capture: () => withoutYargs(import('./commands/capture.js')),
  report: () => withoutYargs(import('./commands/report.js')),
  lint: () => withoutYargs(import('./commands/lint.js')),
};

async function withoutYargs(module: Promise<{ default: { spec: CommandSpec<never> } }>): Promise<FastCommand> {
  const { specCommand } = await import('./fast/spec.js');
  return specCommand((await module).default.spec);
}

stopQuietlyOnClosedPipe(commandWord(process.argv.slice(2)));
process.exitCode = await main(process.argv.slice(2), {
  fast: (word) => FAST_COMMANDS[word]?.(),
  yargs: async () => ({ run: (await import('./app.js')).runYargs }),
});
