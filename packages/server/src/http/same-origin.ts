import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../domain/errors';

/**
 * True when a browser tells us the request comes from another site: `Sec-Fetch-Site:
 * cross-site`, or an `Origin` that is neither the public URL nor this request's own
 * scheme and host. Requests without these headers (scripts, curl) are not cross-site.
 */
export function isCrossSite(request: FastifyRequest, config: Pick<Config, 'publicUrl'>): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  const own = [`${request.protocol}://${request.host}`, config.publicUrl].map((o) => o?.toLowerCase());
  return !own.includes(origin.toLowerCase());
}

/** Refuses a cross-site request (403 `csrf`): SameSite=Lax still lets top-level GETs and some POSTs through. */
export function assertSameOrigin(request: FastifyRequest, config: Pick<Config, 'publicUrl'>): void {
  if (isCrossSite(request, config)) {
    throw new AppError('csrf');
  }
}
