/**
 * The package as a user gets it: `npm pack`, installed into a fresh project, then `lessons init`
 * and the workflow it writes, run step by step in a clone. Offline: the project's lockfile is
 * made from this repository's, so `npm ci --offline` takes every dependency from npm's cache.
 * Its own script, `npm run test:package` (a few npm installs); `.ci/run` runs it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { GIT_ENV, PACKAGE_ROOT, git, initGitRepo, writeFiles } from '../helpers/repo.js';

interface LockEntry {
  dev?: boolean;
  [key: string]: unknown;
}

const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  bin: Record<string, string>;
  engines: Record<string, string>;
};
const TARBALL = `lessons-${manifest.version}.tgz`;
// The event of a CI run these tests run in is not the temporary projects' (the guard would take its pull request's base).
const OFFLINE_ENV = {
  ...process.env,
  ...GIT_ENV,
  NO_COLOR: '1',
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  GITHUB_EVENT_NAME: undefined,
  GITHUB_EVENT_PATH: undefined,
};

function run(command: string, args: string[], cwd: string, env: Record<string, string | undefined> = {}): { status: number; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...OFFLINE_ENV, ...env } });
  return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

/** package.json and package-lock.json of a project with the packed lessons as a dev dependency. */
function projectManifests(): Record<string, string> {
  const ours = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const packages: Record<string, LockEntry> = {
    '': { name: 'app', version: '1.0.0', devDependencies: { lessons: `file:${TARBALL}` } },
    'node_modules/lessons': { version: manifest.version, resolved: `file:${TARBALL}`, dev: true, license: 'MIT', dependencies: manifest.dependencies, bin: manifest.bin, engines: manifest.engines },
  };
  for (const [key, entry] of Object.entries(ours.packages)) if (key !== '' && !entry.dev) packages[key] = { ...entry, dev: true };
  return {
    'package.json': `${JSON.stringify({ name: 'app', version: '1.0.0', private: true, devDependencies: { lessons: `file:${TARBALL}` } }, null, 2)}\n`,
    'package-lock.json': `${JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  };
}

/** The `run:` commands of a workflow, in order. */
function runSteps(workflow: string): string[] {
  return [...workflow.matchAll(/^\s+(?:- )?run: (.+)$/gm)].map((match) => match[1]!);
}

let packDir = '';
const made: string[] = [];

/**
 * A temp directory removed after all the tests (not tempDir(): that one is removed after each
 * test, within the hook timeout, and a project's node_modules takes longer than that here).
 */
function bigTempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** A git repository on branch main for a fresh project. */
function freshProject(): string {
  return initGitRepo(bigTempDir('lessons-project-'));
}
let files: string[] = [];

beforeAll(() => {
  packDir = bigTempDir('lessons-pack-');
  // `npm run test:package` builds first; --ignore-scripts skips building again.
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], { cwd: PACKAGE_ROOT, env: OFFLINE_ENV, stdio: 'ignore' });
  files = execFileSync('tar', ['-tzf', path.join(packDir, TARBALL)], { encoding: 'utf8' }).split('\n').filter(Boolean);
}, 120_000);

afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('the npm package', () => {
  it('ships the CLI, the schemas, the policy and the licence, and no compiled tests', () => {
    expect(files).toContain('package/LICENSE');
    expect(files).toContain('package/dist/cli/lessons.js');
    expect(files).toContain('package/dist/cli/lessons.cjs');
    expect(files).toContain('package/dist/fast/hook.cjs');
    expect(files).toContain('package/dist/fast/preflight.cjs');
    expect(files).toContain('package/schemas/lesson.schema.json');
    expect(files).toContain('package/policy/workflow-policy.json');
    expect(files.filter((file) => file.startsWith('package/dist/test/') || file.startsWith('package/test/'))).toEqual([]);
    expect(fs.readFileSync(path.join(PACKAGE_ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  });

  it('installs into a fresh project, `npx lessons init` sets it up, and the workflow it writes passes in a clone', () => {
    const project = freshProject();
    fs.copyFileSync(path.join(packDir, TARBALL), path.join(project, TARBALL));
    writeFiles(project, { ...projectManifests(), '.gitignore': 'node_modules/\n' });
    const installed = run('npm', ['ci'], project);
    expect(installed.status, installed.output).toBe(0);

    const init = run('npx', ['--no-install', 'lessons', 'init'], project);
    expect(init.status, init.output).toBe(0);
    expect(init.output).toContain('created  .github/workflows/lessons.yml');
    const workflow = fs.readFileSync(path.join(project, '.github/workflows/lessons.yml'), 'utf8');
    const steps = runSteps(workflow);
    expect(steps).toEqual([
      'npm ci',
      'npx --no-install lessons sources update --locked',
      'npx --no-install lessons lint',
      'npx --no-install lessons index --check',
      'npx --no-install lessons guard --stage ci',
      'npx --no-install lessons report --html lessons-report.html --format markdown >> "$GITHUB_STEP_SUMMARY"',
    ]);
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'set up lessons');

    // A pull request that adds a lesson, checked out in a clone as actions/checkout does.
    git(project, 'checkout', '-q', '-b', 'add-a-lesson');
    writeFiles(project, lessonFile({ id: 'case-2026-11-01-first' }));
    const indexed = run('npx', ['--no-install', 'lessons', 'index'], project);
    expect(indexed.status, indexed.output).toBe(0);
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'docs: the first lesson');
    const clone = path.join(bigTempDir('lessons-clone-'), 'clone');
    git(path.dirname(clone), 'clone', '-q', '--branch', 'add-a-lesson', project, clone);
    git(clone, 'branch', '-q', 'main', 'origin/main');
    const summary = path.join(path.dirname(clone), 'step-summary.md');
    for (const step of steps) {
      const result = run('bash', ['-eo', 'pipefail', '-c', step], clone, { GITHUB_BASE_REF: 'main', GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: summary, CI: 'true' });
      expect(result.status, `${step}\n${result.output}`).toBe(0);
    }
    // The report step wrote the page and the job summary.
    expect(fs.existsSync(path.join(clone, 'lessons-report.html'))).toBe(true);
    expect(fs.readFileSync(summary, 'utf8')).toContain('lesson');
  }, 300_000);

  it('without lessons in package.json the workflow installs the version that ran init, and says how to pin it', () => {
    const project = freshProject();
    fs.copyFileSync(path.join(packDir, TARBALL), path.join(project, TARBALL));
    writeFiles(project, projectManifests());
    expect(run('npm', ['ci'], project).status).toBe(0);
    // The project's package.json no longer names lessons: init sees an unrelated project.
    writeFiles(project, { 'package.json': '{ "name": "app", "private": true }\n' });
    const init = run('npx', ['--no-install', 'lessons', 'init'], project);
    expect(init.status, init.output).toBe(0);
    const workflow = fs.readFileSync(path.join(project, '.github/workflows/lessons.yml'), 'utf8');
    expect(runSteps(workflow)).toEqual([
      `npm install --global lessons@${manifest.version}`,
      'lessons sources update --locked',
      'lessons lint',
      'lessons index --check',
      'lessons guard --stage ci',
      'lessons report --html lessons-report.html --format markdown >> "$GITHUB_STEP_SUMMARY"',
    ]);
    // lessons@<version> is what installs once lessons is on the npm registry; the comment says what works until then.
    expect(workflow).toContain('# until then put its git URL here: npm install -g "$(npm pack <git URL of lessons>#<tag or commit> | tail -n 1)")');
    expect(workflow).toContain('add it as a dev dependency (npm install -D <git URL of lessons>#<tag or commit>)');
    // The steps after the install, with the installed binary standing in for the global one.
    const bin = path.join(project, 'node_modules/.bin');
    for (const step of runSteps(workflow).slice(1, 4)) {
      const result = run('bash', ['-eo', 'pipefail', '-c', step], project, { PATH: `${bin}:${process.env.PATH}` });
      expect(result.status, `${step}\n${result.output}`).toBe(0);
    }
  }, 300_000);
});
