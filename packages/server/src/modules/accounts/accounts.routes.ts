import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZSignUpBody, ZSignUpResult } from '@patchwell/core/auth/signup.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../../context';
import { linkOrigin } from '../../http/link-origin';
import { RATE_LIMITS } from '../auth/rate-limits.service';
import { signUp } from './accounts.service';

/** Self-service sign-up; registered only when PATCHWELL_SIGNUP is on (otherwise the path is a 404). */
export async function accountsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  if (!ctx.config.signupEnabled) return;
  const app = root.withTypeProvider<ZodTypeProvider>();
  const signUpLimit = RATE_LIMITS.signUpPerAddress;

  app.post(
    '/api/signup',
    {
      config: { access: 'public' },
      schema: {
        tags: ['accounts'],
        summary: 'Create an account; its user signs in after verifying the e-mail address',
        description:
          'Creates the account (named after the company), its first zone on a 15-day Complete trial and the ' +
          'user as its global administrator, and mails a single-use verification link to `/console/verify-email?token=…` ' +
          '(valid 72 hours; `POST /api/users/verify-email`). No session: the user signs in after following it, and ' +
          '`redirect` is `/login?err=verification_email_sent`. 400 lists every invalid field ' +
          '(including a too-common password); 409 `auth.email_taken` when the e-mail already has an account; ' +
          `429 \`auth.rate_limited\` (with Retry-After) after ${signUpLimit.limit} attempts from one address ` +
          `within ${signUpLimit.windowMinutes} minutes.`,
        body: ZSignUpBody,
        response: { 201: ZSignUpResult, 400: ZApiError, 409: ZApiError, 429: ZApiError },
      },
    },
    async (request, reply) => {
      const result = await signUp(ctx, request.body, { ip: request.ip, linkOrigin: linkOrigin(request, ctx.config) });
      return reply.code(201).send(result);
    },
  );
}
