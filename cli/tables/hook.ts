import type { CommandTable } from '../options.js';

export const HOOK = {
  command: 'hook <harness> [event]',
  describe: 'Answer an agent harness hook (claude, codex, cursor) from stdin; never blocks',
  example: `echo '{"hook_event_name":"SessionStart"}' | lessons hook claude SessionStart`,
  usage: ['hook <claude|codex|cursor> [event] [--timeout-ms N]   (reads the hook input JSON on stdin)'],
  positionals: { harness: { describe: 'claude, codex or cursor', required: true }, event: { describe: "the harness's event name (default: the input's hook_event_name)" } },
  options: {
    'timeout-ms': { type: 'string', value: '<N>', describe: 'answer neutrally after N milliseconds (default 2000, or LESSONS_HOOK_TIMEOUT_MS)' },
  },
} as const satisfies CommandTable;
