import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The binary package.json names (the CommonJS launcher, cli/bin.ts). */
export const BIN = path.join(PACKAGE_ROOT, 'dist/cli/lessons.cjs');

const made: string[] = [];

afterEach(() => {
  // A detached process a test started (a hook's background capture) may still be writing its last files: retried, not failed.
  while (made.length > 0) fs.rmSync(made.pop()!, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

/** An empty temp directory, removed after the test. */
export function tempDir(prefix = 'lessons-test-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** A lessons repository in a temp dir: the three level folders and the default policy. */
export function tempLessonsRepo(files: Record<string, string> = {}): string {
  const root = tempDir();
  for (const folder of ['cases', 'patterns', 'principles']) fs.mkdirSync(path.join(root, 'lessons', folder), { recursive: true });
  fs.mkdirSync(path.join(root, 'policy'));
  fs.copyFileSync(path.join(PACKAGE_ROOT, 'policy/workflow-policy.json'), path.join(root, 'policy/workflow-policy.json'));
  writeFiles(root, files);
  return root;
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Runs git in `cwd` with a fixed identity and no user or system config; returns stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `git init` on branch main with signing off, in `root` (a temp dir by default). */
export function initGitRepo(root = tempDir()): string {
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'commit.gpgsign', 'false');
  git(root, 'config', 'tag.gpgsign', 'false');
  return root;
}

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * Runs the built `lessons` binary as a user would, without colour. With `timeoutMs` a run that
 * hangs is killed and reported with exit code -1 (a synchronous spawn cannot be interrupted otherwise).
 */
export function runCli(args: string[], options: { cwd?: string; input?: string; env?: Record<string, string>; timeoutMs?: number } = {}): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? PACKAGE_ROOT,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', ...options.env },
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs, killSignal: 'SIGKILL' as const }),
  });
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.status ?? -1 };
}
