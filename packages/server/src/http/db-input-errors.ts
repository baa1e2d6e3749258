import type { ApiError } from '@patchwell/core/shell/errors';

/**
 * The safety net behind the schemas: a value the database itself refuses as input (a number
 * beyond its column, text it cannot encode, a value too long for an index) is the caller's
 * bad input, so it answers 400, never 500. The schemas should refuse such values first (ids
 * and `o` have a maximum, text has a length and the edge text guard); this catches what one
 * of them misses. Only these SQLSTATEs are mapped: anything else stays a 500.
 */
const INPUT_SQLSTATES: Record<string, string> = {
  /** numeric_value_out_of_range: e.g. an id of 2^31 for an `integer` column. */
  '22003': 'A number in the request is out of range.',
  /** character_not_in_repertoire / untranslatable_character: text the database cannot encode. */
  '22021': 'The request holds text that cannot be stored.',
  '22P05': 'The request holds text that cannot be stored.',
  /** string_data_right_truncation: longer than its column. */
  '22001': 'A value in the request is too long.',
  /** program_limit_exceeded: e.g. an index row over its size limit. */
  '54000': 'A value in the request is too long.',
};

type PgLikeError = { code?: unknown; cause?: unknown };

/** The 400 body for a database error caused by the request's input, else undefined. */
export function dbInputError(err: unknown): ApiError | undefined {
  for (let e = err as PgLikeError | undefined, depth = 0; e && depth < 4; e = e.cause as PgLikeError, depth++) {
    const message = typeof e.code === 'string' ? INPUT_SQLSTATES[e.code] : undefined;
    if (message) return { code: 'bad_request', message };
  }
  return undefined;
}
