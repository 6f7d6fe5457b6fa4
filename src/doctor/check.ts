/** One line of `lessons doctor`: what was checked, how it stands, and what to run when it fails. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface Check {
  /** Stable name: git-hooks, agent-hooks:claude, index, policy, search-cache, exports, claude-rules, reviewer, workflow, hook-runs:<harness>. */
  name: string;
  status: CheckStatus;
  message: string;
  /** The command or step that fixes it, when it is not ok. */
  fix?: string;
}

export function check(name: string, status: CheckStatus, message: string, fix?: string): Check {
  return fix === undefined ? { name, status, message } : { name, status, message, fix };
}
