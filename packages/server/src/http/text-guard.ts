import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sessionCookieName } from '../modules/auth/cookie';
import type { Config } from '../config';
import { AppError, type FieldErrors } from './errors';

/**
 * Text PostgreSQL cannot store, refused at the edge for every route at once. A NUL character
 * (U+0000) is not allowed in `text` or `jsonb`, and an unpaired UTF-16 surrogate (`"\ud800"` in
 * JSON) is not valid Unicode, so jsonb rejects it and other columns would store U+FFFD instead.
 * Left to the routes, such a string failed deep in a query (a 500, and once a whole batch of
 * other devices' last-seen writes); here it is a 400 that names the field, before any schema,
 * service or store sees it: body, query string, path parameters and the credentials the
 * access hook reads (Basic sign-in, the session cookie).
 */

export const TEXT_GUARD_MESSAGE = 'Must not contain a NUL character (U+0000) or an unpaired UTF-16 surrogate.';

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `value` holds text that cannot be stored (NUL or an unpaired surrogate). */
export function isUnstorableText(value: string): boolean {
  return UNSTORABLE.test(value);
}

/** An unstorable key as it appears in a field name: escaped as in JSON. */
function escapedKey(key: string): string {
  return JSON.stringify(key).slice(1, -1);
}

// Deep enough for any payload the API takes; deeper input is refused by the schemas anyway.
const MAX_DEPTH = 32;

/**
 * Adds to `out` the path (`status.logged_in_user`, `items.0.name`) of every unstorable string
 * or object key in `value`. `path` is a stack the walk pushes to and pops from: a path is
 * joined only for what is refused, so a clean body (every request) allocates nothing per field.
 */
function collect(value: unknown, path: string[], out: string[], depth = 0): void {
  if (out.length >= 20 || depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    if (isUnstorableText(value)) out.push(path.length ? path.join('.') : '_');
    return;
  }
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(String(i));
      collect(value[i], path, out, depth + 1);
      path.pop();
    }
    return;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const unstorable = isUnstorableText(key);
    path.push(unstorable ? escapedKey(key) : key);
    if (unstorable) out.push(path.join('.'));
    else collect((value as Record<string, unknown>)[key], path, out, depth + 1);
    path.pop();
  }
}

function refuse(fields: string[]): AppError {
  const errors: FieldErrors = Object.fromEntries(fields.map((f) => [f, [TEXT_GUARD_MESSAGE]]));
  return new AppError('validation', { fieldErrors: errors });
}

/** The text a Basic `Authorization` header carries once decoded (sign-in reads it as UTF-8). */
function basicCredentials(request: FastifyRequest): string | undefined {
  const match = /^basic\s+(\S+)/i.exec(request.headers.authorization ?? '');
  return match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : undefined;
}

/**
 * Registers the guard: query string, path parameters and credentials on request (before the
 * access hook, so it must be registered after the cookie plugin and before `registerAccess`),
 * the parsed body before validation.
 */
export function registerTextGuard(app: FastifyInstance, config: Pick<Config, 'isHttps'>): void {
  const cookieName = sessionCookieName(config);
  app.addHook('onRequest', async (request) => {
    const bad: string[] = [];
    collect(request.query, [], bad);
    collect(request.params, [], bad);
    const credentials = basicCredentials(request);
    if (credentials !== undefined && isUnstorableText(credentials)) bad.push('authorization');
    const session = request.cookies?.[cookieName];
    if (session !== undefined && isUnstorableText(session)) bad.push(cookieName);
    if (bad.length) throw refuse(bad);
  });
  app.addHook('preValidation', async (request) => {
    const bad: string[] = [];
    collect(request.body, [], bad);
    if (bad.length) throw refuse(bad);
  });
}
