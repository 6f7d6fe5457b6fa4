import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { review, runSemanticLane } from '../../src/review/review.js';
import { changedWords, selectForReview } from '../../src/review/lessons.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, initGitRepo, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';
import { fakeReviewer } from '../helpers/reviewer.js';

const NOW = new Date('2026-11-21T12:00:00Z');

const LESSON_ID = 'case-2026-05-12-version-bump';

function setPolicy(root: string, review: Record<string, unknown>): void {
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  policy.review = { ...policy.review, ...review };
  fs.writeFileSync(file, JSON.stringify(policy, null, 2));
}

/** A repo on branch `feature` that bumped a version since `main`, with one more change not committed. */
function featureRepo(review: Record<string, unknown>): string {
  const root = tempLessonsRepo({
    ...lessonFile({ id: LESSON_ID, title: 'Version bump missed the marketplace manifest', severity: 'high', tags: ['release', 'versioning'] }),
    ...lessonFile(
      { id: 'case-2026-02-01-unrelated', title: 'Database migration ran twice', tags: ['database'] },
      '## Mistake\n\nA migration ran twice.\n\n## Prevention Checklist\n\n- [ ] Migrations are idempotent.\n',
    ),
    'package.json': '{\n  "name": "demo",\n  "version": "1.1.0"\n}\n',
    'README.md': 'demo\n',
  });
  setPolicy(root, review);
  initGitRepo(root);
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'initial');
  git(root, 'checkout', '-qb', 'feature');
  writeFiles(root, { 'package.json': '{\n  "name": "demo",\n  "version": "1.2.0"\n}\n' });
  git(root, 'commit', '-qam', 'release: version bump to 1.2.0');
  writeFiles(root, { 'README.md': 'demo, now with a manifest\n' });
  return root;
}

describe('lessons review', () => {
  it('sends the diff, the commit messages, the matching lessons and the instructions; reads the findings back', async () => {
    const copy = path.join(tempDir(), 'prompt.txt');
    const root = featureRepo({ command: fakeReviewer('good', { extra: ['--prompt-copy', copy] }), instructions: 'Check the release rules.' });
    const result = await review({ cwd: root, base: 'main' });
    expect(result).toMatchObject({ base: 'main', ran: true, paths: ['README.md', 'package.json'], lessons: [LESSON_ID], summary: 'The change skips a checklist item.', blocked: false, block_on: [] });
    expect(result.findings).toEqual([
      {
        severity: 'high',
        rule: LESSON_ID,
        message: 'The version was bumped in package.json only.',
        file: 'package.json',
        line: 3,
        evidence: '+  "version": "1.2.0"',
        recommendation: 'Bump the version in every manifest in the same commit.',
        origin: 'reviewer',
      },
    ]);
    const prompt = fs.readFileSync(copy, 'utf8');
    expect(prompt.startsWith('Check the release rules.\n')).toBe(true);
    expect(prompt).toContain('<<<LESSONS-DATA-0 commit-messages\nrelease: version bump to 1.2.0\n');
    expect(prompt).toContain('<<<LESSONS-DATA-0 diff: committed since main\ndiff --git a/package.json b/package.json');
    expect(prompt).toContain('-  "version": "1.1.0"\n+  "version": "1.2.0"');
    expect(prompt).toContain('<<<LESSONS-DATA-0 diff: uncommitted (staged and unstaged)\ndiff --git a/README.md b/README.md');
    expect(prompt).toContain('- [ ] Every manifest that carries the version is updated in the same commit.');
    expect(prompt).not.toContain('Database migration ran twice');
    expect(result.prompt.bytes).toBe(Buffer.byteLength(prompt));
  });

  it('blocks only when a finding has a severity listed in block_on', async () => {
    expect((await review({ cwd: featureRepo({ command: fakeReviewer('good'), block_on: ['critical'] }), base: 'main' })).blocked).toBe(false);
    expect((await review({ cwd: featureRepo({ command: fakeReviewer('good'), block_on: ['high', 'critical'] }), base: 'main' })).blocked).toBe(true);
  });

  it('a reviewer that fails is one finding of its own, advisory by default', async () => {
    const result = await review({ cwd: featureRepo({ command: fakeReviewer('crash') }), base: 'main' });
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ rule: 'reviewer-failed', severity: 'medium', origin: 'lane' });
    expect(result.summary).toBeNull();
    expect(result.blocked).toBe(false);
  });

  it('without a base, reviews only what is not committed', async () => {
    const copy = path.join(tempDir(), 'prompt.txt');
    const root = featureRepo({ command: fakeReviewer('clean', { extra: ['--prompt-copy', copy] }) });
    const result = await review({ cwd: root });
    expect(result).toMatchObject({ base: null, ran: true, paths: ['README.md'], findings: [] });
    expect(fs.readFileSync(copy, 'utf8')).not.toContain('package.json');
  });

  it('with nothing to review, runs no reviewer', async () => {
    const copy = path.join(tempDir(), 'prompt.txt');
    const root = featureRepo({ command: fakeReviewer('good', { extra: ['--prompt-copy', copy] }) });
    git(root, 'checkout', '-q', '--', 'README.md');
    const result = await review({ cwd: root });
    expect(result).toMatchObject({ ran: false, findings: [], blocked: false });
    expect(fs.existsSync(copy)).toBe(false);
  });

  it('reviews the index and the work tree of a repository without commits', async () => {
    const root = initGitRepo(tempLessonsRepo({ 'a.txt': 'one\n' }));
    setPolicy(root, { command: fakeReviewer('clean') });
    git(root, 'add', 'a.txt');
    const result = await review({ cwd: root });
    expect(result).toMatchObject({ ran: true, paths: ['a.txt'] });
  });

  it('an unknown base is a usage error that says what to pass', async () => {
    const root = featureRepo({ command: fakeReviewer('good') });
    await expect(review({ cwd: root, base: 'no-such-branch' })).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining('unknown base `no-such-branch`') });
  });

  it('outside a git work tree, says so', async () => {
    await expect(review({ cwd: tempLessonsRepo() })).rejects.toMatchObject({ code: 'GIT', message: expect.stringContaining('not inside a git work tree') });
  });
});

