import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASE_ID, committedLessonsRepo, fakeToken, installBinWrapper, stageIndex, writeReceipt, NEUTRAL_ENV, runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { GIT_ENV, git, tempDir, writeFiles } from '../helpers/repo.js';
import { isFresh, openCached, statIndex } from '../../src/search/open.js';

interface Run {
  status: number;
  output: string;
}

/** Runs git as a user would, hooks included, and keeps stdout and stderr together. */
function gitRun(cwd: string, args: string[], env: Record<string, string> = {}): Run {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV, ...NEUTRAL_ENV, NO_COLOR: '1', ...env } });
  return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

function lastMessage(root: string): string {
  return git(root, 'log', '-1', '--format=%B');
}

async function hookedRepo(): Promise<string> {
  const root = await committedLessonsRepo();
  installBinWrapper(root);
  const installed = runLessons(['hooks', 'install'], { cwd: root });
  expect(installed.exitCode).toBe(0);
  return root;
}

describe('lessons hooks install with real git commit and push', () => {
  it('a blocked commit says why, how to fix it and how to bypass it', async () => {
    const root = await hookedRepo();
    writeFiles(root, lessonFile({ id: 'case-2026-07-07-new' }));
    git(root, 'add', '-A');
    const blocked = gitRun(root, ['commit', '-m', 'add a case']);
    expect(blocked.status).not.toBe(0);
    expect(blocked.output).toContain('block [index-fresh] lessons/index.json is stale (not in the index: case-2026-07-07-new): run `lessons index` and `git add lessons/index.json`');
    expect(blocked.output).toContain('bypass the guard knowingly with `git commit --no-verify`');
    await stageIndex(root);
    expect(gitRun(root, ['commit', '-m', 'add a case']).status).toBe(0);
    // `git commit -a` commits through a temporary index, which the guard must read.
    writeFiles(root, lessonFile({ id: 'case-2026-07-07-new', status: 'nonsense' }));
    const all = gitRun(root, ['commit', '-a', '-m', 'break it']);
    expect(all.status).not.toBe(0);
    expect(all.output).toContain('block [schema]');
  });

  it('adds the Lessons-Preflight trailer from a fresh receipt, once, and never to a merge', async () => {
    const root = await hookedRepo();
    writeReceipt(root, [CASE_ID, 'pattern-x'], new Date());
    writeFiles(root, { 'a.txt': 'a' });
    git(root, 'add', '-A');
    expect(gitRun(root, ['commit', '-m', 'first', '-m', 'Lessons-Preflight: none']).status).toBe(0);
    expect(lastMessage(root)).toBe('first\n\nLessons-Preflight: none\n\n');
    writeFiles(root, { 'b.txt': 'b' });
    git(root, 'add', '-A');
    expect(gitRun(root, ['commit', '-m', 'second']).status).toBe(0);
    expect(lastMessage(root)).toBe(`second\n\nLessons-Preflight: ${CASE_ID}, pattern-x\n\n`);
    expect(gitRun(root, ['commit', '--amend', '--no-edit']).status).toBe(0);
    expect(lastMessage(root)).toBe(`second\n\nLessons-Preflight: ${CASE_ID}, pattern-x\n\n`);
    git(root, 'checkout', '-q', '-b', 'topic', 'HEAD~1');
    writeFiles(root, { 'c.txt': 'c' });
    git(root, 'add', '-A');
    expect(gitRun(root, ['commit', '-m', 'topic']).status).toBe(0);
    git(root, 'checkout', '-q', 'main');
    expect(gitRun(root, ['merge', '--no-ff', '--no-edit', 'topic']).status).toBe(0);
    expect(lastMessage(root)).toBe("Merge branch 'topic'\n\n");
  });

  it('adds the trailer to a message written in the editor, and lets an empty message abort', async () => {
    const root = await hookedRepo();
    writeReceipt(root, [], new Date());
    writeFiles(root, { 'a.txt': 'a' });
    git(root, 'add', '-A');
    const editor = `${process.execPath} -e "require('fs').appendFileSync(process.argv[1], 'written in the editor\\n')"`;
    expect(gitRun(root, ['commit'], { GIT_EDITOR: editor }).status).toBe(0);
    expect(lastMessage(root)).toBe('written in the editor\n\nLessons-Preflight: none\n\n');
    writeFiles(root, { 'b.txt': 'b' });
    git(root, 'add', '-A');
    const aborted = gitRun(root, ['commit'], { GIT_EDITOR: 'true' });
    expect(aborted.status).not.toBe(0);
    expect(aborted.output).toContain('Aborting commit due to empty commit message');
  });

  it('without a fresh receipt the commit goes through without a trailer, and says so once', async () => {
    const root = await hookedRepo();
    writeFiles(root, { 'a.txt': 'a' });
    git(root, 'add', '-A');
    const run = gitRun(root, ['commit', '-m', 'no receipt']);
    expect(run.status).toBe(0);
    // The pre-commit guard says it; the two message hooks do not repeat it.
    expect(run.output.match(/no preflight receipt|no fresh preflight receipt/g)).toEqual(['no preflight receipt']);
    expect(lastMessage(root)).toBe('no receipt\n\n');
  });

  it('git commit --no-verify adds no trailer, though git still runs prepare-commit-msg', async () => {
    const root = await hookedRepo();
    writeReceipt(root, [CASE_ID], new Date());
    writeFiles(root, { 'a.txt': 'a' });
    git(root, 'add', '-A');
    const skipped = gitRun(root, ['commit', '--no-verify', '-m', 'in a hurry']);
    expect(skipped.status, skipped.output).toBe(0);
    expect(skipped.output).not.toContain('lessons:');
    expect(lastMessage(root)).toBe('in a hurry\n\n');
    // A checked commit of the same content right after still gets it.
    writeFiles(root, { 'a.txt': 'b' });
    git(root, 'add', '-A');
    const checked = gitRun(root, ['commit', '-m', 'checked']);
    expect(checked.status, checked.output).toBe(0);
    expect(lastMessage(root)).toBe(`checked\n\nLessons-Preflight: ${CASE_ID}\n\n`);
  });

  it('a receipt stamps only commits that relate to its task, however young it is, and says why it was not used', async () => {
    const root = await hookedRepo();
    const twoHoursAgo = new Date(Date.now() - 120 * 60_000);
    writeReceipt(root, [CASE_ID], twoHoursAgo, { task: 'bump the release version', paths: ['package.json'] });
    writeFiles(root, { 'notes.txt': 'a' });
    git(root, 'add', '-A');
    const unrelated = gitRun(root, ['commit', '-m', 'docs: tidy the notes']);
    expect(unrelated.status, unrelated.output).toBe(0);
    expect(lastMessage(root)).toBe('docs: tidy the notes\n\n');
    expect(unrelated.output.match(/the preflight receipt \(\d+ min old\) was not used: it was for "bump the release version": the staged paths and the message do not relate to that task/g)).toHaveLength(1);
    writeFiles(root, { 'package.json': '{"version":"1.0.1"}\n' });
    git(root, 'add', '-A');
    expect(gitRun(root, ['commit', '-m', 'chore: 1.0.1']).status).toBe(0);
    expect(lastMessage(root)).toBe(`chore: 1.0.1\n\nLessons-Preflight: ${CASE_ID}\n\n`);
    writeFiles(root, { 'notes.txt': 'b' });
    git(root, 'add', '-A');
    expect(gitRun(root, ['commit', '-m', 'note the release version']).status).toBe(0);
    expect(lastMessage(root)).toBe(`note the release version\n\nLessons-Preflight: ${CASE_ID}\n\n`);
    // A minute old, but for another task: not evidence for this commit.
    writeReceipt(root, [CASE_ID], new Date(), { task: 'bump the release version', paths: [] });
    writeFiles(root, { 'notes.txt': 'c' });
    git(root, 'add', '-A');
    const young = gitRun(root, ['commit', '-m', 'docs: more notes']);
    expect(young.status).toBe(0);
    expect(lastMessage(root)).toBe('docs: more notes\n\n');
    expect(young.output).toContain('was not used: it was for "bump the release version"');
  });

  it('a hotfix right after an unrelated preflight gets only the lessons its change relates to, and says which were left out', async () => {
    const root = await committedLessonsRepo({
      ...lessonFile({ id: 'case-open-redirect', title: 'Login redirect followed an unchecked next URL', tags: ['redirect', 'security'] }),
      ...lessonFile({ id: 'case-send-status', title: 'Handler sent 200 with an error body', tags: ['http', 'status'], triggers: { paths: ['src/api/**'] } }),
    });
    installBinWrapper(root);
    expect(runLessons(['hooks', 'install'], { cwd: root }).exitCode).toBe(0);
    await stageIndex(root);
    git(root, 'commit', '-q', '--no-verify', '-m', 'hooks', '-m', 'Lessons-Preflight: none');
    writeReceipt(root, ['case-open-redirect', 'case-send-status'], new Date(), { task: 'add a redirect after login', paths: [] });
    writeFiles(root, { 'src/api/send.ts': 'export const send = () => 500;\n' });
    git(root, 'add', '-A');
    const hotfix = gitRun(root, ['commit', '-m', 'hotfix: res.send returns the wrong code', '-m', 'Lesson-Skip: covered by case-send-status']);
    expect(hotfix.status, hotfix.output).toBe(0);
    expect(lastMessage(root)).toContain('\nLessons-Preflight: case-send-status\n');
    expect(hotfix.output.match(/left out case-open-redirect from the preflight for "add a redirect after login"/g)).toHaveLength(1);
  });

  it('a message hook never stops a commit, even with a broken policy file', () => {
    const root = tempDir();
    git(root, 'init', '-q');
    writeFiles(root, { 'lessons/cases/.gitkeep': '', 'policy/workflow-policy.json': '{ not json', 'msg.txt': 'subject\n' });
    const result = runLessons(['hooks', 'commit-msg', 'msg.txt'], { cwd: root });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('lessons: no Lessons-Preflight trailer: policy/workflow-policy.json is not valid JSON');
    expect(fs.readFileSync(path.join(root, 'msg.txt'), 'utf8')).toBe('subject\n');
  });

  it('LESSONS_DISABLE=1 turns every hook into a no-op with a notice', async () => {
    const root = await hookedRepo();
    writeReceipt(root, [CASE_ID], new Date());
    writeFiles(root, lessonFile({ id: 'case-2026-07-07-new' }));
    git(root, 'add', '-A');
    const run = gitRun(root, ['commit', '-m', 'stale index on purpose'], { LESSONS_DISABLE: '1' });
    expect(run.status).toBe(0);
    expect(run.output).toContain('lessons: LESSONS_DISABLE=1: skipping the pre-commit check');
    expect(lastMessage(root)).toBe('stale index on purpose\n\n');
  });

  it('after a branch checkout, a merge and an amend, the post-checkout, post-merge and post-rewrite hooks bring the search cache up to date', async () => {
    const root = await hookedRepo();
    const fresh = (): boolean => {
      const cached = openCached(root);
      try {
        return isFresh(cached.index, statIndex(root)!, root);
      } finally {
        cached.close();
      }
    };
    expect(runLessons(['preflight', 'warm the cache'], { cwd: root }).exitCode).toBe(0);
    expect(fresh()).toBe(true);
    const main = git(root, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
    const ID = 'case-2026-08-08-zephyrine-quasar-outage';
    git(root, 'checkout', '-q', '-b', 'feature');
    writeFiles(root, lessonFile({ id: ID, title: 'Zephyrine quasar outage' }));
    expect(runLessons(['index'], { cwd: root }).exitCode).toBe(0);
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--no-verify', '-m', 'a lesson', '-m', 'Lessons-Preflight: none');

    // With the hooks off, a checkout that changes the index leaves the cache stale: what the hooks are for.
    expect(gitRun(root, ['checkout', '-q', main], { LESSONS_DISABLE: '1' }).status).toBe(0);
    expect(fresh()).toBe(false);
    expect(gitRun(root, ['checkout', '-q', 'feature']).status).toBe(0);
    expect(fresh()).toBe(true);
    expect(gitRun(root, ['checkout', '-q', main]).status).toBe(0);
    expect(fresh()).toBe(true);

    expect(gitRun(root, ['merge', '-q', '--no-edit', 'feature']).status).toBe(0);
    expect(fresh()).toBe(true);
    const found = runLessons(['preflight', 'the zephyrine quasar outage again', '--json'], { cwd: root });
    expect(JSON.parse(found.stdout).selected.map((lesson: { id: string }) => lesson.id)).toContain(ID);

    // git reset runs no hook: the index goes back a commit under the cache. An amend (post-rewrite) then refreshes it.
    git(root, 'reset', '-q', '--hard', 'HEAD~1');
    expect(fresh()).toBe(false);
    expect(gitRun(root, ['commit', '-q', '--amend', '--no-edit', '--no-verify']).status).toBe(0);
    expect(fresh()).toBe(true);
  });

  it('chains to a hook that was there, and uninstall puts it back', async () => {
    const root = await committedLessonsRepo();
    installBinWrapper(root);
    const own = path.join(root, '.git/hooks/pre-commit');
    const ownScript = '#!/bin/sh\necho "own hook ran"\n';
    fs.writeFileSync(own, ownScript, { mode: 0o755 });
    const installed = runLessons(['hooks', 'install', '--json'], { cwd: root });
    expect(JSON.parse(installed.stdout).hooks).toEqual([
      { hook: 'pre-commit', action: 'chained', message: 'the existing hook moved to pre-commit.lessons-previous; it runs first' },
      { hook: 'prepare-commit-msg', action: 'installed' },
      { hook: 'commit-msg', action: 'installed' },
      { hook: 'pre-push', action: 'installed' },
      { hook: 'post-merge', action: 'installed' },
      { hook: 'post-checkout', action: 'installed' },
      { hook: 'post-rewrite', action: 'installed' },
    ]);
    expect(JSON.parse(runLessons(['hooks', 'install', '--json'], { cwd: root }).stdout).hooks.map((hook: { action: string }) => hook.action)).toEqual(Array(7).fill('unchanged'));
    writeFiles(root, { 'a.txt': 'a' });
    git(root, 'add', '-A');
    const run = gitRun(root, ['commit', '-m', 'x']);
    expect(run.status).toBe(0);
    expect(run.output).toContain('own hook ran');
    expect(run.output).toContain('lessons guard (pre-commit): passed');
    expect(runLessons(['hooks', 'status'], { cwd: root }).stdout).toContain('  pre-commit: lessons (calls the previous hook first)\n');
    const removed = runLessons(['hooks', 'uninstall'], { cwd: root });
    expect(removed.exitCode).toBe(0);
    expect(fs.readFileSync(own, 'utf8')).toBe(ownScript);
    expect(fs.existsSync(path.join(root, '.git/hooks/pre-push'))).toBe(false);
    // A lessons hook deleted by hand still gets the moved-aside hook back.
    runLessons(['hooks', 'install'], { cwd: root });
    fs.rmSync(own);
    expect(JSON.parse(runLessons(['hooks', 'uninstall', '--json'], { cwd: root }).stdout).hooks[0]).toEqual({
      hook: 'pre-commit',
      action: 'restored',
      message: 'the hook that was there before is back',
    });
    expect(fs.readFileSync(own, 'utf8')).toBe(ownScript);
  });

  it('refuses, rather than overwrite, when a foreign hook and a moved-aside one both exist', async () => {
    const root = await committedLessonsRepo();
    fs.writeFileSync(path.join(root, '.git/hooks/pre-push'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    fs.writeFileSync(path.join(root, '.git/hooks/pre-push.lessons-previous'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const result = runLessons(['hooks', 'install'], { cwd: root });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('pre-push: NOT installed — pre-push was not written by lessons and pre-push.lessons-previous already exists');
    expect(fs.readFileSync(path.join(root, '.git/hooks/pre-push'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
  });

  it('installs where core.hooksPath points', async () => {
    const root = await committedLessonsRepo();
    git(root, 'config', 'core.hooksPath', 'githooks');
    expect(runLessons(['hooks', 'install'], { cwd: root }).exitCode).toBe(0);
    expect(fs.readFileSync(path.join(root, 'githooks/pre-commit'), 'utf8')).toContain('# lessons-managed-hook');
    expect(fs.existsSync(path.join(root, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('the pre-push hook checks the pushed commits against the remote and blocks a leak', async () => {
    const root = await hookedRepo();
    const bare = path.join(tempDir(), 'origin.git');
    git(root, 'init', '-q', '--bare', '-b', 'main', bare);
    git(root, 'remote', 'add', 'origin', bare);
    expect(gitRun(root, ['push', '-q', 'origin', 'main']).status).toBe(0);
    writeFiles(root, lessonFile({ id: 'case-2026-08-08-leak' }, `## Fix\n\nkey ${fakeToken('aws')}\n\n## Prevention Checklist\n\n- [ ] no keys\n`));
    await stageIndex(root);
    git(root, 'commit', '-q', '--no-verify', '-m', 'leak');
    const push = gitRun(root, ['push', 'origin', 'main']);
    expect(push.status).not.toBe(0);
    expect(push.output).toContain('block [secrets] looks like a aws-access-key-id credential');
    expect(push.output).toContain('bypass the guard knowingly with `git push --no-verify`');
    expect(git(bare, 'rev-parse', 'main').trim()).not.toBe(git(root, 'rev-parse', 'HEAD').trim());
  });

  it('a missing lessons command blocks the commit with how to install it', async () => {
    const root = await committedLessonsRepo();
    expect(runLessons(['hooks', 'install'], { cwd: root }).exitCode).toBe(0);
    writeFiles(root, { 'a.txt': 'a' });
    git(root, 'add', '-A');
    const run = gitRun(root, ['commit', '-m', 'x'], { PATH: path.dirname(process.execPath) + ':/usr/bin:/bin' });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('install it with `npm install -D <git URL of lessons>#<tag or commit>`');
    expect(run.output).toContain('`git commit --no-verify`');
  });
});
