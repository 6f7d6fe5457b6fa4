import { describe, expect, it } from 'vitest';
import { parseLessonText, toLesson } from '../../src/lesson/parse.js';
import type { Level } from '../../src/lesson/model.js';
import { transitionFindings, type LessonAt } from '../../src/lesson/transitions.js';
import { lessonFile, type LessonFields } from '../helpers/lessons.js';

function at(fields: LessonFields & { id: string }): LessonAt {
  const [[path, text]] = Object.entries(lessonFile(fields)) as [[string, string]];
  const parsed = parseLessonText(text);
  if (!parsed.ok) throw new Error(parsed.problem.message);
  return { lesson: toLesson(parsed.file.data, parsed.file.body, (fields.level as Level | undefined) ?? 'case'), path };
}

const cases = [at({ id: 'case-a' }), at({ id: 'case-b' })];
const messages = (base: LessonAt[], head: LessonAt[]) => transitionFindings(base, head).map((finding) => `${finding.rule}: ${finding.message}`);

describe('transitionFindings: status', () => {
  it('accepts candidate -> validated -> canonical with last_validated_at advanced, including one accept --canonical', () => {
    const base = at({ id: 'case-x', status: 'candidate', last_validated_at: undefined });
    expect(messages([base], [at({ id: 'case-x', status: 'validated', last_validated_at: '2026-11-21' })])).toEqual([]);
    expect(messages([base], [at({ id: 'case-x', status: 'canonical', last_validated_at: '2026-11-21' })])).toEqual([]);
    expect(messages([at({ id: 'case-x', last_validated_at: '2026-01-01' })], [at({ id: 'case-x', status: 'canonical', last_validated_at: '2026-11-21' })])).toEqual([]);
  });

  it('refuses a forward move without re-validation', () => {
    const base = at({ id: 'case-x', status: 'candidate', last_validated_at: undefined });
    expect(messages([base], [at({ id: 'case-x', status: 'validated', last_validated_at: undefined })])).toEqual([
      'transition-status: `case-x` moved from candidate to validated without validation (last_validated_at not advanced): run `lessons accept case-x`',
    ]);
    expect(messages([at({ id: 'case-x', last_validated_at: '2026-05-01' })], [at({ id: 'case-x', status: 'canonical', last_validated_at: '2026-05-01' })])).toEqual([
      'transition-status: `case-x` moved from validated to canonical without validation (last_validated_at not advanced): run `lessons accept case-x --canonical`',
    ]);
  });

  it('refuses a move back down the road', () => {
    expect(messages([at({ id: 'case-x', status: 'canonical' })], [at({ id: 'case-x', status: 'candidate' })])).toEqual([
      'transition-status: `case-x` moved back from canonical to candidate: status only moves candidate -> validated -> canonical; retire it with `lessons retire` instead',
    ]);
  });

  it('accepts retiring from any status, and a retired lesson brought back with re-validation', () => {
    expect(messages([at({ id: 'case-x', status: 'canonical' })], [at({ id: 'case-x', status: 'retired', retired_reason: 'old' })])).toEqual([]);
    const retired = at({ id: 'case-x', status: 'retired', retired_reason: 'old', last_validated_at: '2026-01-01' });
    expect(messages([retired], [at({ id: 'case-x', status: 'validated', last_validated_at: '2026-11-21' })])).toEqual([]);
  });

  it('refuses a retired lesson brought back without re-validation', () => {
    const retired = at({ id: 'case-x', status: 'retired', retired_reason: 'old', last_validated_at: '2026-01-01' });
    expect(messages([retired], [at({ id: 'case-x', status: 'canonical', last_validated_at: '2026-01-01' })])).toEqual([
      'transition-status: `case-x` came back from retired to canonical without re-validation (last_validated_at not advanced): run `lessons accept case-x`',
    ]);
  });

  it('accepts a new candidate, and a new validated lesson only with last_validated_at', () => {
    expect(messages([], [at({ id: 'case-x', status: 'candidate', last_validated_at: undefined })])).toEqual([]);
    expect(messages([], [at({ id: 'case-x', status: 'validated' })])).toEqual([]);
    expect(messages([], [at({ id: 'case-x', status: 'validated', last_validated_at: undefined })])).toEqual([
      'transition-status: new lesson `case-x` is validated without last_validated_at: add it as a candidate and run `lessons accept case-x`',
    ]);
  });
});

