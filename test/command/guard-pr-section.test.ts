import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_LESSONS_MARKER, PR_SECTION_MARKER } from '../../src/render/github.js';
import { CHANGE_PATHS_MAX, CHANGE_SUBJECTS_MAX } from '../../src/preflight/change.js';
import { commitAll, committedLessonsRepo, runLessons, stageIndex } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { PACKAGE_ROOT, git, tempDir, writeFiles } from '../helpers/repo.js';

/**
 * The section "Lessons for this change" of `lessons guard --stage ci`: a real repository with a
 * pull request's commits on a branch, and GitHub's `pull_request` payload (recorded, with this
 * repository's commits put in) naming the base the way Actions does.
 */

const LOCKFILE = 'case-2026-03-01-lockfile-drift';
const MANIFESTS = 'case-2026-02-02-release-manifests';
const FLAKY = 'case-2026-04-02-retries-hid-a-race';
const UNRELATED = 'case-2026-05-05-migration-lock';

const LESSONS = {
  ...lessonFile(
    { id: LOCKFILE, title: 'The lockfile drifted from package.json', tags: ['npm', 'lockfile'], triggers: { paths: ['**/package-lock.json'] } },
    '## Situation\n\nA merge kept a stale lockfile.\n\n## Prevention Checklist\n\n- [ ] Run `npm install` after a merge that touches package.json.\n- [ ] Commit package-lock.json with package.json.\n',
  ),
  ...lessonFile(
    { id: MANIFESTS, title: 'Bump every manifest that carries the version', severity: 'high', tags: ['release', 'versioning'], triggers: { paths: ['**/package.json'], commands: ['npm version*'] } },
    '## Situation\n\nThe version lives in more than one file.\n\n## Prevention Checklist\n\n- [ ] grep for the old version before tagging.\n',
  ),
  ...lessonFile(
    { id: FLAKY, title: 'Retries hid a race in a flaky test', tags: ['testing', 'flaky', 'race'] },
    '## Situation\n\nA flaky test was retried until it passed; the race it showed shipped.\n\n## Prevention Checklist\n\n- [ ] Find the race before adding retries to a flaky test.\n',
  ),
  ...lessonFile(
    { id: UNRELATED, title: 'A schema migration held a table lock', tags: ['database', 'migration'] },
    '## Situation\n\nThe migration locked the orders table for minutes.\n\n## Prevention Checklist\n\n- [ ] Run migrations that rewrite a table online.\n',
  ),
};

const EVENT = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'test/fixtures/github/pull-request-event.json'), 'utf8'));

/** The repository of a pull request: main with the lessons, then a branch with three commits; the payload file, with main's commit as the base. */
async function pullRequest(policy: Record<string, unknown> = {}): Promise<{ root: string; env: Record<string, string>; base: string }> {
  const root = await committedLessonsRepo(LESSONS);
  if (Object.keys(policy).length > 0) {
    const file = path.join(root, 'policy/workflow-policy.json');
    const current = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...current, preflight: { ...current.preflight, ...policy } }, null, 2));
    commitAll(root, 'policy for the test', '-m', 'Lessons-Preflight: none');
  }
  const base = git(root, 'rev-parse', 'HEAD').trim();
  git(root, 'checkout', '-q', '-b', 'release-1.3.0');
  writeFiles(root, { 'package.json': '{ "name": "shop", "version": "1.3.0" }\n' });
  commitAll(root, 'Bump the version to 1.3.0', '-m', 'Lessons-Preflight: none');
  writeFiles(root, { 'package-lock.json': '{ "name": "shop", "version": "1.3.0", "lockfileVersion": 3 }\n' });
  commitAll(root, 'Update the lockfile', '-m', 'Lessons-Preflight: none');
  writeFiles(root, { 'test/checkout.test.js': 'test("checkout", () => {});\n' });
  commitAll(root, 'Stop retrying the flaky test that hid a race', '-m', 'Lessons-Preflight: none');
  const head = git(root, 'rev-parse', 'HEAD').trim();
  // main moves on after the event: the payload's base, not the branch, is what the pull request is compared with.
  git(root, 'checkout', '-q', 'main');
  writeFiles(root, { 'docs/later.md': 'later\n' });
  commitAll(root, 'A later commit on main', '-m', 'Lessons-Preflight: none');
  git(root, 'checkout', '-q', 'release-1.3.0');
  const payload = structuredClone(EVENT);
  payload.pull_request.base.sha = base;
  payload.pull_request.head.sha = head;
  const file = path.join(tempDir(), 'event.json');
  fs.writeFileSync(file, JSON.stringify(payload, null, 2));
  return { root, base, env: { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: file, GITHUB_BASE_REF: 'main' } };
}

