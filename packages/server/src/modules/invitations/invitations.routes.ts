import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZAccountInvitationList } from '@patchwell/core/users/invitations.schema';
import {
  ZAcceptInvitationBody,
  ZAcceptInvitationResult,
  ZInvitation,
  ZInviteUserBody,
  ZInviteUserResult,
} from '@patchwell/core/users/users.schema';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { linkOrigin } from '../../http/link-origin';
import { setSessionCookie } from '../auth/cookie';
import {
  acceptInvitation,
  getInvitation,
  inviteUser,
  listInvitations,
  resendAccountInvitation,
  resendZoneInvitation,
  revokeAccountInvitation,
} from './invitations.service';
import { ZAccountParams, ZIdParam } from '../../http/params';

const tags = ['invitations'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const ZTokenParams = z.object({ token: z.string().min(1).max(128) });
const gone =
  "410 `invitations.expired` ('This invitation has expired or was already used.') once used, revoked or expired";

/** Inviting people into a zone, accepting an invitation, and the account's invitations. */
export async function invitationsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/inviteUser',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Invite someone into zone o with a role',
        description:
          'Needs Users.invite in zone `o`. Mails a single-use link to `/console/accept-invite?token=…` that ' +
          'expires in 7 days; a newer invitation of the same e-mail into the zone revokes older ones. A new ' +
          'e-mail becomes a `pending-invite` user of the zone; an existing user of the account gets the role on ' +
          "acceptance. 409 'This user already exists in this Zone' for a member, 'This email address is " +
          "already in use.' for a user of another account or a disabled user. Without a mail relay the e-mail " +
          'waits in the outbox (`mail: queued`); a global administrator of the account then gets the link ' +
          'to hand over in `accept_link`.',
        security,
        querystring: ZZoneQuery,
        body: ZInviteUserBody,
        response: {
          201: ZInviteUserResult,
          400: ZApiError,
          401: ZApiError,
          403: ZApiError,
          404: ZApiError,
          409: ZApiError,
        },
      },
    },
    async (request, reply) => {
      const result = await inviteUser(
        ctx,
        requireAuthz(request),
        request.query.o,
        request.body,
        linkOrigin(request, ctx.config),
      );
      return reply.code(201).send(result);
    },
  );

  // The token is in the path: these routes log warnings and errors only, so it never reaches the request log.
  app.get(
    '/api/invitations/:token',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'What an invitation link is for (public)',
        description: `The token is the proof. 404 for an unknown token; ${gone}.`,
        params: ZTokenParams,
        response: { 200: ZInvitation, 404: ZApiError, 410: ZApiError },
      },
    },
    async (request) => getInvitation(ctx, request.params.token),
  );

  app.post(
    '/api/invitations/:token/accept',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'Accept an invitation and sign in (public)',
        description:
          'A new user (`needs_password`) gives `firstname`, `lastname`, `password` and `password_confirmation` ' +
          'and becomes active; an existing user gets the zone role. Then the session cookie is set. Single use: ' +
          `of two concurrent acceptances one wins. 400 invalid fields; 404 unknown token; ${gone}.`,
        params: ZTokenParams,
        body: ZAcceptInvitationBody,
        response: { 200: ZAcceptInvitationResult, 400: ZApiError, 404: ZApiError, 410: ZApiError },
      },
    },
    async (request, reply) => {
      const { result, session } = await acceptInvitation(ctx, request.params.token, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      if (session) setSessionCookie(reply, ctx.config, session.token);
      return result;
    },
  );

  app.get(
    '/api/accounts/:accountId/invitations',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Invitations into the account’s zones, latest first',
        description: 'Global administrators of the account only (403 for its other users, 404 for another account).',
        security,
        params: ZAccountParams,
        response: { 200: ZAccountInvitationList, 401: ZApiError, 403: ZApiError, 404: ZApiError },
      },
    },
    async (request) => listInvitations(ctx, requireAuthz(request), request.params.accountId),
  );

  const resent =
    'A new single-use link (7 days) replaces the older ones; the answer says whether the e-mail went out ' +
    '(`mail`) and, when it waits in the outbox and the caller is a global administrator of the account, ' +
    'carries the link to hand over (`accept_link`). 409 `invitations.accepted` once accepted.';

  app.post(
    '/api/users/:userId/resend-invitation',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Send a pending member of zone o a new invitation link',
        description: `Needs Users.invite in zone \`o\`. ${resent}`,
        security,
        querystring: ZZoneQuery,
        params: z.object({ userId: ZIdParam }),
        response: {
          200: ZInviteUserResult,
          400: ZApiError,
          401: ZApiError,
          403: ZApiError,
          404: ZApiError,
          409: ZApiError,
        },
      },
    },
    async (request) =>
      resendZoneInvitation(
        ctx,
        requireAuthz(request),
        request.query.o,
        request.params.userId,
        linkOrigin(request, ctx.config),
      ),
  );

  app.post(
    '/api/accounts/:accountId/invitations/:id/resend',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Resend an invitation',
        description: `${resent} Global administrators of the account only (403 for its other users, 404 for another account).`,
        security,
        params: ZAccountParams.extend({ id: ZIdParam }),
        response: { 200: ZInviteUserResult, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError },
      },
    },
    async (request) =>
      resendAccountInvitation(
        ctx,
        requireAuthz(request),
        request.params.accountId,
        request.params.id,
        linkOrigin(request, ctx.config),
      ),
  );

  app.delete(
    '/api/accounts/:accountId/invitations/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Revoke an invitation',
        description:
          'Its link stops working at once. 409 `invitations.accepted` when already accepted. Global ' +
          'administrators of the account only (403 for its other users, 404 for another account).',
        security,
        params: ZAccountParams.extend({ id: ZIdParam }),
        response: { 204: z.void(), 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError },
      },
    },
    async (request, reply) => {
      await revokeAccountInvitation(ctx, requireAuthz(request), request.params.accountId, request.params.id);
      return reply.code(204).send();
    },
  );
}
