/**
 * The install paths the README and every hint name, as a newcomer runs them: lessons is not on
 * the npm registry, so it installs from its git repository (`prepare` builds it) as a dev
 * dependency, globally, or through npx. Offline: the git URL is a local bare clone of this
 * repository (its committed HEAD, tagged v<version>), and the packages lessons depends on come
 * from a registry on 127.0.0.1 that serves package-lock.json's versions out of npm's cache
 * (lock-registry.ts), into a fresh npm cache. Slow (each path builds lessons once): it runs
 * under `npm run test:package`.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_INSTALL_COMMAND, GLOBAL_INSTALL_COMMAND } from '../../src/init/install.js';
import { lessonFile } from '../helpers/lessons.js';
import { GIT_ENV, PACKAGE_ROOT, git, initGitRepo, writeFiles } from '../helpers/repo.js';
import { startLockRegistry, type LockRegistry } from './lock-registry.js';

const VERSION = (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const TAG = `v${VERSION}`;
const made: string[] = [];
let registry: LockRegistry;
let url = '';
let env: Record<string, string | undefined> = {};

function bigTempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** Runs a command without blocking the registry this process serves. */
function run(command: string, args: string[], cwd: string, extra: Record<string, string | undefined> = {}): Promise<{ status: number; stdout: string; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extra } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ status: code ?? -1, stdout, output: `${stdout}${stderr}` }));
  });
}

/** A hint's command with this test's URL and tag in place, as words for sh. */
function withUrl(command: string): string {
  return command.replace('<git URL of lessons>', url).replace('<tag or commit>', TAG);
}

/** A project like expressjs/express: package.json, no lockfile, and `.npmrc` saying `package-lock=false`. */
function thirdPartyProject(): string {
  const project = initGitRepo(bigTempDir('lessons-adopter-'));
  git(project, 'checkout', '-q', '-b', 'master');
  writeFiles(project, {
    'package.json': `${JSON.stringify({ name: 'express', version: '5.0.0', private: true }, null, 2)}\n`,
    '.npmrc': 'package-lock=false\n',
    '.gitignore': 'node_modules/\n',
    'index.js': 'module.exports = {};\n',
  });
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'express');
  return project;
}

beforeAll(async () => {
  const realCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  registry = await startLockRegistry(path.join(PACKAGE_ROOT, 'package-lock.json'), realCache);
  const bare = path.join(bigTempDir('lessons-origin-'), 'lessons.git');
  git(path.dirname(bare), 'clone', '-q', '--bare', PACKAGE_ROOT, bare);
  git(bare, 'tag', TAG, 'HEAD');
  url = `git+file://${bare}`;
  env = {
    ...process.env,
    ...GIT_ENV,
    NO_COLOR: '1',
    npm_config_registry: registry.url,
    npm_config_cache: path.join(bigTempDir('lessons-npm-cache-'), 'cache'),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    GITHUB_ACTIONS: undefined,
    GITHUB_BASE_REF: undefined,
    GITHUB_EVENT_NAME: undefined,
    GITHUB_EVENT_PATH: undefined,
    LESSONS_DISABLE: undefined,
  };
}, 120_000);

afterAll(async () => {
  await registry?.close();
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('installing lessons from its git URL', () => {
  it('as a dev dependency in a project without a lockfile: init, and the first pull request passes the workflow it writes', async () => {
    const project = thirdPartyProject();
    git(project, 'checkout', '-q', '-b', 'adopt-lessons');
    const [npm, ...args] = withUrl(DEV_INSTALL_COMMAND).split(' ');
    const installed = await run(npm!, args, project);
    expect(installed.status, installed.output).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')).devDependencies).toEqual({ lessons: `${url}#${TAG}` });
    expect(fs.existsSync(path.join(project, 'package-lock.json'))).toBe(false);

    const init = await run('npx', ['--no-install', 'lessons', 'init'], project);
    expect(init.status, init.output).toBe(0);
    const workflow = fs.readFileSync(path.join(project, '.github/workflows/lessons.yml'), 'utf8');
    const steps = [...workflow.matchAll(/^\s+(?:- )?run: (.+)$/gm)].map((match) => match[1]!);
    expect(steps[0]).toBe(`npm install --no-save lessons@${url}#${TAG}`);
    expect(fs.readFileSync(path.join(project, 'AGENTS.md'), 'utf8')).toContain('`npx --no-install lessons preflight "<task>"`');
    const preflight = await run('npx', ['--no-install', 'lessons', 'preflight', 'add a route to the router'], project);
    expect(preflight.status, preflight.output).toBe(0);

    // The adoption commit with a first lesson, checked out fresh as actions/checkout does, and the workflow run step by step.
    writeFiles(project, lessonFile({ id: 'case-2026-11-01-first' }));
    expect((await run('npx', ['--no-install', 'lessons', 'index'], project)).status).toBe(0);
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'chore: adopt lessons', '-m', 'Lessons-Preflight: none');
    const clone = path.join(bigTempDir('lessons-ci-'), 'express');
    git(path.dirname(clone), 'clone', '-q', '--branch', 'adopt-lessons', project, clone);
    git(clone, 'branch', '-q', 'master', 'origin/master');
    const summary = path.join(path.dirname(clone), 'step-summary.md');
    for (const step of steps) {
      const result = await run('bash', ['-eo', 'pipefail', '-c', step], clone, { GITHUB_BASE_REF: 'master', GITHUB_STEP_SUMMARY: summary, CI: 'true' });
      expect(result.status, `${step}\n${result.output}`).toBe(0);
      if (step.endsWith('guard --stage ci')) expect(result.output).toContain('the first policy is accepted');
    }
    expect(fs.existsSync(path.join(clone, 'package-lock.json'))).toBe(false);
  }, 900_000);

  it('globally, as the hint says: the tarball `npm pack` builds from the URL', async () => {
    const prefix = bigTempDir('lessons-global-');
    const work = bigTempDir('lessons-pack-');
    const installed = await run('bash', ['-eo', 'pipefail', '-c', withUrl(GLOBAL_INSTALL_COMMAND)], work, { npm_config_prefix: prefix });
    expect(installed.status, installed.output).toBe(0);
    const bin = path.join(prefix, 'bin', 'lessons');
    expect((await run(bin, ['--version'], work)).stdout.trim()).toBe(VERSION);
    // On PATH, it runs preflight in a repository set up by its own init.
    const project = thirdPartyProject();
    const pathValue = `${path.dirname(bin)}:${process.env.PATH}`;
    expect((await run('lessons', ['init'], project, { PATH: pathValue })).status).toBe(0);
    const preflight = await run('lessons', ['preflight', 'add a route to the router'], project, { PATH: pathValue });
    expect(preflight.status, preflight.output).toBe(0);
  }, 900_000);

  it('through npx, without installing it in the project', async () => {
    const project = thirdPartyProject();
    const result = await run('npx', ['--yes', `${url}#${TAG}`, 'init'], project);
    expect(result.status, result.output).toBe(0);
    expect(result.output).toContain('created  .github/workflows/lessons.yml');
    expect(JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')).devDependencies).toBeUndefined();
  }, 900_000);
});
