/**
 * Adopting lessons in a third-party repository as a newcomer does (issue #37): a project with
 * no lockfile (`.npmrc` says `package-lock=false`) adds lessons as a dev dependency from its git
 * URL, runs `lessons init`, commits, and opens the pull request. The built binary, real git.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installBinWrapper, runLessons } from '../helpers/guard.js';
import { GIT_ENV, git, initGitRepo, tempDir, writeFiles } from '../helpers/repo.js';

const SPEC = 'git+https://git.example/acme/lessons.git#v0.1.0';
/** A PATH with git and sh but no `lessons`. */
const BARE_PATH = '/usr/bin:/bin';

/** An upstream project on `master` like expressjs/express, and a clone of it on a branch, as a contributor has. */
function thirdPartyClone(devDependencies: Record<string, string> = { lessons: SPEC }): string {
  const upstream = initGitRepo(tempDir('lessons-upstream-'));
  git(upstream, 'checkout', '-q', '-b', 'master');
  writeFiles(upstream, {
    'package.json': `${JSON.stringify({ name: 'express', version: '5.0.0', dependencies: { debug: '^4.4.0' } }, null, 2)}\n`,
    '.npmrc': 'package-lock=false\n',
    'index.js': "module.exports = require('./lib/express');\n",
    '.gitignore': 'node_modules/\n',
  });
  git(upstream, 'add', '-A');
  git(upstream, 'commit', '-q', '-m', 'express');
  git(upstream, 'config', 'receive.denyCurrentBranch', 'updateInstead');
  const clone = path.join(tempDir('lessons-clone-'), 'express');
  git(path.dirname(clone), 'clone', '-q', upstream, clone);
  git(clone, 'config', 'commit.gpgsign', 'false');
  git(clone, 'checkout', '-q', '-b', 'adopt-lessons');
  // What `npm install -D <git URL of lessons>#<tag or commit>` leaves with package-lock=false: package.json changed, no lockfile.
  const manifest = JSON.parse(fs.readFileSync(path.join(clone, 'package.json'), 'utf8'));
  writeFiles(clone, { 'package.json': `${JSON.stringify({ ...manifest, devDependencies }, null, 2)}\n` });
  installBinWrapper(clone);
  return clone;
}

function runSteps(workflow: string): string[] {
  return [...workflow.matchAll(/^\s+(?:- )?run: (.+)$/gm)].map((match) => match[1]!);
}

