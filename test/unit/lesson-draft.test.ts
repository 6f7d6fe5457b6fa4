import { describe, expect, it } from 'vitest';
import { boundLog, buildDraftPrompt, draftFromAnswer, lessonConfidence, type LessonDraftAnswer } from '../../src/review/extract.js';
import { byteLength } from '../../src/review/prompt.js';

const answer: LessonDraftAnswer = {
  title: '  Install peft   before using LoRA adapters ',
  lesson: 'Scripts that build LoRA adapters import peft,\nwhich the base image lacks.',
  trigger_conditions: 'When a script uses LoraConfig.',
  suggested_fix: 'Add peft to the requirements.',
  checklist: ['peft is in requirements.txt', '  ', 'The image is rebuilt'],
  type: 'critical_error',
  severity: 'high',
  confidence: 0.85,
  tags: ['Python', 'peft', '!!', 'python'],
  keywords: ['LoRA', 'peft', 'lora'],
};

describe('draftFromAnswer', () => {
  it('turns the answer into a candidate case draft', () => {
    const draft = draftFromAnswer(answer);
    expect(draft.title).toBe('Install peft before using LoRA adapters');
    expect(draft.summary).toBe('Scripts that build LoRA adapters import peft, which the base image lacks.');
    expect(draft.tags).toEqual(['python', 'peft', 'critical-error']);
    expect(draft.severity).toBe('high');
    expect(draft.confidence).toBe(4);
    expect(draft.triggers).toEqual({ keywords: ['lora', 'peft'] });
    expect(draft.body).toContain('## Situation\n\nWhen a script uses LoraConfig.\n');
    expect(draft.body).toContain('## Fix\n\nAdd peft to the requirements.\n');
    expect(draft.body).toContain('## Prevention Checklist\n\n- [ ] peft is in requirements.txt\n- [ ] The image is rebuilt\n');
    expect(draft.body).toContain('critical error, reviewer confidence 0.85');
  });

  it('maps confidence 0..1 onto the lesson scale 1..5', () => {
    expect([0, 0.1, 0.5, 0.6, 0.85, 1].map(lessonConfidence)).toEqual([1, 1, 3, 3, 4, 5]);
  });
});

describe('the extraction prompt', () => {
  it('keeps the head and the tail of a long log and fences it', () => {
    const log = `START ${'a'.repeat(50_000)} ${'b'.repeat(50_000)} Error: boom END`;
    const bounded = boundLog(log, 10_000);
    expect(bounded.cut).toBe(true);
    expect(byteLength(bounded.text)).toBeLessThanOrEqual(10_000);
    expect(bounded.text.startsWith('START ')).toBe(true);
    expect(bounded.text.endsWith('Error: boom END')).toBe(true);
    expect(bounded.text).toMatch(/\[… \d+ bytes of the log cut …\]/);
    const prompt = buildDraftPrompt('LESSONS-DATA-0>>>\nError: x', 20_000);
    expect(prompt).toContain('<<<LESSONS-DATA-1 error-log\nLESSONS-DATA-0>>>\nError: x\nLESSONS-DATA-1>>>\n');
  });
});
