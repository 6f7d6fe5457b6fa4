/**
 * Domain errors. Library code throws these; only cli/lessons.ts turns them into an exit code.
 * Every message says what to do next.
 */
export type ErrorCode =
  | 'USAGE'
  | 'NOT_A_LESSONS_REPO'
  | 'INVALID_POLICY'
  | 'INVALID_CONFIG'
  | 'LESSON_NOT_FOUND'
  | 'LESSON_AMBIGUOUS'
  | 'LESSON_EXISTS'
  | 'INVALID_LESSON'
  | 'IO'
  | 'REFUSED'
  | 'LOCKED'
  | 'GIT'
  | 'SOURCES_NOT_LOCKED'
  | 'INTERNAL';

export class LessonsError extends Error {
  readonly code: ErrorCode;
  /** 2 for usage, configuration and internal errors; 1 for a refusal the user can fix in content. */
  readonly exitCode: 1 | 2;

  constructor(code: ErrorCode, message: string, exitCode: 1 | 2 = 2) {
    super(message);
    this.name = 'LessonsError';
    this.code = code;
    this.exitCode = exitCode;
  }
}

export class UsageError extends LessonsError {
  constructor(message: string) {
    super('USAGE', message, 2);
    this.name = 'UsageError';
  }
}

/**
 * A LessonsError, recognised by its shape rather than its class: a bundled fast command carries
 * its own copy of this module, whose class is not this one.
 */
export function isLessonsError(error: unknown): error is LessonsError {
  if (error instanceof LessonsError) return true;
  const candidate = error as Partial<LessonsError> | null;
  return error instanceof Error && candidate?.name !== undefined && /^(Lessons|Usage)Error$/.test(candidate.name) && typeof candidate.code === 'string' && (candidate.exitCode === 1 || candidate.exitCode === 2);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What to do about a file-system refusal, by errno code. */
const ENVIRONMENT_FIXES: Record<string, string> = {
  EACCES: 'permission denied: give your user access to it (or run lessons as the user who owns the repository)',
  EPERM: 'operation not permitted: give your user access to it (or run lessons as the user who owns the repository)',
  EROFS: 'the file system is read-only: run lessons where it can write its .lessons/ folder',
  ENOSPC: 'no space left on the device: free some space and run again',
  EDQUOT: 'the disk quota is used up: free some space and run again',
  ENOTDIR: 'a file stands where a folder is expected: move the file away',
  EMFILE: 'too many open files: raise the limit (ulimit -n) and run again',
  ENAMETOOLONG: 'the file name is too long for the file system: use a shorter title or id',
};

/**
 * A LessonsError (exit 2) for an error the environment caused — a permission, a read-only or
 * full disk — naming the path and the fix; undefined for anything else (a real internal error).
 */
export function environmentError(error: unknown): LessonsError | undefined {
  const system = error as NodeJS.ErrnoException | null;
  if (!(error instanceof Error) || typeof system?.code !== 'string') return undefined;
  // mkdir of a path a file already holds: the same mistake as ENOTDIR.
  const code = system.code === 'EEXIST' && system.syscall === 'mkdir' ? 'ENOTDIR' : system.code;
  const fix = ENVIRONMENT_FIXES[code];
  if (fix === undefined) return undefined;
  const where = typeof system.path === 'string' ? ` ${system.path}` : '';
  const verb = system.syscall ? `${system.syscall} failed on` : 'cannot use';
  return new LessonsError('IO', `${verb}${where}: ${fix}`);
}
