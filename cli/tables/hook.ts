import type { CommandTable } from '../options.js';
import { HARNESSES, HARNESS_NAMES } from '../../src/harness/registry.js';

/** `claude, codex or cursor`: the registered harnesses, as a sentence names them. */
const NAMED = `${HARNESS_NAMES.slice(0, -1).join(', ')} or ${HARNESS_NAMES[HARNESS_NAMES.length - 1]}`;
const WIDTH = Math.max(...HARNESS_NAMES.map((name) => name.length)) + 2;

export const HOOK = {
  command: 'hook <harness> [event]',
  describe: `Answer an agent harness hook (${HARNESS_NAMES.join(', ')}) from stdin; never blocks`,
  example: `echo '{"hook_event_name":"SessionStart"}' | lessons hook claude SessionStart`,
  usage: [`hook <${HARNESS_NAMES.join('|')}> [event] [--timeout-ms N]   (reads the hook input JSON on stdin)`],
  positionals: { harness: { describe: NAMED, required: true }, event: { describe: "the harness's event name (default: the input's hook_event_name)" } },
  options: {
    'timeout-ms': { type: 'string', value: '<N>', describe: 'answer neutrally after N milliseconds (default 2000, or LESSONS_HOOK_TIMEOUT_MS)' },
  },
  epilog: ['Events:', ...HARNESSES.map((harness) => `  ${harness.name.padEnd(WIDTH)}${Object.keys(harness.events).join(', ')}`)].join('\n'),
} as const satisfies CommandTable;
