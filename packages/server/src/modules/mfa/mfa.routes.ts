import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAccountMfa,
  ZRecoveryCodes,
  ZRequireBody,
  ZTfaCodeBody,
  ZTfaOptionalCodeBody,
  ZTfaSetup,
  ZTfaSetupBody,
  ZTfaStatus,
  ZZoneSecurity,
} from '@patchwell/core/auth/mfa.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/access';
import { requireAuthz } from '../../http/authz';
import { ZAccountParams, ZIdParams } from '../../http/params';
import {
  getAccountMfaRequirement,
  getZoneSecurity,
  resetUserTfa,
  setAccountMfaRequirement,
  setZoneMfaRequirement,
  setZoneSsoRequirement,
} from './admin.service';
import {
  confirmOwnTfa,
  disableOwnTfa,
  getOwnPendingSetup,
  getOwnTfa,
  regenerateOwnRecoveryCodes,
  sendOwnCode,
  setupOwnTfa,
} from './self.service';

const tags = ['mfa'];
const cookieAuth = [{ cookieAuth: [] }];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const SELF = 'The caller’s own second factor; a session only (an API key gets 401).';

/** The profile's MFA section (`/api/users/self/tfa…`), an administrator's reset, and the sign-in requirements. */
export async function mfaRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const common = { config: { access: 'session' as const } };
  // Reads the session's user first: an API key cannot change its owner's second factor.
  const self = (request: Parameters<typeof requireUser>[0]) => {
    requireUser(request);
    return requireAuthz(request);
  };

  app.get(
    '/api/users/self/tfa',
    {
      ...common,
      schema: {
        tags,
        summary: 'The caller’s second factor',
        description:
          'Type, recovery codes left, whether a requirement applies, whether turning it off needs a code (zone `o`’s flags).',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZTfaStatus, 401: ZApiError },
      },
    },
    async (request) => getOwnTfa(ctx, requireAuthz(request), request.query.o),
  );

  app.post(
    '/api/users/self/tfa/setup',
    {
      ...common,
      schema: {
        tags,
        summary: 'Start enrolling: an authenticator app (secret + QR code) or email codes',
        description: `${SELF} 409 \`mfa.already_enabled\` while MFA is on.`,
        security: cookieAuth,
        body: ZTfaSetupBody,
        response: { 200: ZTfaSetup, 400: ZApiError, 401: ZApiError, 409: ZApiError },
      },
    },
    async (request) => setupOwnTfa(ctx, self(request), request.body.type),
  );

  app.get(
    '/api/users/self/tfa/setup',
    {
      ...common,
      schema: {
        tags,
        summary: 'The pending app enrolment’s secret and QR code again',
        description: `${SELF} 409 \`mfa.no_setup\` when no app enrolment waits for its first code.`,
        security: cookieAuth,
        response: { 200: ZTfaSetup, 401: ZApiError, 409: ZApiError },
      },
    },
    async (request) => getOwnPendingSetup(ctx, self(request)),
  );

  app.post(
    '/api/users/self/tfa/confirm',
    {
      ...common,
      schema: {
        tags,
        summary: 'Confirm the enrolment with a first code; MFA is on and the 10 recovery codes are shown once',
        description: `${SELF} 401 \`mfa.invalid_code\`; 409 \`mfa.no_setup\`.`,
        security: cookieAuth,
        body: ZTfaCodeBody,
        response: { 200: ZRecoveryCodes, 400: ZApiError, 401: ZApiError, 409: ZApiError },
      },
    },
    async (request) => confirmOwnTfa(ctx, self(request), request.body.tfa_code),
  );

  app.post(
    '/api/users/self/tfa/send-code',
    {
      ...common,
      schema: {
        tags,
        summary: 'Mail a code (email type), to turn MFA off or regenerate recovery codes',
        description: `${SELF} 409 \`mfa.not_email_type\` for an app.`,
        security: cookieAuth,
        response: { 204: z.void(), 401: ZApiError, 409: ZApiError },
      },
    },
    async (request, reply) => {
      await sendOwnCode(ctx, self(request));
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/users/self/tfa/disable',
    {
      ...common,
      schema: {
        tags,
        summary: 'Turn the caller’s MFA off',
        description: `${SELF} With the flag \`require_code_to_disable_mfa\` on (zone \`o\`), a current code is needed: 403 \`mfa.code_required\`, 401 \`mfa.invalid_code\`.`,
        security: cookieAuth,
        querystring: ZZoneQuery,
        body: ZTfaOptionalCodeBody,
        response: { 204: z.void(), 400: ZApiError, 401: ZApiError, 403: ZApiError, 409: ZApiError },
      },
    },
    async (request, reply) => {
      await disableOwnTfa(ctx, self(request), request.body.tfa_code, request.query.o);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/users/self/tfa/recovery-codes',
    {
      ...common,
      schema: {
        tags,
        summary: 'New recovery codes (the earlier ones stop working), shown once',
        description: `${SELF} Needs a current code under the same flag as turning MFA off.`,
        security: cookieAuth,
        querystring: ZZoneQuery,
        body: ZTfaOptionalCodeBody,
        response: { 200: ZRecoveryCodes, 400: ZApiError, 401: ZApiError, 403: ZApiError, 409: ZApiError },
      },
    },
    async (request) => regenerateOwnRecoveryCodes(ctx, self(request), request.body.tfa_code, request.query.o),
  );

  app.post(
    '/api/users/:id/tfa/reset',
    {
      ...common,
      schema: {
        tags,
        summary: 'Reset a user’s MFA (an administrator)',
        description:
          'TFA.delete in zone `o`; the user is a member of the zone (or a global administrator of its account), else 404. ' +
          'Their factor and recovery codes are removed; they enrol again (at the next sign-in when required).',
        security,
        params: ZIdParams,
        querystring: ZZoneQuery,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await resetUserTfa(ctx, requireAuthz(request), request.query.o, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/orgs/:id/security',
    {
      ...common,
      schema: {
        tags,
        summary: 'The zone’s sign-in requirements (MFA, SSO)',
        description: 'TFA.read in the zone.',
        security,
        params: ZIdParams,
        response: { 200: ZZoneSecurity, ...errors },
      },
    },
    async (request) => getZoneSecurity(ctx, requireAuthz(request), request.params.id),
  );

  app.put(
    '/api/orgs/:id/require-mfa',
    {
      ...common,
      schema: {
        tags,
        summary: 'Require MFA of the zone’s users',
        description: 'TFA.modify in the zone. Users without MFA enrol right after their password at the next sign-in.',
        security,
        params: ZIdParams,
        body: ZRequireBody,
        response: { 200: ZZoneSecurity, ...errors },
      },
    },
    async (request) => setZoneMfaRequirement(ctx, requireAuthz(request), request.params.id, request.body.enabled),
  );

  app.put(
    '/api/orgs/:id/require-sso',
    {
      ...common,
      schema: {
        tags,
        summary: 'Require SSO (SAML) of the zone’s users',
        description:
          'Saml.manage in the zone; sets the zone’s `saml.enabled`. Turning it on needs a SAML connection on the ' +
          'account: 409 `mfa.sso_unavailable`.',
        security,
        params: ZIdParams,
        body: ZRequireBody,
        response: { 200: ZZoneSecurity, ...errors, 409: ZApiError },
      },
    },
    async (request) => setZoneSsoRequirement(ctx, requireAuthz(request), request.params.id, request.body.enabled),
  );

  app.get(
    '/api/accounts/:accountId/require-mfa',
    {
      ...common,
      schema: {
        tags,
        summary: 'Whether the account requires MFA of all its users',
        description: 'Global administrators (Account.read).',
        security,
        params: ZAccountParams,
        response: { 200: ZAccountMfa, ...errors },
      },
    },
    async (request) => getAccountMfaRequirement(ctx, requireAuthz(request), request.params.accountId),
  );

  app.put(
    '/api/accounts/:accountId/require-mfa',
    {
      ...common,
      schema: {
        tags,
        summary: 'Require MFA of every user of the account',
        description: 'Global administrators (Account.modify).',
        security,
        params: ZAccountParams,
        body: ZRequireBody,
        response: { 200: ZAccountMfa, ...errors },
      },
    },
    async (request) =>
      setAccountMfaRequirement(ctx, requireAuthz(request), request.params.accountId, request.body.enabled),
  );
}
