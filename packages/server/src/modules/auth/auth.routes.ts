import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIsAuthenticated, ZProfile } from '@patchwell/core/auth/profile.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZUnlockAccountBody, ZUnlockAccountResult } from '@patchwell/core/auth/unlock.schema';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { skipAuthorization } from '../../http/authz';
import { AppError } from '../../domain/errors';
import { assertSameOrigin } from '../../http/same-origin';
import { linkOrigin } from '../../http/link-origin';
import { clearSessionCookie, readSessionToken, setSessionCookie } from './cookie';
import { getProfile } from './profile.service';
import { signOut } from './sessions.service';
import { parseBasicAuth, signIn } from './signin.service';
import { unlockWithToken } from './unlock.service';
import { setChallengeCookie } from '../mfa/challenge-cookie';

const tags = ['auth'];
const cookieAuth = [{ cookieAuth: [] }];

/** Sign-in, profile, session check and logout. */
export async function authRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/users/is-authenticated',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Whether the session cookie is valid',
        description:
          'Answers `true`, or 401 (`auth.unauthenticated` without a cookie, `auth.session_expired` otherwise).',
        security: cookieAuth,
        response: { 200: ZIsAuthenticated, 401: ZApiError },
      },
    },
    async (request) => {
      skipAuthorization(request, 'skipauth: answers only whether the caller is signed in');
      return true as const;
    },
  );

  app.get(
    '/api/users/self',
    {
      config: { access: 'session', basicSignIn: true },
      schema: {
        tags,
        summary: 'The signed-in user’s profile; with Basic credentials, sign in first',
        description:
          'With the session cookie, returns the profile for zone `o`. With `Authorization: Basic base64(email:password)` ' +
          'it signs in: checks the credentials, starts a new session (Set-Cookie) and returns the profile. ' +
          'Failures: 401 `auth.invalid_credentials`, 403 `auth.locked`, 429 `auth.rate_limited` (with Retry-After). ' +
          'A right password of a user with MFA answers 401 `auth.mfa_required` (or `auth.mfa_enrolment_required` when a ' +
          'requirement asks them to enrol) with a 5-minute challenge cookie for `GET /api/user/gettfa` and `POST /api/verifyTfa`. ' +
          'Five failures in a row lock the user for 15 minutes, doubled per further lock up to 24 hours, and mail ' +
          'them a single-use link to `/console/unlock?token=…` that lifts the lock (`POST /api/users/unlock`).',
        security: [{ cookieAuth: [] }, { basicAuth: [] }],
        querystring: ZZoneQuery,
        response: { 200: ZProfile, 401: ZApiError, 403: ZApiError, 429: ZApiError },
      },
    },
    async (request, reply) => {
      skipAuthorization(request, 'skipauth: the caller’s own profile, which lists only the zones they may enter');
      if (!request.user) {
        // Basic credentials (the access hook let the request through without a session).
        const credentials = parseBasicAuth(request.headers.authorization);
        if (!credentials) {
          throw new AppError('auth.invalid_credentials');
        }
        const result = await signIn(ctx, credentials, {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          previousToken: readSessionToken(request, ctx.config),
          linkOrigin: linkOrigin(request, ctx.config),
        });
        if (result.kind === 'second_factor') {
          // No session yet: the cookie carries the pending challenge to the code step.
          setChallengeCookie(reply, ctx.config, result.challengeToken);
          throw new AppError(result.purpose === 'verify' ? 'auth.mfa_required' : 'auth.mfa_enrolment_required');
        }
        const { user, token } = result;
        setSessionCookie(reply, ctx.config, token);
        request.log.info({ userId: user.id }, 'signed in');
        request.user = user;
      }
      return getProfile(ctx, request.user, request.user.session, request.query.o);
    },
  );

  // The token is in the body, and this route logs warnings and errors only.
  app.post(
    '/api/users/unlock',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Lift a sign-in lock with the link mailed to the locked user (public)',
        description:
          'The token of the mailed link is the proof; it works once, until the lock would end. ' +
          "410 `auth.unlock_expired` ('This unlock link has expired or was already used.') otherwise.",
        body: ZUnlockAccountBody,
        response: { 200: ZUnlockAccountResult, 400: ZApiError, 410: ZApiError },
      },
    },
    async (request) => unlockWithToken(ctx, request.body.token, request.ip),
  );

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    // A GET that ends a session is state-changing: refuse it from other sites too.
    assertSameOrigin(request, ctx.config);
    const token = readSessionToken(request, ctx.config);
    if (token) await signOut(ctx, token, request.ip);
    clearSessionCookie(reply, ctx.config);
    return reply.code(204).send();
  };
  const logoutSchema = {
    tags,
    summary: 'Sign out: ends the session and clears the cookie',
    description: 'Always 204, signed in or not. 403 `csrf` when the request comes from another site.',
    response: { 204: z.void(), 403: ZApiError },
  };
  app.get('/api/logout', { config: { access: 'public' }, schema: logoutSchema }, logout);
  app.post('/api/logout', { config: { access: 'public' }, schema: logoutSchema }, logout);
}
