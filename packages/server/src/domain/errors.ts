import { ERROR_CATALOGUE, type ErrorCode } from '@patchwell/core/shell/error-catalogue';

/**
 * Errors as values with codes, for services and the HTTP layer alike. The status and text
 * of a shared code come from core's {@link ERROR_CATALOGUE}; http/errors.ts maps an AppError
 * to the response in one place.
 */

/** Field name → its messages; the 400 body's `errors`. */
export type FieldErrors = Record<string, string[]>;

/**
 * An expected failure a service reports: a stable `code` (`auth.locked`), the HTTP status,
 * a message people can read, and optionally the invalid fields.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly fieldErrors?: FieldErrors,
    /** Extra response headers, such as `Retry-After`. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** The catalogue's error for `code`; `message` replaces its text where the text says more (a wait in minutes). */
export function appError(
  code: ErrorCode,
  options: { message?: string; fieldErrors?: FieldErrors; headers?: Record<string, string> } = {},
): AppError {
  const entry = ERROR_CATALOGUE[code];
  return new AppError(code, entry.status, options.message ?? entry.message, options.fieldErrors, options.headers);
}

/** A 400 for fields a service found invalid after the schema passed (a common password, say). */
export function validationError(fieldErrors: FieldErrors): AppError {
  return appError('validation', { fieldErrors });
}

/** 404: not there, or not visible to the caller (never reveal another zone's objects). */
export function notFound(): AppError {
  return appError('not_found');
}

/** 403: the caller sees the zone but their role lacks the permission. */
export function forbidden(): AppError {
  return appError('authz.forbidden');
}
