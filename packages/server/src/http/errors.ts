import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { TEXTS } from '@patchwell/core/texts';
import { ERROR_CATALOGUE, type ErrorCode } from '@patchwell/core/shell/error-catalogue';
import type { ApiError } from '@patchwell/core/shell/errors';
import { AppError, type FieldErrors } from '../domain/errors';
import { dbInputError } from './db-input-errors';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from '../db/errors';

// Routes and http/ files may take these from here too; services import them from src/domain/.
export { AppError, validationError, type FieldErrors } from '../domain/errors';

export function notFoundBody(): ApiError {
  return { code: 'not_found', message: ERROR_CATALOGUE.not_found.message };
}

const caught = (code: ErrorCode) => ({
  status: ERROR_CATALOGUE[code].status,
  code,
  message: ERROR_CATALOGUE[code].message,
});

// Fastify's own client errors, answered with our wording (never its internals).
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: caught('payload_too_large'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: caught('unsupported_media_type'),
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
      return send(reply, 500, { code: 'internal', message: ERROR_CATALOGUE.internal.message });
    }
    const input = dbInputError(err);
    if (input) {
      request.log.info({ err }, 'the database refused the request’s input');
      return send(reply, 400, input);
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err }, 'client error');
      return send(reply, status, { code: 'bad_request', message: ERROR_CATALOGUE.bad_request.message });
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable: answered 503');
      const { status, code, message, retryAfterS } = DATABASE_UNAVAILABLE;
      return send(reply, status, { code, message }, { 'retry-after': String(retryAfterS) });
    }
    request.log.error({ err }, 'unhandled error');
    return send(reply, 500, { code: 'internal', message: ERROR_CATALOGUE.internal.message });
  });
}
