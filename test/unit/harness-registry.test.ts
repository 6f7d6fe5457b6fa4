import { describe, expect, it, vi } from 'vitest';
import HOOK from '../../cli/commands/hook.js';
import { hookCommand } from '../../cli/fast/hook.js';
import { HARNESSES, HARNESS_NAMES, isHarness, neutralAnswer } from '../../src/harness/registry.js';

describe('the harness registry', () => {
  it('lists each harness once, each with events, a neutral answer per event and a settings file', async () => {
    expect(new Set(HARNESS_NAMES).size).toBe(HARNESSES.length);
    for (const harness of HARNESSES) {
      const events = Object.keys(harness.events);
      expect(events.length, harness.name).toBeGreaterThan(0);
      for (const event of events) expect(typeof harness.events[event as keyof typeof harness.events], `${harness.name} ${event}`).toBe('string');
      expect(typeof harness.otherNeutral).toBe('string');
      expect(harness.settings.file, harness.name).toMatch(/^\.[a-z]+\/[a-z]+\.json$/);
      expect(harness.settings.events.length, harness.name).toBeGreaterThan(0);
      expect(events, harness.name).toEqual(expect.arrayContaining([...harness.settings.events]));
      expect(typeof (await harness.loadHook()).answer).toBe('function');
      const settings = await harness.loadSettings();
      expect([typeof settings.install, typeof settings.uninstall]).toEqual(['function', 'function']);
    }
  });

  it('answers neutrally per harness and event, and with nothing for what is not a harness', () => {
    expect(neutralAnswer('claude', 'PreToolUse')).toBe('');
    expect(neutralAnswer('codex', undefined)).toBe('');
    expect(neutralAnswer('cursor', 'beforeShellExecution')).toBe('{"permission":"allow"}\n');
    expect(neutralAnswer('cursor', 'beforeMCPExecution')).toBe('{"permission":"allow"}\n');
    expect(neutralAnswer('cursor', 'beforeReadFile')).toBe('{"permission":"allow"}\n');
    expect(neutralAnswer('cursor', 'beforeSubmitPrompt')).toBe('{"continue":true}\n');
    expect(neutralAnswer('cursor', 'afterFileEdit')).toBe('{}\n');
    expect(neutralAnswer('cursor', 'someNewEvent')).toBe('{}\n');
    expect(neutralAnswer('cursor', 'constructor')).toBe('{}\n');
    expect(neutralAnswer('cursor', undefined)).toBe('{}\n');
    expect(neutralAnswer('vim', 'stop')).toBe('');
    expect(neutralAnswer(undefined, undefined)).toBe('');
    expect(isHarness('toString')).toBe(false);
  });

  it('`lessons help hook` names every harness and lists its events', async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      expect(await hookCommand({ args: ['hook', '--help'], command: HOOK })).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const help = written.join('');
    expect(help).toContain(`hook <${HARNESS_NAMES.join('|')}>`);
    for (const harness of HARNESSES) {
      const line = help.split('\n').find((text) => text.trimStart().startsWith(`${harness.name} `));
      expect(line, harness.name).toBeDefined();
      for (const event of Object.keys(harness.events)) expect(line, `${harness.name} ${event}`).toMatch(new RegExp(`\\b${event}\\b`));
    }
  });
});
