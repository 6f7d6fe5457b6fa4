import { describe, expect, it } from 'vitest';
import { sessionFileName } from '../../src/agent/session.js';
import { assistantTexts, formatUncovered, uncoveredItems } from '../../src/agent/stop.js';
import type { IndexEntry } from '../../src/index/build.js';

describe('assistantTexts', () => {
  it('reads assistant text parts from a Claude Code transcript and skips everything else', () => {
    const jsonl = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: '[LESSON]\nnot mine\n[/LESSON]' } }),
      JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'first' }, { type: 'tool_use', id: 't', name: 'Bash', input: {} }] } }),
      'not json',
      JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: 'second' } }),
      '{"type":"assistant","message":{"role":"assis',
    ].join('\n');
    expect(assistantTexts(jsonl)).toEqual(['first', 'second']);
  });
});

describe('uncoveredItems', () => {
  const shown = [{ id: 'case-x', checklist: ['Every manifest carries the new version', 'CI compares each manifest version with the tag'] } as IndexEntry];

  it('lists the checklist items the final answer does not visibly address', () => {
    expect(uncoveredItems(shown, 'Updated: every manifest now carries the new version.')).toEqual([{ id: 'case-x', item: 'CI compares each manifest version with the tag' }]);
    expect(uncoveredItems(shown, 'Every manifest carries the new version, and CI compares each version with the tag.')).toEqual([]);
  });

  it('formats a short note, capped at ten items', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ id: 'case-x', item: `item ${i}` }));
    const note = formatUncovered(many);
    expect(note.split('\n')).toHaveLength(12);
    expect(note.split('\n')[0]).toBe('lessons: 12 Prevention Checklist items of lessons shown in this session are not visibly addressed in the final answer:');
    expect(note.endsWith('- ... and 2 more')).toBe(true);
    expect(formatUncovered([])).toBe('');
  });
});

describe('sessionFileName', () => {
  it('keeps safe ids and hashes anything that could be a path', () => {
    expect(sessionFileName('0b6e2f5c-1f7a-4d8e-9c1e-3f2b7a9d8e11')).toBe('0b6e2f5c-1f7a-4d8e-9c1e-3f2b7a9d8e11.json');
    expect(sessionFileName('../../etc/passwd')).toMatch(/^session-[0-9a-f]{16}\.json$/);
    expect(sessionFileName('.hidden')).toMatch(/^session-[0-9a-f]{16}\.json$/);
    expect(sessionFileName('../../etc/passwd')).toBe(sessionFileName('../../etc/passwd'));
  });
});
