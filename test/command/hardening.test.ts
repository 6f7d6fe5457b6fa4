/**
 * Regressions of issue #38 "Hardening II": inputs that crashed, hung, wrote outside the
 * repository or went unanswered. Each case failed on the code before the fix.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { PACKAGE_ROOT, git, initGitRepo, runCli as run, tempDir, tempLessonsRepo } from '../helpers/repo.js';

const runCli = (args: string[], options: Parameters<typeof run>[1] = {}) => run(args, { timeoutMs: 30_000, ...options });

/** A lessons repository with two lessons, committed. */
function committedRepo(): string {
  const root = initGitRepo(
    tempLessonsRepo({
      ...lessonFile({ id: 'case-2026-01-01-release-bump', title: 'Release bump missed a manifest', tags: ['release', 'version'] }),
      ...lessonFile({ id: 'case-2026-01-02-deploy-keystore', title: 'Deploy keystore lived on one laptop', tags: ['deploy', 'signing'] }),
    }),
  );
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'lessons');
  return root;
}

const noStack = (text: string) => expect(text).not.toMatch(/internal error|\n\s+at /);

describe('a giant word is no word: every scan stays linear (#38 point 3)', () => {
  it('ask with a 60,000- and a 120,000-character word answers within seconds', () => {
    const root = committedRepo();
    for (const length of [60_000, 120_000]) {
      const started = Date.now();
      const result = runCli(['ask', `deploy ${'a'.repeat(length)}`], { cwd: root });
      noStack(result.stderr);
      expect(result.exitCode).toBe(0);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  }, 60_000);

  it('a 40,000-character word in a new lesson: index, preflight and the hook still work', () => {
    const root = committedRepo();
    expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
    expect(runCli(['preflight', 'deploy keystore'], { cwd: root }).exitCode).toBe(0);
    const giant = Array.from({ length: 40_000 }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join('');
    fs.writeFileSync(
      path.join(root, 'lessons/cases/case-2026-01-03-giant-word.md'),
      lessonText({ id: 'case-2026-01-03-giant-word', title: 'Deploy keystore rotation', tags: ['deploy'] }, `## Situation\n\n${giant} deploy keystore\n\n## Mistake\n\nx\n\n## Root Cause\n\nx\n\n## Fix\n\nx\n\n## Prevention Checklist\n\n- [ ] Rotate the deploy keystore.\n`),
    );
    const index = runCli(['index'], { cwd: root });
    noStack(index.stderr);
    expect(index.exitCode).toBe(0);
    const preflight = runCli(['preflight', '--json', 'rotate the deploy keystore'], { cwd: root });
    noStack(preflight.stderr);
    expect(preflight.exitCode).toBe(0);
    expect(preflight.stdout).toContain('case-2026-01-03-giant-word');
    const hook = runCli(['hook', 'claude'], { cwd: root, input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'rotate the deploy keystore', cwd: root }) });
    expect(hook.exitCode).toBe(0);
    expect(hook.stdout).toContain('case-2026-01-03-giant-word');
  }, 60_000);
});

/** `root`'s policy with one source at `url`. */
function withSource(root: string, url: string): void {
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8'));
  policy.sources = [{ name: 'platform', url, ref: 'main', path: 'lessons' }];
  fs.writeFileSync(file, `${JSON.stringify(policy, null, 2)}\n`);
}

describe('sources update writes a lock only when there is something to commit (#38 point 9, #37 point 12)', () => {
  it('with no sources it writes nothing and says there are none', () => {
    const root = committedRepo();
    const result = runCli(['sources', 'update'], { cwd: root });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'no sources in the policy (add them under "sources" in policy/workflow-policy.json)\n', stderr: '' });
    expect(fs.existsSync(path.join(root, 'lessons/sources.lock.json'))).toBe(false);
  });

  it('a failed update writes no empty lock and does not say "commit it"', () => {
    const root = committedRepo();
    withSource(root, path.join(tempDir(), 'nowhere.git'));
    const result = runCli(['sources', 'update'], { cwd: root });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('platform: failed: cannot fetch');
    expect(result.stdout).not.toContain('commit it');
    expect(fs.existsSync(path.join(root, 'lessons/sources.lock.json'))).toBe(false);
  });
});

