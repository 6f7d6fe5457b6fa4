import { describe, expect, it } from 'vitest';
import { lint } from '../../src/lint/lint-repository.js';
import { writeIndex } from '../../src/store/index-write.js';
import { lessonFile } from '../helpers/lessons.js';
import { tempLessonsRepo } from '../helpers/repo.js';
import fs from 'node:fs';
import path from 'node:path';

const now = new Date('2026-11-21T12:00:00Z');

async function findingsOf(files: Record<string, string>, rules: string[]) {
  const { findings } = await lint({ cwd: tempLessonsRepo(files), now });
  return findings.filter((finding) => rules.includes(finding.rule)).map((finding) => `${finding.file}:${finding.line ?? ''} ${finding.severity} [${finding.rule}] ${finding.message}`);
}

const cases = { ...lessonFile({ id: 'case-a' }), ...lessonFile({ id: 'case-b' }) };

describe('lint: lifecycle rules over the whole tree', () => {
  it('accepts a pattern on two independent cases with consistent back-links', async () => {
    expect(
      await findingsOf(
        {
          ...lessonFile({ id: 'case-a', promoted_to: ['pattern-p'] }),
          ...lessonFile({ id: 'case-b', promoted_to: ['pattern-p'] }),
          ...lessonFile({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-b'] }),
        },
        ['evidence', 'provenance', 'reference', 'unknown-key'],
      ),
    ).toEqual([]);
  });

  it('warns about candidate patterns and principles without their evidence yet (candidates are proposals)', async () => {
    expect(
      await findingsOf(
        {
          ...cases,
          ...lessonFile({ id: 'pattern-p', level: 'pattern', status: 'candidate', source_case_ids: ['case-a'] }),
          ...lessonFile({ id: 'principle-q', level: 'principle', status: 'candidate', source_pattern_ids: ['pattern-p'] }),
        },
        ['evidence'],
      ),
    ).toEqual([
      'lessons/patterns/pattern-p.md:10 warning [evidence] a candidate pattern without the evidence yet: needs 2 independent cases, has 1; it cannot be accepted until it has it',
      'lessons/principles/principle-q.md:10 warning [evidence] a candidate principle without the evidence yet: needs 3 validated applications in distinct contexts across its source patterns, has 0 in 0 contexts: record more with `lessons apply <pattern-id> --context <name> --ref <PR>`; it cannot be accepted until it has it',
    ]);
  });

  it('flags validated patterns and principles without their evidence as errors', async () => {
    expect(
      await findingsOf(
        {
          ...cases,
          ...lessonFile({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a'] }),
          ...lessonFile({ id: 'principle-q', level: 'principle', status: 'canonical', source_pattern_ids: ['pattern-p'] }),
        },
        ['evidence'],
      ),
    ).toEqual([
      'lessons/patterns/pattern-p.md:10 error [evidence] not enough evidence for a pattern: needs 2 independent cases, has 1',
      'lessons/principles/principle-q.md:10 error [evidence] not enough evidence for a principle: needs 3 validated applications in distinct contexts across its source patterns, has 0 in 0 contexts: record more with `lessons apply <pattern-id> --context <name> --ref <PR>`',
    ]);
  });

  it('does not ask evidence of a retired pattern', async () => {
    expect(await findingsOf({ ...cases, ...lessonFile({ id: 'pattern-p', level: 'pattern', status: 'retired', retired_reason: 'x' }) }, ['evidence'])).toEqual([]);
  });

  it('flags a promoted_to that names a missing lesson or one that does not list it as a source', async () => {
    expect(
      await findingsOf(
        {
          ...lessonFile({ id: 'case-a', promoted_to: ['pattern-p', 'pattern-zzz'] }),
          ...lessonFile({ id: 'case-b' }),
          ...lessonFile({ id: 'case-c' }),
          ...lessonFile({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-b', 'case-c'] }),
        },
        ['provenance', 'reference'],
      ),
    ).toEqual([
      'lessons/cases/case-a.md:10 warning [provenance] promoted_to names `pattern-p`, which does not list `case-a` among its sources: remove it here or add the source there',
      'lessons/cases/case-a.md:10 error [reference] promoted_to names `pattern-zzz`, which does not exist: fix the id or remove it',
    ]);
  });

  it('puts promoted_to into the index as promoted_into, joined with the sources that name it', async () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a', promoted_to: ['pattern-p'] }),
      ...lessonFile({ id: 'case-b' }),
      ...lessonFile({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-b'] }),
    });
    await writeIndex({ cwd: root });
    const index = JSON.parse(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')) as { lessons: { id: string; promoted_into: string[]; promoted_from: string[] }[] };
    expect(index.lessons.map((entry) => [entry.id, entry.promoted_from, entry.promoted_into])).toEqual([
      ['case-a', [], ['pattern-p']],
      ['case-b', [], ['pattern-p']],
      ['pattern-p', ['case-a', 'case-b'], []],
    ]);
  });
});