describe('runSemanticLane (for lessons guard --stage final)', () => {
  it('returns the findings and whether they block', async () => {
    const lane = await runSemanticLane({ cwd: featureRepo({ command: fakeReviewer('good'), block_on: ['high'] }), base: 'main' });
    expect(lane.blocked).toBe(true);
    expect(lane.findings.map((f) => f.rule)).toEqual([LESSON_ID]);
  });

  it('never throws: a problem before the reviewer runs is a finding', async () => {
    const lane = await runSemanticLane({ cwd: featureRepo({ command: fakeReviewer('good') }), base: 'no-such-branch' });
    expect(lane.blocked).toBe(false);
    expect(lane.findings).toHaveLength(1);
    expect(lane.findings[0]).toMatchObject({ rule: 'review-lane-error', origin: 'lane' });
    expect(lane.findings[0]!.message).toContain('unknown base `no-such-branch`');
  });
});

describe('selectForReview', () => {
  it('selects with preflight from the commit messages and paths, and skips retired lessons', async () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-2026-01-01-a', title: 'Version bump missed a manifest', tags: ['release'] }),
      ...lessonFile({ id: 'case-2026-01-02-b', title: 'Release notes forgot the version', tags: ['release'], status: 'retired', retired_reason: 'obsolete' }),
      // Its own story: preflight searches the whole lesson text.
      ...lessonFile({ id: 'case-2026-01-03-c', title: 'Cron job ran twice', tags: ['scheduling'] }, '## Situation\n\nTwo replicas ran the nightly job.\n\n## Prevention Checklist\n\n- [ ] One replica holds the schedule.\n'),
    });
    const selected = await selectForReview(root, { commitMessages: 'release: version bump', diff: '', paths: ['package.json'] }, DEFAULT_POLICY, NOW);
    expect(selected.map((lesson) => lesson.id)).toEqual(['case-2026-01-01-a']);
    expect(selected[0]!.checklist).toEqual(['Every manifest that carries the version is updated in the same commit.']);
    expect(await selectForReview(root, { commitMessages: 'refactor the parser', diff: '', paths: [] }, DEFAULT_POLICY, NOW)).toEqual([]);
    // One shared word is not enough for the relevance floor; the diff's words name two of the lesson's.
    const fromDiff = await selectForReview(root, { commitMessages: '', diff: '+++ b/package.json\n-  "version": "1.1.0"\n+  "version": "1.2.0",\n+  "manifest": "plugin.json"', paths: ['package.json'] }, DEFAULT_POLICY, NOW);
    expect(fromDiff.map((lesson) => lesson.id)).toEqual(['case-2026-01-01-a']);
  });
});

describe('changedWords', () => {
  it('takes the words of added and removed lines, not file headers or context', () => {
    const diff = 'diff --git a/x b/x\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n context line\n-const old = 1;\n+const renamed = 2;';
    expect(changedWords(diff)).toEqual(['const', 'old', 'const', 'renamed']);
    expect(changedWords('+a bb cc dd', 2)).toEqual(['bb', 'cc']);
  });
});
