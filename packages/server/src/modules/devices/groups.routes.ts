import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZDeviceBatchResult } from '@patchwell/core/devices/devices.schema';
import {
  ZCreateServerGroupBody,
  ZMoveDevicesBody,
  ZServerGroup,
  ZServerGroupIdParams,
  ZServerGroupList,
  ZUpdateServerGroupBody,
} from '@patchwell/core/devices/groups.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AgentRuntime } from '../../agent-api/agent-runtime';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { createGroup, getGroup, listGroups, moveDevices, removeGroup, updateGroup } from './groups.service';

const tags = ['groups'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** Device groups (`/api/servergroups…`). */
export async function groupsRoutes(root: FastifyInstance, ctx: AppContext, agents: AgentRuntime): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const gctx = { ...ctx, agents };

  app.get(
    '/api/servergroups',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s groups',
        description: 'ServerGroup.read. The default group first; each with its device count.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZServerGroupList, ...errors },
      },
    },
    async (request) => listGroups(gctx, requireAuthz(request), request.query.o),
  );

  app.post(
    '/api/servergroups',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Create a group',
        description: 'ServerGroup.create. Names are unique in the zone (409).',
        security,
        querystring: ZZoneQuery,
        body: ZCreateServerGroupBody,
        response: { 201: ZServerGroup, ...errors, 409: ZApiError },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createGroup(gctx, requireAuthz(request), request.query.o, request.body)),
  );

  app.get(
    '/api/servergroups/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One group',
        description: 'ServerGroup.read. Another zone’s group answers 404.',
        security,
        querystring: ZZoneQuery,
        params: ZServerGroupIdParams,
        response: { 200: ZServerGroup, ...errors },
      },
    },
    async (request) => getGroup(gctx, requireAuthz(request), request.query.o, request.params.id),
  );

  app.put(
    '/api/servergroups/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Update a group',
        description:
          'ServerGroup.modify. `organization_id` must equal `o`; a new check-in interval applies to its devices.',
        security,
        querystring: ZZoneQuery,
        params: ZServerGroupIdParams,
        body: ZUpdateServerGroupBody,
        response: { 200: ZServerGroup, ...errors, 409: ZApiError },
      },
    },
    async (request) => updateGroup(gctx, requireAuthz(request), request.query.o, request.params.id, request.body),
  );

  app.delete(
    '/api/servergroups/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Delete a group',
        description:
          'ServerGroup.delete. Its devices move to the default group; the default group cannot be deleted (409).',
        security,
        querystring: ZZoneQuery,
        params: ZServerGroupIdParams,
        response: { 204: z.void(), ...errors, 409: ZApiError },
      },
    },
    async (request, reply) => {
      await removeGroup(gctx, requireAuthz(request), request.query.o, request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/servergroups/:id/servers',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Move devices into a group',
        description: 'ServerGroup.modify and Endpoint.manage. Ids of other zones are ignored.',
        security,
        querystring: ZZoneQuery,
        params: ZServerGroupIdParams,
        body: ZMoveDevicesBody,
        response: { 200: ZDeviceBatchResult, ...errors },
      },
    },
    async (request) => moveDevices(gctx, requireAuthz(request), request.query.o, request.params.id, request.body),
  );
}
