import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';
import { fakeReviewer, setReview } from '../helpers/reviewer.js';

const setReviewer = (root: string, command: string[]): void => setReview(root, { command });

const read = (root: string, rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');

describe('lesson kind and insight (built CLI)', () => {
  it('are frontmatter fields in the index, filtered by list --kind / --insight and shown by preflight', () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-migrate-first', title: 'Deploy ran before the database migration', tags: ['deploy'], kind: 'warning', insight: 'critical_error' }),
      ...lessonFile({ id: 'case-release-notes', title: 'Release notes missed a breaking change', tags: ['release'], kind: 'checklist' }),
      ...lessonFile({ id: 'case-plain', title: 'Cron job ran twice at the DST change', tags: ['cron'] }),
    });
    expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
    const index = JSON.parse(read(root, 'lessons/index.json')) as { lessons: { id: string; kind: string | null; insight: string | null }[] };
    expect(index.lessons.map((entry) => [entry.id, entry.kind, entry.insight])).toEqual([
      ['case-migrate-first', 'warning', 'critical_error'],
      ['case-plain', null, null],
      ['case-release-notes', 'checklist', null],
    ]);
    expect(runCli(['lint'], { cwd: root }).exitCode).toBe(0);

    expect(runCli(['list', '--kind', 'warning'], { cwd: root }).stdout).toBe('case-migrate-first  case/validated/medium/warning/critical_error\n  Deploy ran before the database migration\n');
    expect(JSON.parse(runCli(['list', '--insight', 'critical_error', '--json'], { cwd: root }).stdout).map((entry: { id: string }) => entry.id)).toEqual(['case-migrate-first']);
    const bad = runCli(['list', '--kind', 'rule'], { cwd: root });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--kind must be one of checklist, pattern, warning, requirement');

    const json = JSON.parse(runCli(['preflight', 'deploy with a database migration', '--json'], { cwd: root }).stdout) as { selected: { id: string; kind: string | null; insight: string | null }[] };
    expect(json.selected[0]).toMatchObject({ id: 'case-migrate-first', kind: 'warning', insight: 'critical_error' });
    const text = runCli(['preflight', 'deploy with a database migration'], { cwd: root }).stdout;
    expect(text).toContain('case-migrate-first · validated · medium · warning · critical error · lessons/cases/case-migrate-first.md');
  });

  it('a kind outside the list is a lint error naming the field', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a', kind: 'rule' }));
    const result = runCli(['lint'], { cwd: root });
    expect(result.exitCode).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/lessons\/cases\/case-a\.md:\d+.*kind/);
  });

  it('capture keeps what a [PROCESS_KNOWLEDGE] block carries: priority, trigger_conditions, process_type', () => {
    const root = tempLessonsRepo();
    const transcript = [
      'Done. Recording what we learned:',
      '[PROCESS_KNOWLEDGE]',
      'title: Bump every manifest in a version bump',
      'process_type: checklist',
      'priority: CRITICAL',
      'trigger_conditions:',
      '  tool_names: [Edit, Write]',
      '  file_patterns: ["**/plugin.json", "**/package.json"]',
      '  action_keywords: [version bump, release]',
      '  context_keywords: [marketplace]',
      'The marketplace kept the old version.',
      '- Update plugin.json and package.json in one commit',
      '[/PROCESS_KNOWLEDGE]',
      '[PROCESS_KNOWLEDGE]',
      JSON.stringify({
        title: 'Never run the schema migration after the rollout',
        process_type: 'warning',
        priority: 'HIGH',
        trigger_conditions: { commands: ['kubectl rollout*'], file_patterns: ['migrations/**'] },
        description: 'The new pods crashed on a missing column.',
        checklist: ['Run the migration first'],
      }),
      '[/PROCESS_KNOWLEDGE]',
    ].join('\n');
    const result = runCli(['capture', '-', '--json'], { cwd: root, input: transcript });
    expect(result.exitCode).toBe(0);
    const written = (JSON.parse(result.stdout) as { outcomes: { path: string }[] }).outcomes.map((outcome) => read(root, outcome.path));
    expect(written[0]).toContain('severity: critical\n');
    expect(written[0]).toContain('kind: checklist\n');
    expect(written[0]).toContain(
      'triggers:\n  tools: [Edit, Write]\n  paths: ["**/package.json", "**/plugin.json"]\n  keywords: [marketplace, release, version bump]\n',
    );
    expect(written[0]).toContain('- [ ] Update plugin.json and package.json in one commit');
    expect(written[1]).toContain('severity: high\n');
    expect(written[1]).toContain('kind: warning\n');
    expect(written[1]).toContain('triggers:\n  paths: [migrations/**]\n  commands: [kubectl rollout*]\n');
    expect(written[1]).toContain('- [ ] Run the migration first');
    expect(runCli(['lint'], { cwd: root }).exitCode).toBe(0);
    // The triggers work: a hook-mode preflight on the file finds the lesson.
    const hook = JSON.parse(runCli(['preflight', '--path', 'migrations/004_add_column.sql', '--json'], { cwd: root }).stdout) as { selected: { title: string }[] };
    expect(hook.selected.map((lesson) => lesson.title)).toEqual(['Never run the schema migration after the rollout']);
  });

  it('capture --from-success drafts a best practice through the reviewer, schema-checked', () => {
    const root = tempLessonsRepo({ 'logs/deploy.log': 'migrate: 004_add_column applied\nrollout: 3/3 pods ready\n' });
    setReviewer(root, fakeReviewer('success-draft'));
    const result = runCli(['capture', '--from-success', 'logs/deploy.log'], { cwd: root });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).toMatch(/^created lessons\/cases\/case-\d{4}-\d\d-\d\d-run-database-migrations\.md \(candidate, source: auto, best practice\)\n$/);
    const text = read(root, result.stdout.split(' ')[1]!);
    // The reviewer said domain_knowledge: a success log drafts a best practice all the same.
    expect(text).toContain('insight: best_practice\n');
    expect(text).toContain('## Practice\n');
    expect(text).toContain('- [ ] The migration ran and finished before the rollout');
    expect(text).toContain('Drafted by `lessons capture --from-success` from a success log (best practice, reviewer confidence 0.80)');
    expect(runCli(['lint'], { cwd: root }).exitCode).toBe(0);

    setReviewer(root, fakeReviewer('bad-schema'));
    const refused = runCli(['capture', '--from-success', 'logs/deploy.log'], { cwd: root });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('does not match schemas/lesson-draft.schema.json');
    const both = runCli(['capture', '--from-success', 'logs/deploy.log', '--from-error', 'logs/deploy.log'], { cwd: root });
    expect(both).toMatchObject({ exitCode: 2, stderr: 'lessons: pass --from-error <log> or --from-success <log>, not both\n' });
  });
});
