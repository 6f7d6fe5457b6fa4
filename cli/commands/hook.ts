import { isUsualRun } from '../../src/io/run-state.js';
import { defineCommand, type CommandShape } from '../command.js';
import type { OptionTable } from '../options.js';
import { HARNESSES, HARNESS_NAMES } from '../../src/harness/registry.js';

/** `claude, codex or cursor`: the registered harnesses, as a sentence names them. */
const NAMED = `${HARNESS_NAMES.slice(0, -1).join(', ')} or ${HARNESS_NAMES[HARNESS_NAMES.length - 1]}`;
const WIDTH = Math.max(...HARNESS_NAMES.map((name) => name.length)) + 2;

const options = {
  'timeout-ms': { type: 'string', value: '<N>', describe: 'answer neutrally after N milliseconds (default 2000, or LESSONS_HOOK_TIMEOUT_MS)' },
} as const satisfies OptionTable;

/**
 * The hook's handler reads its command line itself, from the words as given and this
 * declaration: whatever they say, it answers the harness (cli/fast/hook.ts).
 */
export interface HookArgs {
  args: string[];
  command: CommandShape;
}

/** On the critical path of every tool call: it skips yargs and never gets in the agent's way (cli/fast/hook.ts). */
export default defineCommand<HookArgs>({
  command: 'hook <harness> [event]',
  describe: `Answer an agent harness hook (${HARNESS_NAMES.join(', ')}) from stdin; never blocks`,
  example: `echo '{"hook_event_name":"SessionStart"}' | lessons hook claude SessionStart`,
  usage: [`hook <${HARNESS_NAMES.join('|')}> [event] [--timeout-ms N]   (reads the hook input JSON on stdin)`],
  positionals: { harness: { describe: NAMED, required: true }, event: { describe: "the harness's event name (default: the input's hook_event_name)" } },
  options,
  epilog: ['Events:', ...HARNESSES.map((harness) => `  ${harness.name.padEnd(WIDTH)}${Object.keys(harness.events).join(', ')}`)].join('\n'),
  fast: (args, command) => ({ args, command, debug: args.includes('--debug') }),
  handler: async (argv) => (await import('../fast/hook.js')).hookCommand(argv),
  cacheable: isUsualRun,
});
