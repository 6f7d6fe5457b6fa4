/**
 * How Codex runs a hook: Claude Code's format (../claude/probe.ts), in the session's working
 * directory, without a project variable; a command's `timeout` defaults to 600 s
 * (developers.openai.com/codex/hooks: "If timeout is omitted, Codex uses 600 seconds";
 * the JSON key is `timeout`, openai/codex#35382). PreToolUse's lessons arrive in `systemMessage`.
 */
import { claudeStyleInput, judgeClaudeStyle } from '../claude/probe.js';
import type { HarnessProbe } from '../probe.js';

export const CODEX_PROBE: HarnessProbe = {
  defaultTimeoutSeconds: 600,
  timeoutSource: 'Codex default, developers.openai.com/codex/hooks',
  env: () => ({}),
  sampleInput: (event, sample) => {
    const input = claudeStyleInput(event, sample);
    // Codex's transcript is its own rollout file and may be null.
    return { ...input, transcript_path: null, model: 'gpt-5' };
  },
  lessonEvents: ['UserPromptSubmit'],
  judge: (event, exitCode, stdout) => judgeClaudeStyle('Codex', event, exitCode, stdout),
};
