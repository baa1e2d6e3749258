import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import {
  ZAccountUser,
  ZAccountUserList,
  ZCreateAccountUserBody,
  ZUpdateAccountUserBody,
} from '@patchwell/core/users/users.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { linkOrigin } from '../../http/link-origin';
import {
  createUserOfAccount,
  deleteUserOfAccount,
  getUserOfAccount,
  listUsersOfAccount,
  updateUserOfAccount,
} from './account-users.service';
import { ZAccountParams, ZIdParam } from '../../http/params';

const tags = ['users'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const ZAccountUserParams = ZAccountParams.extend({ userId: ZIdParam });
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const who = 'Global administrators of the account only (403 for its other users, 404 for another account).';

/** Global user management: the users of an account and their zones. */
export async function accountUsersRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/:accountId/users',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Users of the account with their zones and roles',
        description: who,
        security,
        params: ZAccountParams,
        response: { 200: ZAccountUserList, ...errors },
      },
    },
    async (request) => listUsersOfAccount(ctx, requireAuthz(request), request.params.accountId),
  );

  app.post(
    '/api/accounts/:accountId/users',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Create a user of the account and send the invitation',
        description:
          'The user is `pending-invite` and holds the given zone roles at once; the e-mailed link (single use, ' +
          '7 days) lets them choose a password. A user without global access needs at least one zone. 409 ' +
          `'This email address is already in use.'. ${who}`,
        security,
        params: ZAccountParams,
        body: ZCreateAccountUserBody,
        response: { 201: ZAccountUser, ...errors, 409: ZApiError },
      },
    },
    async (request, reply) => {
      const user = await createUserOfAccount(
        ctx,
        requireAuthz(request),
        request.params.accountId,
        request.body,
        linkOrigin(request, ctx.config),
      );
      return reply.code(201).send(user);
    },
  );

  app.get(
    '/api/accounts/:accountId/users/:userId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One user of the account',
        description: who,
        security,
        params: ZAccountUserParams,
        response: { 200: ZAccountUser, ...errors },
      },
    },
    async (request) => getUserOfAccount(ctx, requireAuthz(request), request.params.accountId, request.params.userId),
  );

  app.put(
    '/api/accounts/:accountId/users/:userId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Change a user of the account: names, account role, status, zones',
        description:
          '`zones` is the full list of zone/role pairs: zones left out are removed (with open invitations into ' +
          'them). Disabling, or leaving a user without zones and global access, ends their sessions. You cannot ' +
          `remove your own global access or disable yourself. ${who}`,
        security,
        params: ZAccountUserParams,
        body: ZUpdateAccountUserBody,
        response: { 200: ZAccountUser, ...errors },
      },
    },
    async (request) =>
      updateUserOfAccount(ctx, requireAuthz(request), request.params.accountId, request.params.userId, request.body),
  );

  app.delete(
    '/api/accounts/:accountId/users/:userId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Delete a user of the account entirely',
        description: `Ends their sessions; their roles, invitations, API keys and preferences go too. ${who}`,
        security,
        params: ZAccountUserParams,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteUserOfAccount(ctx, requireAuthz(request), request.params.accountId, request.params.userId);
      return reply.code(204).send();
    },
  );
}
