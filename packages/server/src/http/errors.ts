import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { TEXTS } from '@patchwell/core/texts';
import { ERROR_CATALOGUE, type PlainErrorCode } from '@patchwell/core/shell/error-catalogue';
import type { ApiError } from '@patchwell/core/shell/errors';
import { AppError, type FieldErrors } from '../domain/errors';
import { dbInputError } from './db-input-errors';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '../db/errors';

// Routes and http/ files may take these from here too; services import them from src/domain/.
export { AppError, validationError, type FieldErrors } from '../domain/errors';

export function notFoundBody(): ApiError {
  return { code: 'not_found', message: ERROR_CATALOGUE.not_found.message };
}

// Fastify's own client errors, answered with our wording (never its internals).
const FASTIFY_CLIENT_ERRORS: Record<string, PlainErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request.empty_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'request.invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request.invalid_content_length',
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

function sendAppError(reply: FastifyReply, err: AppError) {
  const body: ApiError = { code: err.code, message: err.message };
  if (err.fieldErrors) body.errors = err.fieldErrors;
  return send(reply, err.status, body, err.headers);
}

/**
 * One error handler for the whole app. Expected errors keep their status and code;
 * anything else is a 500 with the generic text, and its stack and SQL go to the log only.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) return sendAppError(reply, err);
    if (hasZodFastifySchemaValidationErrors(err)) {
      return send(reply, 400, {
        code: 'validation',
        message: TEXTS.validation.summary,
        errors: collectFieldErrors(err.validation),
      });
    }
    const known = err.code ? FASTIFY_CLIENT_ERRORS[err.code] : undefined;
    if (known) return sendAppError(reply, new AppError(known));
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
      return sendAppError(
        reply,
        new AppError('unavailable', { headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) } }),
      );
    }
    request.log.error({ err }, 'unhandled error');
    return send(reply, 500, { code: 'internal', message: ERROR_CATALOGUE.internal.message });
  });
}
