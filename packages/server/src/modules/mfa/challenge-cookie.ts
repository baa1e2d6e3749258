import type { FastifyReply, FastifyRequest } from 'fastify';
import { MFA } from '@patchwell/core/auth/mfa.schema';
import type { Config } from '../../config';

/**
 * The cookie of a sign-in waiting for its second factor (challenge.service.ts). HTTP-only,
 * SameSite=Strict (only the console's own requests carry it), 5 minutes, `__Host-` over https
 * like the session cookie. It proves only "the password was right a moment ago".
 */
export function challengeCookieName(config: Pick<Config, 'isHttps'>): string {
  return config.isHttps ? '__Host-pw_mfa' : 'pw_mfa';
}

function cookieOptions(config: Pick<Config, 'isHttps'>) {
  return { path: '/', httpOnly: true, sameSite: 'strict', secure: config.isHttps } as const;
}

export function readChallengeToken(request: FastifyRequest, config: Pick<Config, 'isHttps'>): string | undefined {
  return request.cookies[challengeCookieName(config)] || undefined;
}

export function setChallengeCookie(reply: FastifyReply, config: Pick<Config, 'isHttps'>, token: string): void {
  reply.setCookie(challengeCookieName(config), token, { ...cookieOptions(config), maxAge: MFA.challengeMinutes * 60 });
}

export function clearChallengeCookie(reply: FastifyReply, config: Pick<Config, 'isHttps'>): void {
  reply.clearCookie(challengeCookieName(config), cookieOptions(config));
}
