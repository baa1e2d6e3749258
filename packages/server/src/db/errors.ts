/** PostgreSQL's SQLSTATE for a unique violation. */
const UNIQUE_VIOLATION = '23505';

type PgLikeError = { code?: unknown; constraint?: unknown; cause?: unknown };

/**
 * True when `err` (or the driver error drizzle wraps in `cause`) is a unique violation,
 * optionally of the named constraint or index. Works for node-postgres and PGlite.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e = err as PgLikeError | undefined, depth = 0; e && depth < 4; e = e.cause as PgLikeError, depth++) {
    if (e.code === UNIQUE_VIOLATION) return constraint === undefined || e.constraint === constraint;
  }
  return false;
}

/**
 * True when `err` is about the data of the statement (SQLSTATE class 22, data exception,
 * such as a NUL byte in text; or 23, a constraint): another statement without that row
 * may succeed, unlike after a lost connection.
 */
export function isRowError(err: unknown): boolean {
  for (let e = err as PgLikeError | undefined, depth = 0; e && depth < 4; e = e.cause as PgLikeError, depth++) {
    if (typeof e.code === 'string' && /^2[23]/.test(e.code)) return true;
  }
  return false;
}

/**
 * The database's own code and message of `err`, without the statement or its parameters
 * (drizzle's wrapper carries both, and they may hold what a client sent).
 */
export function dbErrorSummary(err: unknown): { code?: string; message: string } {
  for (let e = err as PgLikeError | undefined, depth = 0; e && depth < 4; e = e.cause as PgLikeError, depth++) {
    if (typeof e.code === 'string') return { code: e.code, message: String((e as { message?: unknown }).message) };
  }
  return { message: err instanceof Error && !(err.cause instanceof Error) ? err.message : 'database error' };
}
