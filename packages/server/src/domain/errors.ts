import {
  ERROR_CATALOGUE,
  errorText,
  wireCode,
  type ErrorCode,
  type ErrorWording,
  type PlainErrorCode,
} from '@patchwell/core/shell/error-catalogue';

/**
 * Errors as values with codes, for services and the HTTP layer alike. Every AppError is an
 * entry of core's {@link ERROR_CATALOGUE}: its status and text come from there, and a code
 * that is not in it does not compile. http/errors.ts maps an AppError to the response.
 */

/** Field name → its messages; the 400 body's `errors`. */
export type FieldErrors = Record<string, string[]>;

type Extras = {
  /** The invalid fields, for a 400 (or a refusal about one field). */
  fieldErrors?: FieldErrors;
  /** Extra response headers, such as `Retry-After`. */
  headers?: Record<string, string>;
};

/** What an entry needs besides its code: the wording of a worded text, then the extras. */
export type AppErrorOptions<C extends ErrorCode> = C extends PlainErrorCode
  ? [options?: Extras]
  : // A wording whose every part is optional (a detailed text replacing the default) may be left out.
    Record<string, never> extends ErrorWording<C>
    ? [options?: Extras & { wording?: ErrorWording<C> }]
    : [options: Extras & { wording: ErrorWording<C> }];

/**
 * An expected failure a service reports: a stable `code` (`auth.locked`), the HTTP status,
 * a message people can read, and optionally the invalid fields.
 */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  /** The catalogue entry. */
  readonly entry: C;
  /** The code the API answers with (the entry's, or the code it shares). */
  readonly code: string;
  readonly status: number;
  readonly fieldErrors?: FieldErrors;
  readonly headers?: Record<string, string>;

  constructor(entry: C, ...[options]: AppErrorOptions<C>) {
    const extras = options as (Extras & { wording?: unknown }) | undefined;
    super(errorText(entry, extras?.wording));
    this.name = 'AppError';
    this.entry = entry;
    this.code = wireCode(entry);
    this.status = ERROR_CATALOGUE[entry].status;
    if (extras?.fieldErrors) this.fieldErrors = extras.fieldErrors;
    if (extras?.headers) this.headers = extras.headers;
  }
}

/** The catalogue's error `code`; the same as `new AppError(code, …)`. */
export function appError<C extends ErrorCode>(code: C, ...options: AppErrorOptions<C>): AppError<C> {
  return new AppError(code, ...options);
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