const SECTION = [
  PR_SECTION_MARKER,
  '## Lessons for this change',
  '',
  '### Bump every manifest that carries the version',
  '',
  `\`${MANIFESTS}\` · case · high · \`lessons/cases/${MANIFESTS}.md\``,
  '',
  '- grep for the old version before tagging.',
  '',
  'Why: `trigger: path **/package.json matches package.json`, `commit: "Bump the version to 1.3.0"`',
  '',
  '### The lockfile drifted from package.json',
  '',
  `\`${LOCKFILE}\` · case · medium · \`lessons/cases/${LOCKFILE}.md\``,
  '',
  '- Run `npm install` after a merge that touches package.json.',
  '- Commit package-lock.json with package.json.',
  '',
  'Why: `trigger: path **/package-lock.json matches package-lock.json`',
  '',
  '### Retries hid a race in a flaky test',
  '',
  `\`${FLAKY}\` · case · medium · \`lessons/cases/${FLAKY}.md\``,
  '',
  '- Find the race before adding retries to a flaky test.',
  '',
  'Why: `commit: "Stop retrying the flaky test that hid a race"`',
  '',
  '',
].join('\n');

describe('lessons guard --stage ci: lessons for this change', () => {
  it('lists the lessons the paths trigger and preflight selects for the commit subjects, by id, with their checklists, in the markdown report and the PR comment', async () => {
    const { root, env, base } = await pullRequest();
    const comment = path.join(root, '.lessons/pr-comment.md');
    const result = runLessons(['guard', '--stage', 'ci', '--format', 'markdown', '--pr-comment', '.lessons/pr-comment.md'], { cwd: root, env });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    // The payload's base drives the range: main's later commit is not part of it.
    expect(result.stdout).toContain(`against ${base.slice(0, 12)} (pull request #42's base main).`);
    expect(result.stdout.endsWith(`\n\n${SECTION}`)).toBe(true);
    expect(fs.readFileSync(comment, 'utf8')).toBe(SECTION);
    expect(SECTION).not.toContain(UNRELATED);

    // A second run writes the same bytes: a rewritten comment changes only where the lessons do.
    runLessons(['guard', '--stage', 'ci', '--pr-comment', '.lessons/pr-comment.md'], { cwd: root, env });
    expect(fs.readFileSync(comment, 'utf8')).toBe(SECTION);

    const json = JSON.parse(runLessons(['guard', '--stage', 'ci', '--json'], { cwd: root, env }).stdout);
    expect(json.base).toBe(base);
    expect(json.change_lessons).toMatchObject({ max: 5, left_out: 0, paths: { read: 3, total: 3 }, subjects: { read: 3, total: 3 } });
    expect(json.change_lessons.lessons.map((lesson: { id: string }) => lesson.id)).toEqual([MANIFESTS, LOCKFILE, FLAKY]);
  });

  it('the text report lists them before the verdict', async () => {
    const { root, env } = await pullRequest();
    const result = runLessons(['guard', '--stage', 'ci'], { cwd: root, env });
    expect(result.stdout).toBe(
      [
        'Lessons for this change:',
        `  ${MANIFESTS}: Bump every manifest that carries the version (trigger: path **/package.json matches package.json; commit: "Bump the version to 1.3.0")`,
        '    - grep for the old version before tagging.',
        `  ${LOCKFILE}: The lockfile drifted from package.json (trigger: path **/package-lock.json matches package-lock.json)`,
        '    - Run `npm install` after a merge that touches package.json.',
        '    - Commit package-lock.json with package.json.',
        `  ${FLAKY}: Retries hid a race in a flaky test (commit: "Stop retrying the flaky test that hid a race")`,
        '    - Find the race before adding retries to a flaky test.',
        'lessons guard (ci): passed',
        '',
      ].join('\n'),
    );
  });

  it("keeps at most the policy's preflight.change_max, trigger matches first, and says how many it left out", async () => {
    const { root, env } = await pullRequest({ change_max: 2 });
    const json = JSON.parse(runLessons(['guard', '--stage', 'ci', '--json'], { cwd: root, env }).stdout);
    expect(json.change_lessons.lessons.map((lesson: { id: string }) => lesson.id)).toEqual([MANIFESTS, LOCKFILE]);
    expect(json.change_lessons).toMatchObject({ max: 2, left_out: 1 });
    const markdown = runLessons(['guard', '--stage', 'ci', '--format', 'markdown'], { cwd: root, env }).stdout;
    expect(markdown.endsWith("_1 more lesson applied past the policy's limit (preflight.change_max: 2)._\n\n")).toBe(true);
  });

  it('takes the apply tier only: a lesson preflight lists as related for a subject is not in the section', async () => {
    const { root, env } = await pullRequest();
    // Preflight's own answer for the last subject: the flaky-test lesson applies; what it only relates is left out.
    const preflight = JSON.parse(runLessons(['preflight', 'Stop retrying the flaky test that hid a race', '--json'], { cwd: root }).stdout);
    expect(preflight.selected.map((lesson: { id: string }) => lesson.id)).toEqual([FLAKY]);
    const related: string[] = preflight.related.map((lesson: { id: string }) => lesson.id);
    const json = JSON.parse(runLessons(['guard', '--stage', 'ci', '--json'], { cwd: root, env }).stdout);
    const ids: string[] = json.change_lessons.lessons.map((lesson: { id: string }) => lesson.id);
    for (const id of related) expect(ids).not.toContain(id);
  });

  it('a change no lesson applies to says so in one line, with the marker that keeps the workflow from posting it', async () => {
    const root = await committedLessonsRepo(LESSONS);
    const base = git(root, 'rev-parse', 'HEAD').trim();
    writeFiles(root, { 'README.md': '# shop\n' });
    commitAll(root, 'Describe the shop', '-m', 'Lessons-Preflight: none');
    const result = runLessons(['guard', '--stage', 'ci', '--base', base, '--pr-comment', 'comment.md'], { cwd: root });
    expect(result.stdout).toBe('lessons guard (ci): passed\n');
    expect(fs.readFileSync(path.join(root, 'comment.md'), 'utf8')).toBe(
      `${PR_SECTION_MARKER}\n## Lessons for this change\n\n${NO_LESSONS_MARKER}\nNo lesson's triggers match this change's paths or commands, and preflight selects none for its commit subjects.\n\n`,
    );
  });

  it('reads a huge range in part, and says how much: the first CHANGE_PATHS_MAX paths and CHANGE_SUBJECTS_MAX subjects', async () => {
    const root = await committedLessonsRepo(LESSONS);
    const base = git(root, 'rev-parse', 'HEAD').trim();
    const many: Record<string, string> = {};
    for (let i = 0; i <= CHANGE_PATHS_MAX; i++) many[`src/generated/file-${String(i).padStart(5, '0')}.txt`] = `${i}\n`;
    writeFiles(root, many);
    commitAll(root, 'Generate the fixtures', '-m', 'Lessons-Preflight: none');
    for (let i = 1; i <= CHANGE_SUBJECTS_MAX; i++) {
      writeFiles(root, { 'notes.txt': `${i}\n` });
      commitAll(root, `Note number ${i}`, '-m', 'Lessons-Preflight: none');
    }
    // The last path in git's order, past the limit, is the one a trigger names: not read.
    writeFiles(root, { 'zz/package-lock.json': '{}\n' });
    commitAll(root, 'Lock the dependencies', '-m', 'Lessons-Preflight: none');
    const json = JSON.parse(runLessons(['guard', '--stage', 'ci', '--base', base, '--json'], { cwd: root }).stdout);
    expect(json.change_lessons).toMatchObject({ paths: { read: CHANGE_PATHS_MAX, total: CHANGE_PATHS_MAX + 3 }, subjects: { read: CHANGE_SUBJECTS_MAX, total: CHANGE_SUBJECTS_MAX + 2 } });
    const markdown = runLessons(['guard', '--stage', 'ci', '--base', base, '--format', 'markdown'], { cwd: root }).stdout;
    expect(markdown).toContain(`_Read the first 5,000 paths of the 5,003 paths the change touches._\n_Read the first 30 commit subjects of 32._\n`);
  });

  it('a push (no pull request in the event) chooses the base as before (here: no remote, so all of history)', async () => {
    const { root } = await pullRequest();
    const push = path.join(tempDir(), 'push.json');
    fs.writeFileSync(push, JSON.stringify({ ref: 'refs/heads/release-1.3.0', before: '0'.repeat(40), after: git(root, 'rev-parse', 'HEAD').trim() }));
    const json = JSON.parse(runLessons(['guard', '--stage', 'ci', '--json'], { cwd: root, env: { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: push } }).stdout);
    expect(json.base_from).toBe('the first commit');
    expect(json.change_lessons.lessons.map((lesson: { id: string }) => lesson.id)).toContain(LOCKFILE);
  });

  it('--pr-comment is for ci only, and stays inside the repository', async () => {
    const root = await committedLessonsRepo();
    await stageIndex(root);
    expect(runLessons(['guard', '--stage', 'pre-commit', '--pr-comment', 'c.md'], { cwd: root })).toMatchObject({
      exitCode: 2,
      stderr: 'lessons: --pr-comment applies to ci; pre-commit has no lessons for the change\n',
    });
    const outside = path.join(tempDir(), 'c.md');
    const result = runLessons(['guard', '--stage', 'ci', '--pr-comment', outside], { cwd: root });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`lessons: --pr-comment takes a file inside the repository (such as .lessons/pr-comment.md), got '${outside}'\n`);
    expect(fs.existsSync(outside)).toBe(false);
    expect(runLessons(['guard', '--stage', 'ci', '--format', 'html'], { cwd: root })).toMatchObject({ exitCode: 2 });
  });
});
