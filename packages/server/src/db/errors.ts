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
