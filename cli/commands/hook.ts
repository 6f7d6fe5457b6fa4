import { isUsualRun } from '../../src/io/run-state.js';
import { defineCommand, type CommandShape } from '../command.js';
import type { OptionTable } from '../options.js';

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
  describe: 'Answer an agent harness hook (claude, codex, cursor) from stdin; never blocks',
  example: `echo '{"hook_event_name":"SessionStart"}' | lessons hook claude SessionStart`,
  usage: ['hook <claude|codex|cursor> [event] [--timeout-ms N]   (reads the hook input JSON on stdin)'],
  positionals: { harness: { describe: 'claude, codex or cursor', required: true }, event: { describe: "the harness's event name (default: the input's hook_event_name)" } },
  options,
  fast: (args, command) => ({ args, command, debug: args.includes('--debug') }),
  handler: async (argv) => (await import('../fast/hook.js')).hookCommand(argv),
  cacheable: isUsualRun,
});
