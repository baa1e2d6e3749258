import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZPasswordResetBody,
  ZPasswordResetDone,
  ZPasswordResetPost,
  ZPasswordResetRequest,
  ZPasswordResetRequested,
  ZPasswordResetTokenQuery,
  ZPasswordResetTokenState,
  ZResendVerificationBody,
  ZVerifyEmailBody,
  ZVerifyEmailResult,
} from '@patchwell/core/auth/password-reset.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../../context';
import { skipAuthorization } from '../../http/authz';
import { linkOrigin } from '../../http/link-origin';
import { checkPasswordResetToken, requestPasswordReset, resetPassword } from './password-reset.service';
import { resendVerification, verifyEmail } from './verification.service';

const tags = ['auth'];
const publicRoute = 'skipauth: public; the mailed token (or nothing at all) is the proof';

/**
 * Password reset and e-mail verification: public routes whose proof is a single-use token
 * mailed to the address. Tokens travel in bodies and queries, so these log warnings only.
 */
export async function passwordResetRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/passwordReset',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Whether a mailed password reset link still works (public)',
        description:
          "200 with the account's e-mail, or 410 `auth.reset_link_expired` (expired, used, superseded, unknown).",
        querystring: ZPasswordResetTokenQuery,
        response: { 200: ZPasswordResetTokenState, 400: ZApiError, 410: ZApiError },
      },
    },
    async (request) => {
      skipAuthorization(request, publicRoute);
      return checkPasswordResetToken(ctx, request.query.token);
    },
  );

  app.post(
    '/api/passwordReset',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Ask for a password reset link, or set a new password with one (public)',
        description:
          'With `{email}`: mails a single-use link to `/console/password-reset?token=…`, valid one hour (a newer one ' +
          'supersedes it), and answers the same 200 whether or not the address has an account. 429 ' +
          '`auth.rate_limited` after 10 requests from one client address or 3 for one e-mail within an hour. ' +
          'With `{token, password, password_confirmation}`: sets the password (the sign-up rules), spends the link, ' +
          'lifts any sign-in lock, ends every session of the user (`sessions_ended`) and mails a notice. 400 for ' +
          'an invalid password, 410 `auth.reset_link_expired`.',
        body: ZPasswordResetPost,
        response: {
          200: z.union([ZPasswordResetDone, ZPasswordResetRequested]),
          400: ZApiError,
          410: ZApiError,
          429: ZApiError,
        },
      },
    },
    async (request) => {
      skipAuthorization(request, publicRoute);
      const body = request.body;
      if ('token' in body) return resetPassword(ctx, ZPasswordResetBody.parse(body), request.ip);
      const { email } = ZPasswordResetRequest.parse(body);
      return requestPasswordReset(ctx, email, { ip: request.ip, linkOrigin: linkOrigin(request, ctx.config) });
    },
  );

  app.post(
    '/api/users/verify-email',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags,
        summary: "Verify a sign-up's e-mail address with the mailed link (public)",
        description:
          'The token of the link mailed at sign-up (valid 72 hours, single use). After it the user can sign in. ' +
          '410 `auth.verification_link_expired` otherwise.',
        body: ZVerifyEmailBody,
        response: { 200: ZVerifyEmailResult, 400: ZApiError, 410: ZApiError },
      },
    },
    async (request) => {
      skipAuthorization(request, publicRoute);
      return verifyEmail(ctx, request.body.token, request.ip);
    },
  );

  app.post(
    '/api/users/verification-email',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Mail a sign-up a new verification link (public)',
        description:
          'Supersedes the earlier link. The same 200 whatever the address; 429 `auth.rate_limited` as for ' +
          'password reset links (the two share their limits).',
        body: ZResendVerificationBody,
        response: { 200: ZPasswordResetRequested, 400: ZApiError, 429: ZApiError },
      },
    },
    async (request) => {
      skipAuthorization(request, publicRoute);
      return resendVerification(ctx, request.body.email, {
        ip: request.ip,
        linkOrigin: linkOrigin(request, ctx.config),
      });
    },
  );
}
