import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint } from '../../src/lint/lint-repository.js';
import type { Finding } from '../../src/lesson/finding.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const NOW = new Date('2026-11-21T12:00:00Z');

async function findings(files: Record<string, string>): Promise<Finding[]> {
  const root = tempLessonsRepo(files);
  return (await lint({ cwd: root, now: NOW })).findings;
}

function caseFile(id: string, fields: Record<string, unknown> = {}, body?: string): Record<string, string> {
  return lessonFile({ id, title: `Lesson ${id}`, level: 'case', ...fields }, body);
}

const TWO_CASES = { ...caseFile('case-a'), ...caseFile('case-b') };

describe('lessons lint', () => {
  it('passes a valid repository', async () => {
    const root = tempLessonsRepo(TWO_CASES);
    expect(await lint({ cwd: root, now: NOW })).toEqual({ findings: [], lessons: 2, errors: 0, warnings: 0 });
  });

  it('names file, field and line for a schema error', async () => {
    expect(await findings(caseFile('case-a', { severity: 'urgent', confidence: 9 }))).toEqual([
      {
        rule: 'schema',
        severity: 'error',
        file: 'lessons/cases/case-a.md',
        line: 6,
        field: 'severity',
        message: 'severity must be one of: "low", "medium", "high", "critical"',
      },
      {
        rule: 'schema',
        severity: 'error',
        file: 'lessons/cases/case-a.md',
        line: 10,
        field: 'confidence',
        message: 'confidence must be <= 5',
      },
    ]);
  });

  it('reports a missing required field', async () => {
    const result = await findings(caseFile('case-a', { title: undefined }));
    expect(result).toEqual([expect.objectContaining({ rule: 'schema', field: 'title', message: 'title is required' })]);
  });

  it('requires the id to equal the file stem', async () => {
    const result = await findings({ 'lessons/cases/case-a.md': lessonText({ id: 'case-b' }) });
    expect(result).toEqual([
      expect.objectContaining({ rule: 'id-file', line: 2, message: 'id `case-b` differs from the file name: rename the file to case-b.md or set id: case-a' }),
    ]);
  });

  it('requires the level to match the folder', async () => {
    const result = await findings({ 'lessons/patterns/case-a.md': lessonText({ id: 'case-a', level: 'case' }) });
    expect(result).toContainEqual(expect.objectContaining({ rule: 'level-folder', file: 'lessons/patterns/case-a.md', field: 'level' }));
  });

  it('requires ids to be unique across levels', async () => {
    const result = await findings({
      ...caseFile('shared-id'),
      'lessons/patterns/shared-id.md': lessonText({ id: 'shared-id', level: 'pattern', source_case_ids: ['case-a', 'case-b'] }),
      ...TWO_CASES,
    });
    const clashes = result.filter((f) => f.rule === 'unique-id');
    expect(clashes.map((f) => f.file)).toEqual(['lessons/cases/shared-id.md', 'lessons/patterns/shared-id.md']);
    expect(clashes[0]!.message).toContain('also used by lessons/patterns/shared-id.md');
  });

  it('requires every reference to resolve, with the right level', async () => {
    const result = await findings({
      ...TWO_CASES,
      'lessons/patterns/pattern-p.md': lessonText({ id: 'pattern-p', level: 'pattern', source_case_ids: ['case-a', 'case-missing'] }),
      'lessons/principles/principle-q.md': lessonText({ id: 'principle-q', level: 'principle', source_pattern_ids: ['case-a'] }),
      ...caseFile('case-c', { duplicate_of: 'pattern-p' }),
    });
    const references = result.filter((f) => f.rule === 'reference').map((f) => `${f.file}: ${f.message}`);
    expect(references).toEqual([
      'lessons/cases/case-c.md: duplicate_of names `pattern-p`, a pattern; it must name a case',
      'lessons/patterns/pattern-p.md: source_case_ids names `case-missing`, which does not exist: fix the id or remove it',
      'lessons/principles/principle-q.md: source_pattern_ids names `case-a`, a case; it must name a pattern',
    ]);
  });

  it('requires a checklist for validated and canonical lessons and warns for candidates', async () => {
    const noChecklist = '## Situation\n\nSomething happened.\n';
    const result = await findings({
      ...caseFile('case-a', { status: 'validated' }, noChecklist),
      ...caseFile('case-b', { status: 'canonical' }, `${noChecklist}\n## Prevention Checklist\n\n- [ ] \n`),
      ...caseFile('case-c', { status: 'candidate' }, noChecklist),
    });
    expect(result.filter((f) => f.rule === 'checklist').map((f) => [f.file, f.severity])).toEqual([
      ['lessons/cases/case-a.md', 'error'],
      ['lessons/cases/case-b.md', 'error'],
      ['lessons/cases/case-c.md', 'warning'],
    ]);
  });

  it('warns about unknown keys and stale validation, without failing', async () => {
    const root = tempLessonsRepo(caseFile('case-a', { team: 'payments', last_validated_at: '2025-06-01' }));
    const result = await lint({ cwd: root, now: NOW });
    expect(result.errors).toBe(0);
    expect(result.findings.map((f) => f.message)).toEqual([
      'last validated 538 days ago (policy limit 365): review it and run `lessons accept case-a`, or retire it',
      'unknown field `team`: kept as is, but no command uses it (check its spelling)',
    ]);
  });

  it('takes the staleness limit from the policy', async () => {
    const root = tempLessonsRepo(caseFile('case-a', { last_validated_at: '2026-10-01' }));
    const policyFile = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
    policy.lessons.stale_after_days = 30;
    fs.writeFileSync(policyFile, JSON.stringify(policy));
    const result = await lint({ cwd: root, now: NOW });
    expect(result.findings).toEqual([expect.objectContaining({ rule: 'stale', message: expect.stringContaining('51 days ago (policy limit 30)') })]);
  });

  it('refuses an invalid policy, naming the field', async () => {
    const root = tempLessonsRepo(TWO_CASES);
    writeFiles(root, { 'policy/workflow-policy.json': JSON.stringify({ version: 1, lessons: { stale_after_days: 'soon' } }) });
    await expect(lint({ cwd: root, now: NOW })).rejects.toMatchObject({
      code: 'INVALID_POLICY',
      exitCode: 2,
      message: expect.stringContaining('lessons.stale_after_days: must be integer'),
    });
  });

  it('checks the promotion evidence of patterns and principles', async () => {
    const result = await findings({
      ...caseFile('case-a'),
      ...caseFile('case-b', { duplicate_of: 'case-a' }),
      'lessons/patterns/pattern-p.md': lessonText({
        id: 'pattern-p',
        level: 'pattern',
        source_case_ids: ['case-a', 'case-b'],
        applications: [{ context: 'web', ref: 'PR 1', validated_at: '2026-02-01' }],
      }),
      'lessons/principles/principle-q.md': lessonText({ id: 'principle-q', level: 'principle', source_pattern_ids: ['pattern-p'] }),
    });
    expect(result.filter((f) => f.rule === 'evidence').map((f) => f.message)).toEqual([
      'not enough evidence for a pattern: needs 2 independent cases, has 1 (case-a and case-b are duplicates of one incident)',
      'not enough evidence for a principle: needs 3 validated applications in distinct contexts across its source patterns, has 1 in 1 context (web): record more with `lessons apply <pattern-id> --context <name> --ref <PR>`',
    ]);
  });

  it('says what to do outside a lessons repository', async () => {
    await expect(lint({ cwd: tempDir(), now: NOW })).rejects.toMatchObject({ code: 'NOT_A_LESSONS_REPO', exitCode: 2 });
  });
});
