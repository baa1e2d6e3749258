import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { TEXTS } from '@patchwell/core/texts';
import type { ApiError } from '@patchwell/core/shell/errors';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from '../db/errors';

/** Field name → its messages; the 400 body's `errors`. */
export type FieldErrors = Record<string, string[]>;

/**
 * An expected failure a service reports: a stable `code` (`auth.locked`), the HTTP status,
 * a message people can read, and optionally the invalid fields. Mapped to the response in
 * one place ({@link registerErrorHandling}).
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

/** A 400 for fields a service found invalid after the schema passed (a common password, say). */
export function validationError(fieldErrors: FieldErrors): AppError {
  return new AppError('validation', 400, TEXTS.validation.summary, fieldErrors);
}

export function notFoundBody(): ApiError {
  return { code: 'not_found', message: 'Not found.' };
}

// Fastify's own client errors, answered with our wording (never its internals).
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'The request body must be JSON (Content-Type: application/json).',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'bad_request', message: 'The request body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'bad_request', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad_request', message: 'Content-Length is invalid.' },
};

/** `/body/email` → `email`, `/items/0/name` → `items.0.name`, `/` → `_` (the whole input). */
function fieldName(instancePath: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  return parts.length ? parts.join('.') : '_';
}

function collectFieldErrors(issues: { instancePath: string; message?: string }[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const name = fieldName(issue.instancePath);
    const list = (out[name] ??= []);
    const message = issue.message ?? TEXTS.validation.summary;
    if (!list.includes(message)) list.push(message);
  }
  return out;
}

function send(reply: FastifyReply, status: number, body: ApiError, headers?: Record<string, string>) {
  if (headers) reply.headers(headers);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * One error handler for the whole app. Expected errors keep their status and code;
 * anything else is a 500 with the generic text, and its stack and SQL go to the log only.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      const body: ApiError = { code: err.code, message: err.message };
      if (err.fieldErrors) body.errors = err.fieldErrors;
      return send(reply, err.status, body, err.headers);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return send(reply, 400, {
        code: 'validation',
        message: TEXTS.validation.summary,
        errors: collectFieldErrors(err.validation),
      });
    }
    const known = err.code ? FASTIFY_CLIENT_ERRORS[err.code] : undefined;
    if (known) return send(reply, known.status, { code: known.code, message: known.message });
    if (err.code === 'FST_ERR_RESPONSE_SERIALIZATION' && isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response does not match its schema');
      return send(reply, 500, { code: 'internal', message: TEXTS.generic.unexpected });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err }, 'client error');
      return send(reply, status, { code: 'bad_request', message: 'The request could not be processed.' });
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable: answered 503');
      const { status, code, message, retryAfterS } = DATABASE_UNAVAILABLE;
      return send(reply, status, { code, message }, { 'retry-after': String(retryAfterS) });
    }
    request.log.error({ err }, 'unhandled error');
    return send(reply, 500, { code: 'internal', message: TEXTS.generic.unexpected });
  });
}
