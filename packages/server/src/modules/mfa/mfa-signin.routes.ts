import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZGetTfa,
  ZGetTfaQuery,
  ZTfaCodeBody,
  ZTfaSetup,
  ZTfaSetupBody,
  ZTfaSignedIn,
} from '@patchwell/core/auth/mfa.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../../context';
import { linkOrigin } from '../../http/link-origin';
import { readSessionToken, setSessionCookie } from '../auth/cookie';
import { clearChallengeCookie, readChallengeToken } from './challenge-cookie';
import { confirmSignInEnrolment, getTfa, startSignInEnrolment, verifyTfa } from './challenge.service';

const tags = ['auth'];
const challengeAuth = [{ mfaChallengeCookie: [] }];
const STEP =
  'Public, but only with the challenge cookie that a right password set (`GET /api/users/self` with Basic ' +
  'credentials answered 401 `auth.mfa_required` or `auth.mfa_enrolment_required`); it lasts 5 minutes. ' +
  'Without it: 401 `mfa.no_challenge`.';

/** The sign-in's second step: which factor, the code, and the enrolment a requirement asks for. */
export async function mfaSignInRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const clientOf = (request: FastifyRequest) => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    previousToken: readSessionToken(request, ctx.config),
    linkOrigin: linkOrigin(request, ctx.config),
  });

  app.get(
    '/api/user/gettfa',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Which second factor the sign-in asks for (mails the code for the email type)',
        description: `${STEP} \`email\` must be the address signing in. For the email type a code is mailed (at most 5 in 15 minutes: 429 \`auth.rate_limited\`).`,
        security: challengeAuth,
        querystring: ZGetTfaQuery,
        response: { 200: ZGetTfa, 400: ZApiError, 401: ZApiError, 429: ZApiError },
      },
    },
    async (request) => getTfa(ctx, readChallengeToken(request, ctx.config), request.query.email),
  );

  app.post(
    '/api/verifyTfa',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Finish signing in with a code: the authenticator app’s, an e-mailed one, or a recovery code',
        description:
          `${STEP} The app's code is accepted one 30-second step either side, each step once; e-mailed and recovery ` +
          'codes work once. A right code starts the session (Set-Cookie) as a password sign-in does. Wrong: 401 ' +
          '`mfa.invalid_code`; the 10th wrong code in a row locks the user (403 `auth.locked`) and mails the unlock link.',
        security: challengeAuth,
        body: ZTfaCodeBody,
        response: { 200: ZTfaSignedIn, 400: ZApiError, 401: ZApiError, 403: ZApiError, 429: ZApiError },
      },
    },
    async (request, reply) => {
      const { token, user } = await verifyTfa(
        ctx,
        readChallengeToken(request, ctx.config),
        request.body.tfa_code,
        clientOf(request),
      );
      clearChallengeCookie(reply, ctx.config);
      setSessionCookie(reply, ctx.config, token);
      request.log.info({ userId: user.id }, 'signed in with a second factor');
      return { signed_in: true as const };
    },
  );

  app.post(
    '/api/user/tfa/setup',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Start the enrolment a requirement asks for during sign-in',
        description:
          `${STEP} Only for \`auth.mfa_enrolment_required\`. As \`POST /api/users/self/tfa/setup\`: an app gets ` +
          'its secret and QR code; email gets a code mailed.',
        security: challengeAuth,
        body: ZTfaSetupBody,
        response: { 200: ZTfaSetup, 400: ZApiError, 401: ZApiError, 403: ZApiError, 409: ZApiError },
      },
    },
    async (request) => startSignInEnrolment(ctx, readChallengeToken(request, ctx.config), request.body.type),
  );

  app.post(
    '/api/user/tfa/confirm',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Confirm the sign-in enrolment with a first code; signs in and shows the recovery codes once',
        description: `${STEP} Only for \`auth.mfa_enrolment_required\`. Wrong code: 401 \`mfa.invalid_code\`.`,
        security: challengeAuth,
        body: ZTfaCodeBody,
        response: { 200: ZTfaSignedIn, 400: ZApiError, 401: ZApiError, 403: ZApiError, 409: ZApiError },
      },
    },
    async (request, reply) => {
      const result = await confirmSignInEnrolment(
        ctx,
        readChallengeToken(request, ctx.config),
        request.body.tfa_code,
        clientOf(request),
      );
      clearChallengeCookie(reply, ctx.config);
      setSessionCookie(reply, ctx.config, result.token);
      return { signed_in: true as const, recovery_codes: result.recoveryCodes };
    },
  );
}
