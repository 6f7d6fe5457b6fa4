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
  | 'LESSON_EXISTS'
  | 'INVALID_LESSON'
  | 'IO'
  | 'REFUSED'
  | 'LOCKED'
  | 'GIT'
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
