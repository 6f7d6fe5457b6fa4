/**
 * The command an agent harness runs for a lessons hook. Like husky's and the pre-commit
 * framework's hook scripts, it finds the binary where teams install it: the project's
 * `node_modules/.bin/lessons` first (the project being the harness's own variable where it sets
 * one, `$CLAUDE_PROJECT_DIR` under Claude Code, else the git top level, else the working
 * directory), then `lessons` on PATH.
 *
 * When neither exists it says so on stderr and exits 1. Every harness treats exit 1 as a
 * non-blocking error and shows its stderr (Claude Code: "hook error" with the stderr text in the
 * transcript; code.claude.com/docs/en/hooks, "Exit code output"). Exit 2 is never used: Claude
 * Code and Codex read it as "block" (PreToolUse denies the call, UserPromptSubmit erases the
 * prompt, Stop keeps the agent going) and Cursor as "deny".
 */
import { harnessNamed, type Harness } from './registry.js';
import { INSTALL_HINT, inDoubleQuotes } from '../init/install.js';

/** What a hook says when it cannot find the binary; also what `lessons doctor` looks for. */
export const NOT_FOUND_MESSAGE = notFoundMessage(INSTALL_HINT);

/** The message of earlier versions, whose hooks named an install path that did not work: install rewrites them. */
const EARLIER_NOT_FOUND_MESSAGE = notFoundMessage('install it with `npm install --save-dev lessons` (or `npm install --global lessons`)');

function notFoundMessage(installHint: string): string {
  return `lessons: the \`lessons\` command was not found in node_modules/.bin or on PATH, so this hook did nothing: ${installHint}, then run \`lessons doctor\``;
}

function projectDir(harness: Harness): string {
  const top = '$(git rev-parse --show-toplevel 2>/dev/null || pwd)';
  const variable = harnessNamed(harness).projectDirVariable;
  return variable ? `\${${variable}:-${top}}` : top;
}

/** The shell command (POSIX sh, one line) a harness runs for `event`. */
export function agentHookCommand(harness: Harness, event: string, message: string = NOT_FOUND_MESSAGE): string {
  return [
    `lessons_bin="${projectDir(harness)}/node_modules/.bin/lessons"`,
    '[ -x "$lessons_bin" ] || lessons_bin=$(command -v lessons) || { echo "' + inDoubleQuotes(message) + '" >&2; exit 1; }',
    `exec "$lessons_bin" hook ${harness} ${event}`,
  ].join('; ');
}

/** A handler's command that runs `lessons hook <harness>`, in any form (bare, resolved, a path, npx). */
export function runsLessonsHook(command: string, harness: string): boolean {
  return new RegExp(`\\blessons(?:\\.js|_bin)?["']?\\s+hook\\s+${harness}(?:\\s|$)`).test(command);
}

/**
 * A command `lessons hooks install` wrote (the bare form of earlier versions, or today's): install
 * may rewrite it. Anything else that runs the hook was edited by the user and is kept.
 */
export function isGeneratedCommand(command: string, harness: Harness, event: string): boolean {
  return command === `lessons hook ${harness} ${event}` || command === agentHookCommand(harness, event) || command === agentHookCommand(harness, event, EARLIER_NOT_FOUND_MESSAGE);
}

/** A handler this command wrote: its command runs `lessons hook <harness>`. */
export function isOurHandler(handler: unknown, harness: string): boolean {
  if (!handler || typeof handler !== 'object' || typeof (handler as { command?: unknown }).command !== 'string') return false;
  return runsLessonsHook((handler as { command: string }).command, harness);
}
