import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZPref } from '@patchwell/core/auth/profile.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import {
  ZUnlockUserBody,
  ZUpdateSelfBody,
  ZUpdateZoneUserBody,
  ZZoneUser,
  ZZoneUserList,
} from '@patchwell/core/users/users.schema';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import { ZSetPrefsBody } from '@patchwell/core/zones/zones.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { accountUsersRoutes } from './account-users.routes';
import {
  getOwnPrefs,
  listZoneUsers,
  removeZoneUser,
  setOwnPrefs,
  unlockZoneUser,
  updateZoneUser,
} from './users.service';
import { ZIdParams } from '../../http/params';

const tags = ['users'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/**
 * The fields of both bodies `PUT /api/users/{id}` takes, each checked as its own schema
 * checks it; which body applies (and its cross-field rules) is decided by the service.
 */
const ZUpdateUserFields = z.object({ ...ZUpdateSelfBody.shape, ...ZUpdateZoneUserBody.shape });

/** The users of a zone (Settings › Users, Settings › Profile), and the account-scoped user management. */
export async function usersRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/users',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Users of zone o with their role there',
        description:
          'Needs Users.read in zone `o`. A global administrator is shown with the role name Global Administrator.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZZoneUserList, ...errors },
      },
    },
    async (request) => listZoneUsers(ctx, requireAuthz(request), request.query.o),
  );

  app.put(
    '/api/users/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Update yourself (names, e-mail, password) or another member of zone o (role, status)',
        description:
          'On yourself the body is `ZUpdateSelfBody`: `firstname`, `lastname` (under 32 characters), `email` ' +
          '(403 `users.email_saml` while zone `o` uses SAML; 409 when in use), `password` (current), `password1` ' +
          '(new), `password2` (repeat); a new password ends your other sessions. On another member of zone `o` ' +
          '(Users.modify) it is `ZUpdateZoneUserBody`: `role_id` and/or `status` (`active`, `disabled`; ' +
          'disabling ends their sessions). A global administrator’s role and status change only in global user ' +
          'management (403 `users.global_admin`). A user who is not a member of zone `o` is 404.',
        security,
        params: ZIdParams,
        querystring: ZZoneQuery,
        body: ZUpdateUserFields,
        response: { 200: ZZoneUser, ...errors, 409: ZApiError, 429: ZApiError },
      },
    },
    async (request) =>
      updateZoneUser(ctx, requireAuthz(request), {
        zoneId: request.query.o,
        userId: request.params.id,
        body: request.body,
        sessionId: request.user?.session.id,
      }),
  );

  app.delete(
    '/api/users/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Remove a user from zone o',
        description:
          'Needs Users.delete in zone `o`. Their open invitations into the zone are revoked; a user left without ' +
          'any zone (and without global access) is signed out.',
        security,
        params: ZIdParams,
        querystring: ZZoneQuery,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await removeZoneUser(ctx, requireAuthz(request), request.query.o, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/users/self/prefs',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Your preferences',
        security,
        querystring: ZZoneQuery,
        response: { 200: z.array(ZPref), 401: ZApiError },
      },
    },
    async (request) => getOwnPrefs(ctx, requireAuthz(request)),
  );

  app.post(
    '/api/users/self/prefs',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Set some of your preferences',
        description: 'Creates or overwrites each preference given; answers all of them.',
        security,
        querystring: ZZoneQuery,
        body: ZSetPrefsBody,
        response: { 200: z.array(ZPref), 400: ZApiError, 401: ZApiError },
      },
    },
    async (request) => setOwnPrefs(ctx, requireAuthz(request), request.body),
  );

  app.post(
    '/api/users/unlockaccount',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Unlock a member of zone o locked after failed sign-ins',
        description: 'Needs Users.modify in zone `o`. Clears the lock and the failed sign-in counts.',
        security,
        querystring: ZZoneQuery,
        body: ZUnlockUserBody,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await unlockZoneUser(ctx, requireAuthz(request), request.query.o, request.body);
      return reply.code(204).send();
    },
  );

  await accountUsersRoutes(app, ctx);
}
