import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGuard } from '../../src/guard/guard.js';
import { changesBetween, stagedChanges } from '../../src/io/git/changes.js';
import { commitsInRange } from '../../src/io/git/log.js';
import { hooksDir, openRepo } from '../../src/io/git/repo.js';
import { CASE_ID, commitAll, committedLessonsRepo, stageIndex, runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, initGitRepo, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const NOW = new Date('2026-11-21T12:00:00Z');

/** A bare repository on disk that `root`'s main branch is pushed to, as origin. */
function withOrigin(root: string): string {
  const bare = path.join(tempDir(), 'origin.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', bare);
  git(root, 'remote', 'add', 'origin', bare);
  git(root, 'push', '-q', '--no-verify', 'origin', 'main');
  git(root, 'fetch', '-q', 'origin');
  return bare;
}

describe('git situations', () => {
  it('the first commit of a repository (no HEAD yet): pre-commit checks the staged tree', async () => {
    const root = tempLessonsRepo(lessonFile({ id: CASE_ID }));
    initGitRepo(root);
    await stageIndex(root);
    const report = await runGuard({ cwd: root, stage: 'pre-commit', now: NOW, env: {} });
    expect(report).toMatchObject({ blocked: false, head: 'index', base: null });
    const repo = await openRepo(root);
    expect((await stagedChanges(repo)).map((file) => file.path)).toContain(`lessons/cases/${CASE_ID}.md`);
  });

  it('before the first commit, the ci guard says there is nothing to check (exit 2)', () => {
    const root = initGitRepo(tempLessonsRepo());
    const result = runLessons(['guard', '--stage', 'ci'], { cwd: root });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('lessons: no commits yet: nothing for the ci guard to check; commit first\n');
  });

  it('a detached HEAD: the range runs from origin/main to the detached commit', async () => {
    const root = await committedLessonsRepo();
    withOrigin(root);
    const base = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'checkout', '-q', '--detach');
    writeFiles(root, { 'a.txt': 'a' });
    const head = commitAll(root, 'detached work');
    const report = await runGuard({ cwd: root, stage: 'ci', now: NOW, env: {} });
    expect(report).toMatchObject({ head, base, base_from: 'origin/main' });
    expect(report.findings.filter((finding) => finding.gate === 'preflight-evidence').map((finding) => finding.commit)).toEqual([head]);
  });

  it('a pull request in CI: GITHUB_BASE_REF picks origin/<base> as the base', async () => {
    const root = await committedLessonsRepo();
    withOrigin(root);
    const base = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'checkout', '-q', '-b', 'topic');
    writeFiles(root, { 'a.txt': 'a' });
    commitAll(root, 'topic work', 'Lessons-Preflight: none');
    const report = await runGuard({ cwd: root, stage: 'ci', now: NOW, env: { GITHUB_BASE_REF: 'main' } });
    expect(report).toMatchObject({ base, base_from: 'origin/main', blocked: false, findings: [] });
  });

  it('pre-push under the pre-commit framework takes the range from PRE_COMMIT_FROM_REF and PRE_COMMIT_TO_REF', async () => {
    const root = await committedLessonsRepo();
    const base = git(root, 'rev-parse', 'HEAD').trim();
    writeFiles(root, { 'a.txt': 'a' });
    const head = commitAll(root, 'one', 'Lessons-Preflight: none');
    writeFiles(root, { 'b.txt': 'b' });
    commitAll(root, 'two, not pushed');
    const report = await runGuard({ cwd: root, stage: 'pre-push', now: NOW, env: { PRE_COMMIT_FROM_REF: base, PRE_COMMIT_TO_REF: head } });
    expect(report).toMatchObject({ base, head, findings: [] });
  });

  it('a shallow clone without the base: exit 2 with what to fetch', async () => {
    const root = await committedLessonsRepo();
    const bare = withOrigin(root);
    git(root, 'checkout', '-q', '-b', 'topic');
    for (const name of ['a', 'b', 'c']) {
      writeFiles(root, { [`${name}.txt`]: name });
      commitAll(root, `work ${name}`);
    }
    git(root, 'push', '-q', '--no-verify', 'origin', 'topic');
    const clone = path.join(tempDir(), 'clone');
    git(root, 'clone', '-q', '--depth', '1', '--branch', 'topic', `file://${bare}`, clone);
    const result = runLessons(['guard', '--stage', 'ci'], { cwd: clone, env: { GITHUB_BASE_REF: 'main' } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('this is a shallow clone and the base origin/main is not in it');
    expect(result.stderr).toContain('git fetch --unshallow');
    expect(result.stderr).toContain('`fetch-depth: 0`');
  });

  it('merge commits: skipped by the trailer check, their branches\' commits are not', async () => {
    const root = await committedLessonsRepo();
    const base = git(root, 'rev-parse', 'HEAD').trim();
    git(root, 'checkout', '-q', '-b', 'topic');
    writeFiles(root, { 'a.txt': 'a' });
    const topic = commitAll(root, 'topic without evidence');
    git(root, 'checkout', '-q', 'main');
    writeFiles(root, { 'b.txt': 'b' });
    commitAll(root, 'main work', 'Lessons-Preflight: none');
    git(root, 'merge', '-q', '--no-ff', '--no-verify', '-m', 'Merge topic', 'topic');
    const repo = await openRepo(root);
    const commits = await commitsInRange(repo, base, 'HEAD');
    expect(commits.map((commit) => commit.parents.length)).toEqual([1, 1, 2]);
    const report = await runGuard({ cwd: root, stage: 'ci', now: NOW, env: {}, base });
    expect(report.findings.map((finding) => finding.commit)).toEqual([topic]);
  });

  it('a linked worktree: the guard checks its own index, hooks go where git runs them', async () => {
    const root = await committedLessonsRepo();
    const linked = path.join(tempDir(), 'linked');
    git(root, 'worktree', 'add', '-q', '-b', 'topic', linked);
    writeFiles(linked, lessonFile({ id: 'case-2026-05-05-in-worktree' }));
    git(linked, 'add', '-A');
    const stale = await runGuard({ cwd: linked, stage: 'pre-commit', now: NOW, env: {} });
    expect(stale.findings.map((finding) => finding.rule)).toContain('index-stale');
    await stageIndex(linked);
    expect((await runGuard({ cwd: linked, stage: 'pre-commit', now: NOW, env: {} })).blocked).toBe(false);
    expect(await hooksDir(await openRepo(linked))).toBe(path.join(root, '.git/hooks'));
  });

  it('file names with spaces and non-ASCII characters come back exactly', async () => {
    const root = await committedLessonsRepo();
    const base = git(root, 'rev-parse', 'HEAD').trim();
    const names = ['docs/with space.md', 'docs/ünïcödé 名前.txt', 'docs/tab\there.txt'];
    writeFiles(root, Object.fromEntries(names.map((name) => [name, 'x'])));
    git(root, 'add', '-A');
    const repo = await openRepo(root);
    expect((await stagedChanges(repo)).map((file) => file.path).sort()).toEqual([...names].sort());
    const head = commitAll(root, 'odd names');
    expect((await changesBetween(repo, base, head)).map((file) => file.path).sort()).toEqual([...names].sort());
  });

  it('a lessons repository in a subfolder of the git repository', async () => {
    const top = initGitRepo();
    const sub = path.join(top, 'knowledge');
    fs.mkdirSync(sub);
    fs.cpSync(tempLessonsRepo(lessonFile({ id: CASE_ID })), sub, { recursive: true });
    await stageIndex(sub);
    expect((await runGuard({ cwd: sub, stage: 'pre-commit', now: NOW, env: {} })).findings.filter((f) => f.level === 'block')).toEqual([]);
    writeFiles(sub, lessonFile({ id: 'case-2026-06-06-sub' }));
    git(top, 'add', '-A');
    const report = await runGuard({ cwd: sub, stage: 'pre-commit', now: NOW, env: {} });
    expect(report.findings.map((finding) => finding.message)).toContain(
      'lessons/index.json is stale (not in the index: case-2026-06-06-sub): run `lessons index` and `git add lessons/index.json`',
    );
  });

  it('outside a git repository: exit 2 with a clear message', () => {
    const root = tempLessonsRepo();
    const result = runLessons(['guard', '--stage', 'pre-commit'], { cwd: root, env: { GIT_CEILING_DIRECTORIES: path.dirname(root) } });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`lessons: not a git repository: ${root} is not inside a git working tree; run \`git init\` first or pass -C <repository>\n`);
    expect(runLessons(['hooks', 'install'], { cwd: root, env: { GIT_CEILING_DIRECTORIES: path.dirname(root) } }).exitCode).toBe(2);
  });
});
