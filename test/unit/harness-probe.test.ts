import { describe, expect, it } from 'vitest';
import { HARNESSES } from '../../src/harness/registry.js';
import { parseJsonAnswer } from '../../src/harness/probe.js';

async function probeOf(name: string) {
  const harness = HARNESSES.find((item) => item.name === name)!;
  return harness.loadProbe!();
}

describe('harness probes: how each harness reads a hook answer', () => {
  it('every registered harness declares a probe with a sample input for each event install writes', async () => {
    for (const harness of HARNESSES) {
      const probe = await harness.loadProbe!();
      for (const event of harness.settings.events) {
        const input = probe.sampleInput(event, { projectDir: '/p', sessionId: 's', task: 't', command: 'c' });
        expect(JSON.stringify(input)).toContain(event);
      }
      expect(probe.lessonEvents.every((event) => (harness.settings.events as readonly string[]).includes(event))).toBe(true);
    }
  });

  it('parseJsonAnswer names what came before the object, and where invalid JSON breaks', () => {
    expect(parseJsonAnswer('{"a":1}\n')).toEqual({ value: { a: 1 } });
    expect(parseJsonAnswer('')).toEqual({ problem: 'printed nothing' });
    expect(parseJsonAnswer('warming up\n{"a":1}')).toEqual({ problem: 'printed "warming up\\n{\\"a\\":1}" where a JSON object must start' });
    expect(parseJsonAnswer('[1]')).toEqual({ problem: 'printed "[1]" where a JSON object must start' });
    expect((parseJsonAnswer('{"a": ') as { problem: string }).problem).toMatch(/^printed invalid JSON: .* at byte 6: the end of the output$/);
  });

  it('Claude Code: exit 2 blocks, another exit adds nothing, a wrong hookEventName is rejected, context arrives', async () => {
    const claude = await probeOf('claude');
    expect(claude.judge('UserPromptSubmit', 2, '')).toEqual({ ok: false, problem: 'exits 2, which Claude Code reads as a block: the prompt is erased' });
    expect(claude.judge('Stop', 1, '')).toEqual({ ok: false, problem: 'exits 1: Claude Code shows a hook error and adds nothing' });
    expect(claude.judge('SessionStart', 0, '')).toEqual({ ok: true, delivered: '' });
    expect(claude.judge('SessionStart', 0, '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"x"}}')).toEqual({
      ok: false,
      problem: 'answers hookSpecificOutput.hookEventName "UserPromptSubmit" for SessionStart: Claude Code rejects the answer',
    });
    expect(claude.judge('PreToolUse', 0, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"lesson-a"},"systemMessage":"note"}')).toEqual({ ok: true, delivered: 'lesson-a\nnote' });
    expect(claude.judge('Stop', 0, '{"decision":"block","reason":"x"}')).toEqual({ ok: false, problem: 'answers "decision": "block": the agent is kept from stopping' });
    const codex = await probeOf('codex');
    expect(codex.judge('PreToolUse', 0, '{"systemMessage":"lesson-a"}')).toEqual({ ok: true, delivered: 'lesson-a' });
  });

  it('Cursor: JSON is required, exit 2 and "deny" block, the messages arrive', async () => {
    const cursor = await probeOf('cursor');
    expect(cursor.judge('sessionStart', 0, '')).toEqual({ ok: false, problem: 'printed nothing: Cursor needs one JSON object and uses nothing it printed' });
    expect(cursor.judge('beforeShellExecution', 2, '')).toEqual({ ok: false, problem: 'exits 2, which Cursor reads as "deny": the action is blocked' });
    expect(cursor.judge('beforeShellExecution', 0, '{"permission":"deny"}')).toEqual({ ok: false, problem: 'answers "permission": "deny" to beforeShellExecution: the action is held up' });
    expect(cursor.judge('beforeShellExecution', 0, '{"permission":"allow","agent_message":"lesson-a"}')).toEqual({ ok: true, delivered: 'lesson-a' });
  });

  it('Gemini CLI: exit 1 warns, other exits deny, an empty answer is not neutral, the context arrives; timeouts are in milliseconds', async () => {
    const gemini = await probeOf('gemini');
    expect(gemini.timeoutUnitMs).toBe(1);
    expect(gemini.judge('BeforeAgent', 127, '')).toEqual({ ok: false, problem: 'exits 127, which Gemini CLI reads as a deny: the prompt is discarded' });
    expect(gemini.judge('AfterTool', 1, '')).toEqual({ ok: false, problem: 'exits 1: Gemini CLI shows a warning and adds nothing' });
    expect(gemini.judge('SessionStart', 0, '')).toEqual({ ok: false, problem: 'printed nothing: Gemini CLI cannot read the answer' });
    expect(gemini.judge('SessionStart', 0, '{}\n')).toEqual({ ok: true, delivered: '' });
    expect(gemini.judge('BeforeAgent', 0, '{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"lesson-a"}}')).toEqual({ ok: true, delivered: 'lesson-a' });
    expect(gemini.judge('AfterAgent', 0, '{"decision":"deny","reason":"x"}')).toEqual({ ok: false, problem: 'answers "decision": "deny": the answer is rejected and the agent retries' });
  });
});