describe('adopting lessons in a repository without a lockfile', () => {
  it('init writes a workflow that installs with `npm install --no-save` of package.json\'s spec, says what the pull request runs, and lists every path to add', () => {
    const clone = thirdPartyClone();
    const init = runLessons(['init'], { cwd: clone });
    expect(init.exitCode, init.stderr).toBe(0);
    const workflow = fs.readFileSync(path.join(clone, '.github/workflows/lessons.yml'), 'utf8');
    const steps = runSteps(workflow);
    expect(steps[0]).toBe(`npm install --no-save lessons@${SPEC}`);
    expect(steps).not.toContain('npm ci');
    expect(steps.slice(1, 5)).toEqual(['npx --no-install lessons sources update --locked', 'npx --no-install lessons lint', 'npx --no-install lessons index --check', 'npx --no-install lessons guard --stage ci']);
    // Every path init wrote is in the `git add` it suggests: references/ too.
    expect(init.stdout).toContain('next: `npx --no-install lessons hooks install`, then commit the new files (`git add .gitattributes .github .gitignore AGENTS.md lessons policy references schemas`)');
    git(clone, 'add', '.gitattributes', '.github', '.gitignore', 'AGENTS.md', 'lessons', 'policy', 'references', 'schemas', 'package.json');
    expect(git(clone, 'status', '--porcelain', '--untracked-files=all').split('\n').filter((line) => line.startsWith('??'))).toEqual([]);
    // What the first pull request runs, the install step first.
    expect(init.stdout).toContain(`the pull request that adds them runs .github/workflows/lessons.yml:\n  npm install --no-save lessons@${SPEC}\n  npx --no-install lessons sources update --locked\n`);
    expect(init.stdout).toContain('its base has no policy/workflow-policy.json, so the guard accepts the one this change adds');
  });

  it('the AGENTS.md block runs lessons the way a dev dependency resolves: `npx --no-install lessons`', () => {
    const clone = thirdPartyClone();
    expect(runLessons(['init'], { cwd: clone }).exitCode).toBe(0);
    const agents = fs.readFileSync(path.join(clone, 'AGENTS.md'), 'utf8');
    expect(agents).toContain('run `npx --no-install lessons preflight "<task>"`');
    expect(agents).toContain('`npx --no-install lessons guard --stage final`');
    expect(agents).not.toMatch(/`lessons (preflight|guard|ask|spec|new)/);
    // The section `lessons export --to agents-md` writes says the same.
    expect(runLessons(['export', '--to', 'agents-md'], { cwd: clone }).exitCode).toBe(0);
    const exported = fs.readFileSync(path.join(clone, 'AGENTS.md'), 'utf8');
    expect(exported).toContain('Before a task, `npx --no-install lessons preflight "<task>"` selects the ones that apply.');
    expect(exported).not.toMatch(/`lessons (preflight|guard|ask|spec|new)/);
    // The command it names resolves to the project's node_modules/.bin/lessons.
    const version = spawnSync('npx', ['--no-install', 'lessons', '--version'], { cwd: clone, encoding: 'utf8', env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' } });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('the pull request that adds the first policy passes its own ci guard, saying so; a later policy change still needs acceptance', () => {
    const clone = thirdPartyClone();
    expect(runLessons(['init'], { cwd: clone }).exitCode).toBe(0);
    git(clone, 'add', '-A');
    git(clone, 'commit', '-q', '-m', 'chore: adopt lessons');
    const first = runLessons(['guard', '--stage', 'ci', '--base', 'origin/master'], { cwd: clone });
    expect(first.exitCode, `${first.stdout}${first.stderr}`).toBe(0);
    expect(first.stdout).toContain('warn [policy] the change adds policy/workflow-policy.json and the base has none: the first policy is accepted');

    // Once the policy is on the base, changing it is blocked until a maintainer accepts it.
    git(clone, 'push', '-q', 'origin', 'adopt-lessons:master');
    git(clone, 'fetch', '-q', 'origin');
    git(clone, 'checkout', '-q', '-b', 'relax', 'origin/master');
    const policyFile = path.join(clone, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
    policy.gates.secrets.ci = 'off';
    fs.writeFileSync(policyFile, `${JSON.stringify(policy, null, 2)}\n`);
    git(clone, 'commit', '-q', '-am', 'chore: relax the secrets gate', '-m', 'Lessons-Preflight: none');
    const later = runLessons(['guard', '--stage', 'ci', '--base', 'origin/master'], { cwd: clone });
    expect(later.exitCode).toBe(1);
    expect(later.stdout).toContain('block [policy] the change changes policy/workflow-policy.json');
  });

  it('doctor says the workflow\'s `npm ci` fails without a lockfile, and what to run instead', () => {
    const clone = thirdPartyClone();
    expect(runLessons(['init'], { cwd: clone }).exitCode).toBe(0);
    const file = path.join(clone, '.github/workflows/lessons.yml');
    const written = fs.readFileSync(file, 'utf8');
    // The workflow earlier versions wrote: npm ci.
    fs.writeFileSync(file, written.replace(`run: npm install --no-save lessons@${SPEC}`, 'run: npm ci'));
    const broken = runLessons(['doctor', '--json'], { cwd: clone });
    expect(broken.exitCode).toBe(1);
    const check = (JSON.parse(broken.stdout) as { checks: { name: string; status: string; message: string; fix?: string }[] }).checks.find((item) => item.name === 'workflow');
    expect(check).toEqual({
      name: 'workflow',
      status: 'fail',
      message: '.github/workflows/lessons.yml runs `npm ci`, which fails here: this repository has no package-lock.json',
      fix: `replace \`npm ci\` with \`npm install --no-save lessons@${SPEC}\` in .github/workflows/lessons.yml`,
    });
    fs.writeFileSync(file, written);
    const fixed = JSON.parse(runLessons(['doctor', '--json'], { cwd: clone }).stdout) as { checks: { name: string; status: string }[] };
    expect(fixed.checks.find((item) => item.name === 'workflow')?.status).toBe('ok');
  });

  it('with a lockfile the workflow keeps `npm ci`', () => {
    const clone = thirdPartyClone();
    writeFiles(clone, { 'package-lock.json': '{ "lockfileVersion": 3, "packages": {} }\n' });
    expect(runLessons(['init'], { cwd: clone }).exitCode).toBe(0);
    expect(runSteps(fs.readFileSync(path.join(clone, '.github/workflows/lessons.yml'), 'utf8'))[0]).toBe('npm ci');
  });
});

describe('the hints say how to install lessons the way that works today', () => {
  it('a git hook that cannot find lessons names the git-URL install, not the npm registry', () => {
    const root = initGitRepo();
    expect(runLessons(['init'], { cwd: root }).exitCode).toBe(0);
    expect(runLessons(['hooks', 'install'], { cwd: root }).exitCode).toBe(0);
    git(root, 'add', '-A');
    const commit = spawnHook(root);
    expect(commit.status).toBe(1);
    expect(commit.stderr).toContain('install it with `npm install -D <git URL of lessons>#<tag or commit>` (or globally, `npm install -g "$(npm pack <git URL of lessons>#<tag or commit> | tail -n 1)"`)');
    expect(commit.stderr).not.toContain('npm install --save-dev lessons');
  });
});

function spawnHook(root: string): { status: number; stderr: string } {
  const result = spawnSync('git', ['commit', '-q', '-m', 'x'], { cwd: root, encoding: 'utf8', env: { ...process.env, ...GIT_ENV, PATH: BARE_PATH } });
  return { status: result.status ?? -1, stderr: result.stderr };
}
