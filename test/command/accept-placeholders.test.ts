import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_BODY } from '../../src/lifecycle/new.js';
import { promotedLesson } from '../../src/lifecycle/promote.js';
import { placeholdersIn } from '../../src/lint/placeholders.js';
import { candidateLesson } from '../../src/lesson/model.js';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';

const body = (item: string): string => `## Situation\n\nIt broke.\n\n## Prevention Checklist\n\n- [ ] ${item}\n`;

function twoCases(): string {
  return tempLessonsRepo({
    ...lessonFile({ id: 'case-a', title: 'Manifest kept the old version' }, body('Bump every manifest.')),
    ...lessonFile({ id: 'case-b', title: 'Lockfile kept the old version' }, body('Bump the lockfile.')),
  });
}

describe('placeholder text cannot be accepted', () => {
  it('finds every prompt of the new-lesson template and promote’s opening sentence', () => {
    expect(placeholdersIn(TEMPLATE_BODY).map((found) => found.section)).toEqual(['Situation', 'Mistake', 'Root Cause', 'Fix']);
    const source = candidateLesson({ id: 'case-a', title: 'A', level: 'case', body: body('x') }, '2026-01-01');
    expect(placeholdersIn(promotedLesson('pattern-p', 'P', 'pattern', [source, { ...source, id: 'case-b' }], '2026-01-01').body)).toEqual([{ section: 'Situation', what: 'promote placeholder' }]);
    expect(placeholdersIn('## Situation\n\n<!-- a note kept -->\nThe deploy ran twice.\n')).toEqual([]);
  });

  it('accept refuses a freshly promoted pattern, naming the section; lint warns; once rewritten it is accepted', () => {
    const root = twoCases();
    expect(runCli(['promote', 'case-a', 'case-b', '--to', 'pattern', '--title', 'Versions live in one place', '--id', 'pattern-one-version'], { cwd: root }).exitCode).toBe(0);
    const refused = runCli(['accept', 'pattern-one-version'], { cwd: root });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('cannot accept `pattern-one-version`: it still holds text written for you to replace:\n  lessons/patterns/pattern-one-version.md: [placeholder] `## Situation` still holds the promote placeholder');
    const file = path.join(root, 'lessons/patterns/pattern-one-version.md');
    expect(fs.readFileSync(file, 'utf8')).toContain('status: candidate');
    const lint = runCli(['lint', '--json'], { cwd: root });
    const findings = (JSON.parse(lint.stdout) as { findings: { rule: string; severity: string; file: string; message: string }[] }).findings.filter((finding) => finding.rule === 'placeholder');
    expect(findings).toEqual([{ rule: 'placeholder', severity: 'warning', file: 'lessons/patterns/pattern-one-version.md', message: expect.stringContaining('`## Situation` still holds the promote placeholder') }]);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/What the 2 cases below have in common, and where it applies\./, 'Every release bumps versions in several manifests.'));
    const accepted = runCli(['accept', 'pattern-one-version'], { cwd: root });
    expect(accepted.exitCode, accepted.stderr).toBe(0);
  });

  it('accept refuses an untouched template even once its checklist is filled, naming each section', () => {
    const root = tempLessonsRepo();
    const made = runCli(['new', 'Deploy skipped the migration', '--id', 'case-deploy'], { cwd: root });
    expect(made.exitCode, made.stderr).toBe(0);
    const file = path.join(root, 'lessons/cases/case-deploy.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/- \[ \] $/m, '- [ ] Run migrations before the deploy step.'));
    const refused = runCli(['accept', 'case-deploy'], { cwd: root });
    expect(refused.exitCode).toBe(1);
    for (const section of ['Situation', 'Mistake', 'Root Cause', 'Fix']) expect(refused.stderr).toContain(`[placeholder] \`## ${section}\` still holds the template prompt`);
    expect(fs.readFileSync(file, 'utf8')).toContain('status: candidate');
  });
});
