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

/** SQLSTATEs of a server going away: admin shutdown, crash shutdown, cannot connect now. Class 08 is added below. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03']);
/** Socket errors of a database that is down or restarting. */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
/** node-postgres and PGlite say these in words only. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /^PGlite is closed/,
  // The pool was ended (shutting down): requests still in flight are told to come back.
  /^Cannot use a pool after calling end on the pool/,
];

/**
 * True when `err` (or a cause or member of it) says the database cannot be reached right
 * now, as opposed to a query that failed: connection refused or terminated, SQLSTATE class
 * 08 or 57P01–57P03, a closed PGlite or pool. The request may succeed if retried.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== 'object' || depth > 5 || seen.has(e)) return false;
    seen.add(e);
    const { code, message, cause, errors } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof code === 'string' && UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    if (Array.isArray(errors) && errors.some((x) => visit(x, depth + 1))) return true;
    return visit(cause, depth + 1);
  };
  return visit(err, 0);
}

/** While the database is unavailable, clients are told to retry after this many seconds (agents do, with backoff). */
export const DATABASE_RETRY_AFTER_S = 5;
