import fs from 'node:fs';
import path from 'node:path';
import { writeIndex } from '../../src/store/index-write.js';
import { BIN, git, initGitRepo, runCli, tempLessonsRepo, writeFiles, type CliResult } from './repo.js';
import { lessonFile } from './lessons.js';

/**
 * Credential-shaped strings for tests, assembled at run time so that no token-looking
 * string is ever written into this repository's files.
 */
export function fakeToken(kind: 'github' | 'aws' | 'slack'): string {
  const alnum = 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF';
  switch (kind) {
    case 'github':
      return ['gh', 'p_', alnum, 'Xy12'].join('');
    case 'aws':
      return ['AK', 'IA', 'QWERTYUI', 'OPASDFGH'].join('');
    case 'slack':
      return ['xo', 'xb-', '1234567890-', 'abcdefABCDEF'].join('');
  }
}

export const CASE_ID = 'case-2026-01-01-example';

/** A committed lessons repository with one valid case and a fresh index, on branch main. */
export async function committedLessonsRepo(files: Record<string, string> = {}): Promise<string> {
  const root = tempLessonsRepo({ ...lessonFile({ id: CASE_ID }), ...files });
  initGitRepo(root);
  fs.writeFileSync(path.join(root, '.gitignore'), '.lessons/\nnode_modules/\n');
  await writeIndex({ cwd: root });
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--no-verify', '-m', 'init', '-m', 'Lessons-Preflight: none');
  return root;
}

export async function stageIndex(root: string): Promise<void> {
  await writeIndex({ cwd: root });
  git(root, 'add', '-A');
}

/**
 * A preflight receipt as `lessons preflight` writes it. By default it names every file (`--path
 * '**'`): a preflight for the change about to be committed, so the commit hooks stamp its lessons.
 */
export function writeReceipt(root: string, selected: string[], createdAt: Date, task: { task: string; paths: string[] } = { task: 'a task', paths: ['**'] }): void {
  const receipt = { version: 1, ...task, tool: null, command: null, project: null, selected, index_digest: 'x', created_at: createdAt.toISOString() };
  writeFiles(root, { '.lessons/preflight/last.json': JSON.stringify(receipt) });
}

/** node_modules/.bin/lessons in `root`, running the built CLI, as `npm install` would leave it. */
export function installBinWrapper(root: string): void {
  const file = path.join(root, 'node_modules/.bin/lessons');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
}

export function commitAll(root: string, ...message: string[]): string {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--no-verify', ...message.flatMap((part) => ['-m', part]));
  return git(root, 'rev-parse', 'HEAD').trim();
}

/**
 * The environment variables the guard and the hooks read, emptied: tests that run inside
 * GitHub Actions or a hook must not inherit GITHUB_BASE_REF, a step summary file, or a bypass.
 */
export const NEUTRAL_ENV: Record<string, string> = {
  GITHUB_ACTIONS: '',
  GITHUB_STEP_SUMMARY: '',
  GITHUB_BASE_REF: '',
  GITHUB_EVENT_NAME: '',
  GITHUB_EVENT_PATH: '',
  PRE_COMMIT_FROM_REF: '',
  PRE_COMMIT_TO_REF: '',
  PRE_COMMIT_COMMIT_MSG_SOURCE: '',
  LESSONS_DISABLE: '',
};

/** The built CLI with NEUTRAL_ENV under the test's own variables. */
export function runLessons(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): CliResult {
  return runCli(args, { ...options, env: { ...NEUTRAL_ENV, ...options.env } });
}
