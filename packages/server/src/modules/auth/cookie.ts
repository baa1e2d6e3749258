import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';

/**
 * The session cookie. Over https it gets the `__Host-` prefix, which browsers accept only
 * with Secure, Path=/ and no Domain, so a sibling sub-domain cannot plant or shadow it.
 * No Max-Age: the browser forgets it on exit; the server bounds its life anyway.
 */
export function sessionCookieName(config: Pick<Config, 'isHttps'>): string {
  return config.isHttps ? '__Host-pw_session' : 'pw_session';
}

function cookieOptions(config: Pick<Config, 'isHttps'>) {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: config.isHttps } as const;
}

/** The raw session token from the request's cookie, if any. */
export function readSessionToken(request: FastifyRequest, config: Pick<Config, 'isHttps'>): string | undefined {
  const value = request.cookies[sessionCookieName(config)];
  return value ? value : undefined;
}

export function setSessionCookie(reply: FastifyReply, config: Pick<Config, 'isHttps'>, token: string): void {
  reply.setCookie(sessionCookieName(config), token, cookieOptions(config));
}

export function clearSessionCookie(reply: FastifyReply, config: Pick<Config, 'isHttps'>): void {
  reply.clearCookie(sessionCookieName(config), cookieOptions(config));
}
