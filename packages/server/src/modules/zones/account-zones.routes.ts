import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZSessionSettings } from '@patchwell/core/shell/session-settings.schema';
import { ZZoneUserList } from '@patchwell/core/users/users.schema';
import { ZCreateAccountZoneBody, ZUpdateZoneBody, ZZone, ZZoneList } from '@patchwell/core/zones/zones.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { getAccountSessionSettings, setAccountSessionSettings } from './zone-settings.service';
import {
  createAccountZone,
  getAccountZone,
  listAccountZones,
  listAccountZoneUsers,
  updateAccountZone,
} from './zones.service';
import { ZAccountParams, ZIdParam } from '../../http/params';

const tags = ['zones'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const ZAccountZoneParams = ZAccountParams.extend({ zoneId: ZIdParam });
const accountOnly =
  'Global administrators of the account only: another account answers 404, other users of the account 403.';

/** Global setup: the account's zones and session settings (`/api/accounts/{accountId}/…`). */
export async function accountZonesRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/:accountId/zones',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Every zone of the account',
        description: accountOnly,
        security,
        params: ZAccountParams,
        response: { 200: ZZoneList, ...errors },
      },
    },
    async (request) => listAccountZones(ctx, requireAuthz(request), request.params.accountId),
  );

  app.post(
    '/api/accounts/:accountId/zones',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Create a zone in the account',
        description: `${accountOnly} The parent is \`parent_id\` (or its own parent) or the account’s top-level organisation; the tier rule and unique names apply as for \`POST /api/orgs\`.`,
        security,
        params: ZAccountParams,
        body: ZCreateAccountZoneBody,
        response: { 201: ZZone, ...errors, 409: ZApiError },
      },
    },
    async (request, reply) => {
      const zone = await createAccountZone(ctx, requireAuthz(request), request.params.accountId, request.body);
      return reply.code(201).send(zone);
    },
  );

  app.get(
    '/api/accounts/:accountId/zones/:zoneId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One zone of the account',
        description: accountOnly,
        security,
        params: ZAccountZoneParams,
        response: { 200: ZZone, ...errors },
      },
    },
    async (request) => getAccountZone(ctx, requireAuthz(request), request.params.accountId, request.params.zoneId),
  );

  app.put(
    '/api/accounts/:accountId/zones/:zoneId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Rename a zone of the account',
        description: accountOnly,
        security,
        params: ZAccountZoneParams,
        body: ZUpdateZoneBody,
        response: { 200: ZZone, ...errors, 409: ZApiError },
      },
    },
    async (request) =>
      updateAccountZone(ctx, requireAuthz(request), request.params.accountId, request.params.zoneId, request.body),
  );

  app.get(
    '/api/accounts/:accountId/zones/:zoneId/users',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Users holding a role in a zone of the account',
        description: accountOnly,
        security,
        params: ZAccountZoneParams,
        response: { 200: ZZoneUserList, ...errors },
      },
    },
    async (request) =>
      listAccountZoneUsers(ctx, requireAuthz(request), request.params.accountId, request.params.zoneId),
  );

  app.get(
    '/api/accounts/:accountId/session-settings',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Session bounds across the account',
        description: `${accountOnly} The strictest bounds among the account’s zones.`,
        security,
        params: ZAccountParams,
        response: { 200: ZSessionSettings, ...errors },
      },
    },
    async (request) => getAccountSessionSettings(ctx, requireAuthz(request), request.params.accountId),
  );

  app.put(
    '/api/accounts/:accountId/session-settings',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Set the session bounds of every zone of the account',
        description: `${accountOnly} Live sessions get the new bounds at once.`,
        security,
        params: ZAccountParams,
        body: ZSessionSettings,
        response: { 200: ZSessionSettings, ...errors },
      },
    },
    async (request) => setAccountSessionSettings(ctx, requireAuthz(request), request.params.accountId, request.body),
  );
}
