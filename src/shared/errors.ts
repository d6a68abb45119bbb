// Errors cross every boundary (IPC, HTTP, CLI) as data; stacks stay in the log.

export const errorCodes = [
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'CONFLICT',
  'UNAUTHORIZED',
  'CANCELLED',
  'VALIDATION_FAILED',
  'UNSAFE_INPUT',
  'TOO_LARGE',
  'MODEL_ERROR',
  'LLM_ERROR',
  'ENDPOINT_UNREACHABLE',
  'TIMEOUT',
  'UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface ApiErrorData {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

export class CuratorError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'CuratorError';
  }

  toData(): ApiErrorData {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isApiErrorData(value: unknown): value is ApiErrorData {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiErrorData).code === 'string' &&
    typeof (value as ApiErrorData).message === 'string'
  );
}

/** SQLite errors a user can act on, in words (the library file is read-only, locked, or damaged). */
const sqliteAdvice: Record<string, string> = {
  SQLITE_READONLY:
    'The library is open read-only (its file or folder is not writable), so this change was not saved',
  SQLITE_BUSY:
    'Another process kept the library locked for more than 5 seconds; nothing was changed, try again',
  SQLITE_CORRUPT:
    'The library file is damaged; stop writing to it, and restore the last backup (see "Your data" in the README)',
};

/** Any thrown value as error data; unknown errors become INTERNAL with their message only. */
export function toErrorData(error: unknown): ApiErrorData {
  if (error instanceof CuratorError) return error.toData();
  const sqliteCode = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof sqliteCode === 'string') {
    const base = Object.keys(sqliteAdvice).find((c) => sqliteCode === c || sqliteCode.startsWith(`${c}_`));
    if (base) return { code: 'UNAVAILABLE', message: `${sqliteAdvice[base]} (${error.message})` };
  }
  if (isApiErrorData(error)) return { code: error.code, message: error.message, details: error.details };
  if (error instanceof Error && error.name === 'AbortError')
    return { code: 'CANCELLED', message: 'Cancelled' };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