describe('transitionFindings: level and evidence', () => {
  it('refuses a level changed by editing an existing lesson', () => {
    const head = [...cases, at({ id: 'case-x', level: 'pattern', source_case_ids: ['case-a', 'case-b'] })];
    expect(messages([...cases, at({ id: 'case-x' })], head)).toEqual([
      'transition-level: `case-x` changed level from case to pattern by an edit: restore it, and write the pattern as a new lesson with `lessons promote <ids> --to pattern` (the sources stay)',
    ]);
  });

  it('accepts a new pattern with two independent cases, and refuses a validated one without', () => {
    expect(messages(cases, [...cases, at({ id: 'pattern-p', level: 'pattern', status: 'candidate', source_case_ids: ['case-a', 'case-b'] })])).toEqual([]);
    const dup = at({ id: 'case-c', duplicate_of: 'case-a' });
    expect(messages([...cases, dup], [...cases, dup, at({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-c'] })])).toEqual([
      'evidence: not enough evidence for a pattern: needs 2 independent cases, has 1 (case-a and case-c are duplicates of one incident)',
    ]);
  });

  it('lets a candidate pattern or principle wait for its evidence, and asks for it when it leaves candidate', () => {
    const proposal = at({ id: 'pattern-p', level: 'pattern', status: 'candidate', last_validated_at: undefined, source_case_ids: ['case-a'] });
    expect(messages(cases, [...cases, proposal])).toEqual([]);
    expect(messages([...cases, proposal], [...cases, at({ id: 'pattern-p', level: 'pattern', status: 'validated', last_validated_at: '2026-11-21', source_case_ids: ['case-a'] })])).toEqual([
      'evidence: not enough evidence for a pattern: needs 2 independent cases, has 1',
    ]);
  });

  it('refuses a new principle without three contexts', () => {
    const pattern = at({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-b'], applications: [{ context: 'web', ref: 'PR #1', validated_at: '2026-10-01' }] });
    expect(messages([...cases, pattern], [...cases, pattern, at({ id: 'principle-q', level: 'principle', source_pattern_ids: ['pattern-p'] })])).toEqual([
      'evidence: not enough evidence for a principle: needs 3 validated applications in distinct contexts across its source patterns, has 1 in 1 context (web): record more with `lessons apply <pattern-id> --context <name> --ref <PR>`',
    ]);
  });

  it('refuses a source dropped from an existing pattern', () => {
    const c = at({ id: 'case-c' });
    const base = [...cases, c, at({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-b', 'case-c'] })];
    const head = [...cases, c, at({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-b'] })];
    expect(messages(base, head)).toEqual([
      'provenance: `pattern-p` dropped its source `case-c`: provenance is never lost; retire the pattern and promote a new one instead',
    ]);
  });
});

describe('transitionFindings: deletion', () => {
  it('refuses deleting a lesson others reference, warns on a deleted validated one, accepts a deleted candidate', () => {
    const pattern = at({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-b'] });
    expect(transitionFindings([...cases, pattern], [cases[0]!, pattern])).toEqual([
      {
        rule: 'deleted-referenced',
        severity: 'error',
        file: 'lessons/cases/case-b.md',
        message: '`case-b` was deleted but pattern-p still references it: retire it with `lessons retire` instead of deleting',
      },
    ]);
    expect(messages([at({ id: 'case-x' })], [])).toEqual(['deleted: validated lesson `case-x` was deleted: retire it with `lessons retire` so it stays findable']);
    expect(transitionFindings([at({ id: 'case-x' })], [])[0]!.severity).toBe('warning');
    expect(messages([at({ id: 'case-x', status: 'candidate' })], [])).toEqual([]);
  });
});
