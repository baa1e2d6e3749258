import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_CATALOGUE } from '@patchwell/core/shell/error-catalogue';
import type { Authz } from '../domain/authz';
import { appError } from '../domain/errors';

// Routes may take these from here too; services import them from src/domain/ (lint says so).
export { forbidden, notFound } from '../domain/errors';
export type { Authz } from '../domain/authz';

/**
 * Marks a request as needing no authorization decision, with the reason in the code
 * (`skipAuthorization(request, 'skipauth: every signed-in user reads the banners')`).
 * Greppable on purpose: each use is a place a reviewer should look at.
 */
export function skipAuthorization(request: FastifyRequest, reason: string): void {
  if (!reason.startsWith('skipauth: ')) throw new Error('skipAuthorization reasons start with "skipauth: ".');
  request.authzSkipped = reason;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authorization of a signed-in request (session or API key); null on public routes. */
    authz: Authz | null;
    /** Set by {@link skipAuthorization}. */
    authzSkipped: string | null;
  }
}

/** The request's authorization; throws 401 on a route that is not signed in. */
export function requireAuthz(request: FastifyRequest): Authz {
  if (!request.authz) throw appError('auth.unauthenticated');
  return request.authz;
}

/**
 * Refuses any successful answer of a signed-in route that made no authorization decision.
 * Error answers (400 before the handler ran, 401, 404…) carry no data, so they pass.
 */
export function registerAuthzCheck(app: FastifyInstance): void {
  app.decorateRequest('authz', null);
  app.decorateRequest('authzSkipped', null);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config?.access !== 'session') return payload;
    if (reply.statusCode >= 400) return payload;
    if (request.authz?.decided || request.authzSkipped) return payload;
    request.log.error(
      { route: request.routeOptions.url, method: request.method },
      'authz.missing: a signed-in route answered without an authorization decision',
    );
    reply.code(500).type('application/json; charset=utf-8');
    return JSON.stringify({ code: 'authz.missing', message: ERROR_CATALOGUE['authz.missing'].message });
  });
}
