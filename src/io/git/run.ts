import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { LessonsError } from '../../errors.js';

/**
 * The one way this package runs git: argv without a shell, stdout as bytes, stderr as text,
 * and one error policy. A nonzero exit is git's answer (callers that ask a yes/no question read
 * it); only a git that cannot run at all, or output past the caller's bound, is an error here.
 */
export interface GitOutput {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitCall {
  /** Written to git's stdin, which is then closed (`cat-file --batch`). */
  input?: string;
  /** The most stdout that is read; past it git is stopped and the call fails. */
  maxBytes?: number;
}

/** Separators for `git log --format` output: control bytes no subject, date or trailer holds. */
export const FIELD = '\x1f';
export const RECORD = '\x1e';
export const VALUE = '\x1d';

/** NUL-separated output (`-z`) as a list, without the empty field after the last NUL. */
export function splitZ(out: string): string[] {
  const parts = out.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

function cannotRun(cwd: string, error: NodeJS.ErrnoException): LessonsError {
  if (error.code === 'ENOENT' && !fs.existsSync(cwd)) return new LessonsError('GIT', `${cwd} does not exist: pass a directory inside a git working tree`);
  if (error.code === 'ENOENT') return new LessonsError('GIT', 'cannot run git: it was not found; install git and put it on PATH');
  return new LessonsError('GIT', `cannot run git: ${error.message}`);
}

/** Runs `git <args>` in `cwd`; resolves with whatever git answered, whatever its exit code. */
export function spawnGit(cwd: string, args: readonly string[], call: GitCall = {}): Promise<GitOutput> {
  const maxBytes = call.maxBytes ?? Number.POSITIVE_INFINITY;
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let overflow = false;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        overflow = true;
        child.kill();
      } else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => reject(cannotRun(cwd, error)));
    child.on('close', (code) => {
      if (overflow) return reject(new LessonsError('GIT', `git ${args.join(' ')} printed more than ${maxBytes} bytes: the change is too large to read whole`));
      resolve({ exitCode: code ?? 1, stdout: Buffer.concat(chunks), stderr });
    });
    // git may exit before reading all of stdin; its exit code says what went wrong.
    child.stdin.on('error', () => undefined);
    child.stdin.end(call.input ?? '');
  });
}

/** The error for a git command that exited nonzero: the command and git's own words. */
export function gitFailed(args: readonly string[], stderr: string): LessonsError {
  return new LessonsError('GIT', `git ${args.join(' ')} failed: ${stderr.trim() || 'no message'}`);
}

/** git's stdout as text; a nonzero exit is an error. */
export async function git(cwd: string, args: readonly string[], call: GitCall = {}): Promise<string> {
  const out = await spawnGit(cwd, args, call);
  if (out.exitCode !== 0) throw gitFailed(args, out.stderr);
  return out.stdout.toString('utf8');
}

/** git's trimmed stdout, or undefined when git says no (a ref that does not resolve, an unset key). */
export async function gitAnswer(cwd: string, args: readonly string[]): Promise<string | undefined> {
  const out = await spawnGit(cwd, args);
  if (out.exitCode !== 0) return undefined;
  return out.stdout.toString('utf8').trim() || undefined;
}

/** The variables that point git at a repository other than the one in the working directory (set while a git hook runs). */
const REPOSITORY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR'];

/** Those of them this process inherited: git run in another folder would still read and write the repository they name. */
export function inheritedRepositoryVariables(): string[] {
  return REPOSITORY_VARIABLES.filter((name) => process.env[name] !== undefined);
}
