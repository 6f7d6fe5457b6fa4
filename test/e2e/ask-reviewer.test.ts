import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';
import { fakeReviewer, setReview } from '../helpers/reviewer.js';

const REFERENCE = '# Release flow\n\n## Staging database\n\nThe staging database is reset every night at 02:00 UTC from an anonymised production snapshot.\n';

function repo(review: Record<string, unknown>): string {
  const root = tempLessonsRepo({ 'references/release-flow.md': REFERENCE });
  setReview(root, review);
  return root;
}

const QUESTIONS = ['When is the staging database reset?', 'what colour is the office carpet'];

describe('lessons ask with the reviewer configured (built CLI)', () => {
  it('the reviewer decides from the excerpts, citing them, and the output says so', () => {
    const root = repo({ enabled: true, command: fakeReviewer('ask') });
    const result = runCli(['ask', ...QUESTIONS], { cwd: root });
    expect(result).toEqual({
      stdout: [
        'decided by the reviewer, from the excerpts found in the repository only',
        'Q: When is the staging database reset?',
        '  found in the repository: According to references/release-flow.md, yes.',
        '  1. references/release-flow.md (Staging database)',
        '     The staging database is reset every night at 02:00 UTC from an anonymised production snapshot.',
        'Q: what colour is the office carpet',
        '  not found in lessons/ or references/: ask a human, then keep the answer with',
        '  lessons ask --record --question "what colour is the office carpet" --answer "<the answer>"',
        '',
      ].join('\n'),
      stderr: '',
      exitCode: 0,
    });
    const json = JSON.parse(runCli(['ask', '--json', QUESTIONS[0]!], { cwd: root }).stdout);
    expect(json).toMatchObject({ method: 'reviewer', reviewer_problem: null, questions: [{ found: true, answer: 'According to references/release-flow.md, yes.' }] });
    // --no-reviewer: word matching, and it says so.
    expect(runCli(['ask', '--no-reviewer', QUESTIONS[0]!], { cwd: root }).stdout).toMatch(/^decided by word matching\n/);
  });

  it('an answer citing something it was not shown is not an answer', () => {
    const root = repo({ enabled: true, command: fakeReviewer('ask-invent') });
    const json = JSON.parse(runCli(['ask', '--json', QUESTIONS[0]!], { cwd: root }).stdout);
    expect(json.questions).toEqual([{ question: QUESTIONS[0], found: false, answer: null, sources: [] }]);
  });

  it('a failing reviewer falls back to word matching and says why', () => {
    const root = repo({ enabled: true, command: fakeReviewer('bad-schema') });
    const result = runCli(['ask', QUESTIONS[0]!], { cwd: root });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^decided by word matching \(the reviewer failed: the reviewer's answer does not match schemas\/ask-answer\.schema\.json/);
    expect(result.stdout).toContain('  found in the repository:\n  1. references/release-flow.md (Staging database)');
  });

  it('a newer recorded answer supersedes the older: both kept, only the newer found', () => {
    const root = repo({});
    const question = 'Which Postgres version runs in production?';
    expect(runCli(['ask', '--record', '--question', question, '--answer', 'Production runs Postgres 16.4 on the managed cluster.'], { cwd: root }).stdout).toBe(
      'recorded references/answers/which-postgres-version-runs-in-production.md\n',
    );
    const second = runCli(['ask', '--record', '--question', question, '--answer', 'Production runs Postgres 17.0 since the May upgrade.', '--provenance', 'the platform team'], { cwd: root });
    expect(second.stdout).toBe(
      'recorded references/answers/which-postgres-version-runs-in-production-2.md\nsuperseded references/answers/which-postgres-version-runs-in-production.md (kept, marked)\n',
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(fs.readFileSync(path.join(root, 'references/answers/which-postgres-version-runs-in-production-2.md'), 'utf8')).toBe(
      `# ${question}\n\nProduction runs Postgres 17.0 since the May upgrade.\n\nQuestion: ${question}\nAnswered: ${today}\nProvenance: the platform team\n`,
    );
    const found = runCli(['ask', 'what postgres version runs in production'], { cwd: root }).stdout;
    expect(found).toContain('references/answers/which-postgres-version-runs-in-production-2.md');
    expect(found).not.toContain('references/answers/which-postgres-version-runs-in-production.md');
  });
});