describe('a committed .lessons link never has the CLI write outside the repository (#38 point 4)', () => {
  it('index, sources update and the hook refuse before their first write; the link target stays empty', () => {
    const root = committedRepo();
    const platform = initGitRepo(tempLessonsRepo(lessonFile({ id: 'case-2026-02-01-platform', title: 'Platform lesson' })));
    git(platform, 'add', '-A');
    git(platform, 'commit', '-qm', 'platform');
    withSource(root, platform);
    const outside = tempDir();
    fs.symlinkSync(outside, path.join(root, '.lessons'));
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'a .lessons link');
    for (const args of [['index'], ['sources', 'update']]) {
      const result = runCli(args, { cwd: root });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/^lessons: refusing to write \.lessons\/(locks|sources): a symbolic link on its way leads outside the repository; replace the link with a real folder or file\n$/);
    }
    expect(runCli(['hook', 'claude'], { cwd: root, input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'release bump', cwd: root }) }).exitCode).toBe(0);
    expect(fs.readdirSync(outside)).toEqual([]);
  }, 60_000);
});

describe('a lock whose owner is gone is taken over at once (#38 point 11)', () => {
  const lockFile = (root: string) => path.join(root, '.lessons/locks/lessons.lock');

  /** Runs `lessons index` and says how long it took. */
  const timedIndex = (root: string) => {
    const started = Date.now();
    const result = runCli(['index'], { cwd: root });
    return { ...result, ms: Date.now() - started };
  };

  it('the lock of a process killed with SIGKILL while holding it', async () => {
    const root = committedRepo();
    const lockModule = path.join(PACKAGE_ROOT, 'dist/src/io/lock.js');
    const holder = spawn(process.execPath, ['--input-type=module', '-e', `import { withLock } from ${JSON.stringify(lockModule)}; await withLock(${JSON.stringify(root)}, 'lessons', () => { console.log('held'); return new Promise(() => {}); });`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    expect(JSON.parse(fs.readFileSync(lockFile(root), 'utf8'))).toMatchObject({ pid: holder.pid });
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const index = timedIndex(root);
    expect(index.exitCode).toBe(0);
    expect(index.ms).toBeLessThan(5_000);
  }, 60_000);

  it('an empty lock, as a kill between its create and its write left it, does not stall every command for 30 s', () => {
    const root = committedRepo();
    fs.mkdirSync(path.dirname(lockFile(root)), { recursive: true });
    fs.writeFileSync(lockFile(root), '');
    const old = new Date(Date.now() - 5_000);
    fs.utimesSync(lockFile(root), old, old);
    const index = timedIndex(root);
    expect(index.stderr).toBe('');
    expect(index.exitCode).toBe(0);
    expect(index.ms).toBeLessThan(5_000);
  }, 60_000);

  it('a lock naming a live pid that started at another time (the pid was reused) is taken over', async () => {
    const root = committedRepo();
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      fs.mkdirSync(path.dirname(lockFile(root)), { recursive: true });
      fs.writeFileSync(lockFile(root), JSON.stringify({ pid: other.pid, host: os.hostname(), token: 'old', start: 1 }));
      const index = timedIndex(root);
      expect(index.exitCode).toBe(0);
      expect(index.ms).toBeLessThan(5_000);
    } finally {
      other.kill('SIGKILL');
    }
  }, 60_000);
});

describe('what later code compiles is checked first, and every parse is bounded (#38 point 7)', () => {
  const withTriggers = (root: string, paths: string[]) =>
    fs.writeFileSync(path.join(root, 'lessons/cases/case-2026-01-01-release-bump.md'), lessonText({ id: 'case-2026-01-01-release-bump', title: 'Release bump missed a manifest', tags: ['release', 'version'], triggers: { paths } }));

  it('a trigger glob `{a,{b,{c` is a lint error; report and preflight do not crash on it', () => {
    const root = committedRepo();
    withTriggers(root, ['{a,{b,{c']);
    const lint = runCli(['lint'], { cwd: root });
    expect(lint.exitCode).toBe(1);
    expect(lint.stdout).toContain('error [triggers] triggers.paths[0] "{a,{b,{c" has 3 `{` that are never closed');
    for (const args of [['report'], ['preflight', '--path', 'b', 'release bump']]) {
      const result = runCli(args, { cwd: root });
      noStack(result.stderr);
      expect(result.exitCode).toBe(0);
    }
  }, 60_000);

  it('a glob that a regular expression would backtrack on for minutes matches at once', () => {
    const root = committedRepo();
    withTriggers(root, ['*a*a*a*a*a*a*b']);
    const started = Date.now();
    const preflight = runCli(['preflight', '--path', `${'a'.repeat(250)}c`, 'release bump'], { cwd: root });
    expect(preflight.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 60_000);

  it('a policy rule `(a+)+$` is a policy error naming the field, not a hung guard', () => {
    const root = committedRepo();
    const file = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(file, 'utf8'));
    policy.secrets = { ...policy.secrets, rules: [...(policy.secrets?.rules ?? []), { name: 'custom', pattern: '(a+)+$' }] };
    fs.writeFileSync(file, JSON.stringify(policy, null, 2));
    fs.appendFileSync(path.join(root, 'lessons/cases/case-2026-01-02-deploy-keystore.md'), `\n${'a'.repeat(40)}!\n`);
    git(root, 'add', '-A');
    for (const args of [['guard', '--stage', 'pre-commit'], ['lint']]) {
      const result = runCli(args, { cwd: root, timeoutMs: 20_000 });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('secrets.rules[');
      expect(result.stderr).toContain('repeats a group that itself repeats without bound');
    }
  }, 60_000);

  it('an index.json nested 200,000 levels deep is a broken index, not a stack overflow', () => {
    const root = committedRepo();
    expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
    fs.writeFileSync(path.join(root, 'lessons/index.json'), `${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`);
    git(root, 'add', '-A');
    for (const args of [['guard', '--stage', 'pre-commit'], ['guard', '--stage', 'final'], ['index', '--check']]) {
      const result = runCli(args, { cwd: root });
      noStack(result.stderr);
      // Blocked, or (final) warned: the index is stale, never a crash.
      expect([0, 1]).toContain(result.exitCode);
      expect(`${result.stdout}${result.stderr}`).toContain('lessons/index.json');
    }
  }, 60_000);

  it('index.json as a folder: index says what to do', () => {
    const root = committedRepo();
    fs.mkdirSync(path.join(root, 'lessons/index.json'));
    expect(runCli(['index'], { cwd: root })).toMatchObject({
      exitCode: 1,
      stderr: 'lessons: cannot write lessons/index.json: a folder stands at that path; remove it (`git rm -r lessons/index.json` if it is committed) and run the command again\n',
    });
  }, 60_000);
});

describe('every file the CLI reads goes through one reader that refuses special and oversize files (#38 point 2)', () => {
  const policyFile = (root: string) => path.join(root, 'policy/workflow-policy.json');

  it('a policy linked to /dev/zero: guard, report and preflight refuse it at once with what it is', () => {
    const root = committedRepo();
    fs.rmSync(policyFile(root));
    fs.symlinkSync('/dev/zero', policyFile(root));
    for (const args of [['guard', '--stage', 'final'], ['report'], ['lint'], ['preflight', 'release bump']]) {
      const result = runCli(args, { cwd: root, timeoutMs: 15_000 });
      expect(result).toMatchObject({ exitCode: 2, stderr: 'lessons: cannot read policy/workflow-policy.json: workflow-policy.json is not a regular file (a FIFO, socket or device)\n' });
    }
    // The file cache keys on the policy's bytes: index read it too, and did not hang either.
    expect(runCli(['index'], { cwd: root, timeoutMs: 15_000 }).exitCode).toBe(0);
  }, 60_000);

  it('a policy over its size limit is refused with the size and the limit', () => {
    const root = committedRepo();
    fs.writeFileSync(policyFile(root), `{"x":"${'a'.repeat(5 * 1024 * 1024)}"}`);
    const lint = runCli(['lint'], { cwd: root });
    expect(lint).toMatchObject({ exitCode: 2, stderr: 'lessons: cannot read policy/workflow-policy.json: workflow-policy.json is 5 MiB, over the 4 MiB a policy file may have\n' });
  }, 60_000);

  it('a lesson linked to /dev/stdin is a lint error, and no command fails with an internal error', () => {
    const root = committedRepo();
    fs.symlinkSync('/dev/stdin', path.join(root, 'lessons/cases/case-2026-01-09-stdin.md'));
    const lint = runCli(['lint'], { cwd: root, input: 'piped' });
    expect(lint.exitCode).toBe(1);
    expect(lint.stdout).toContain('lessons/cases/case-2026-01-09-stdin.md: error [file] is not a regular file (a socket, FIFO or device): remove it');
    for (const args of [['index'], ['guard', '--stage', 'final'], ['report'], ['list'], ['preflight', 'release bump']]) {
      const result = runCli(args, { cwd: root, input: 'piped' });
      noStack(result.stderr);
      expect([0, 1]).toContain(result.exitCode);
    }
  }, 60_000);
});
