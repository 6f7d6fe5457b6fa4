/**
 * The pre-commit framework (a Python tool) driving this package's .pre-commit-hooks.yaml on a
 * real commit. It runs in its own script, `npm run test:precommit`, so `npm test` needs only
 * Node and git; `.ci/run` installs the framework and runs it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASE_ID, committedLessonsRepo, installBinWrapper, stageIndex, writeReceipt, NEUTRAL_ENV } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { GIT_ENV, PACKAGE_ROOT, git, tempDir, writeFiles } from '../helpers/repo.js';

function gitRun(cwd: string, args: string[], env: Record<string, string>): { status: number; output: string } {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV, ...NEUTRAL_ENV, NO_COLOR: '1', ...env } });
  return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

describe('the pre-commit framework', () => {
  it('runs the hooks of .pre-commit-hooks.yaml on a real commit', async () => {
    const version = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
    expect(version.status, 'the pre-commit framework must be installed (apt-get install -y pre-commit)').toBe(0);
    const manifestCheck = spawnSync('pre-commit', ['validate-manifest', '.pre-commit-hooks.yaml'], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    expect(manifestCheck.status, manifestCheck.stdout + manifestCheck.stderr).toBe(0);
    const root = await committedLessonsRepo();
    installBinWrapper(root);
    const manifest = fs.readFileSync(path.join(PACKAGE_ROOT, '.pre-commit-hooks.yaml'), 'utf8');
    // A local repository config with the manifest's hooks, run by the system's `lessons`
    // (the manifest's `language: node` would install the package from the registry).
    const hooks = manifest
      .replace(/^#.*\n/gm, '')
      .replace(/language: node/g, 'language: system')
      .replace(/entry: lessons /g, `entry: ${path.join(root, 'node_modules/.bin/lessons')} `)
      .replace(/^/gm, '    ');
    writeFiles(root, { '.pre-commit-config.yaml': `repos:\n  - repo: local\n    hooks:\n${hooks}` });
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--no-verify', '-m', 'pre-commit config');
    const env = { PRE_COMMIT_HOME: tempDir(), HOME: tempDir() };
    const installed = spawnSync('pre-commit', ['install', '-t', 'pre-commit', '-t', 'prepare-commit-msg', '-t', 'commit-msg'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...GIT_ENV, ...NEUTRAL_ENV, ...env },
    });
    expect(installed.status, installed.stderr).toBe(0);
    writeReceipt(root, [CASE_ID], new Date());
    writeFiles(root, lessonFile({ id: 'case-2026-09-09-framework' }));
    git(root, 'add', '-A');
    const blocked = gitRun(root, ['commit', '-m', 'stale index'], env);
    expect(blocked.status).not.toBe(0);
    expect(blocked.output).toContain('lessons guard (pre-commit)');
    expect(blocked.output).toContain('Failed');
    expect(blocked.output).toContain('lessons/index.json is stale');
    await stageIndex(root);
    const passed = gitRun(root, ['commit', '-m', 'fresh index'], env);
    expect(passed.status, passed.output).toBe(0);
    expect(git(root, 'log', '-1', '--format=%B')).toBe(`fresh index\n\nLessons-Preflight: ${CASE_ID}\n\n`);
  });
});
