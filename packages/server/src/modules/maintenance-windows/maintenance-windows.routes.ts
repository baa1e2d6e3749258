import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import {
  ZMaintenanceWindow,
  ZMaintenanceWindowBody,
  ZMaintenanceWindowList,
  ZMaintenanceWindowListQuery,
  ZMaintenanceWindowParams,
} from '@patchwell/core/maintenance/maintenance-windows.schema';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { createWindow, getWindow, listWindows, removeWindow, updateWindow } from './maintenance-windows.service';

const tags = ['maintenance-windows'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const RULE =
  'A device starts policy runs and remediation tasks only inside one of its group’s windows (any time when ' +
  'the group has none); work due outside waits for the next window.';

/** Maintenance windows of the zone `o`'s device groups (`/api/maintenance-windows…`). */
export async function maintenanceWindowsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const common = { config: { access: 'session' as const } };

  app.get(
    '/api/maintenance-windows',
    {
      ...common,
      schema: {
        tags,
        summary: 'The zone’s maintenance windows',
        description: `ServerGroup.read. \`server_group_id\` keeps one group’s. ${RULE}`,
        security,
        querystring: ZMaintenanceWindowListQuery,
        response: { 200: ZMaintenanceWindowList, ...errors },
      },
    },
    async (request) => listWindows(ctx, requireAuthz(request), request.query),
  );

  app.post(
    '/api/maintenance-windows',
    {
      ...common,
      schema: {
        tags,
        summary: 'Create a maintenance window for a device group',
        description:
          'ServerGroup.create. One-off (local start and end) or recurring (days of the week or a day of the ' +
          'month, a start time and a duration of at most 7 days) in an IANA timezone. ' +
          '409 `maintenance_windows.too_many` past 200 windows in the zone.',
        security,
        querystring: ZZoneQuery,
        body: ZMaintenanceWindowBody,
        response: { 201: ZMaintenanceWindow, ...errors, 409: ZApiError },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createWindow(ctx, requireAuthz(request), request.query.o, request.body)),
  );

  app.get(
    '/api/maintenance-windows/:windowId',
    {
      ...common,
      schema: {
        tags,
        summary: 'One maintenance window',
        description: 'ServerGroup.read. Another zone’s window: 404.',
        security,
        params: ZMaintenanceWindowParams,
        querystring: ZZoneQuery,
        response: { 200: ZMaintenanceWindow, ...errors },
      },
    },
    async (request) => getWindow(ctx, requireAuthz(request), request.query.o, request.params.windowId),
  );

  app.put(
    '/api/maintenance-windows/:windowId',
    {
      ...common,
      schema: {
        tags,
        summary: 'Change a maintenance window',
        description: 'ServerGroup.modify. The whole window, as created. Another zone’s window: 404.',
        security,
        params: ZMaintenanceWindowParams,
        querystring: ZZoneQuery,
        body: ZMaintenanceWindowBody,
        response: { 200: ZMaintenanceWindow, ...errors },
      },
    },
    async (request) => updateWindow(ctx, requireAuthz(request), request.query.o, request.params.windowId, request.body),
  );

  app.delete(
    '/api/maintenance-windows/:windowId',
    {
      ...common,
      schema: {
        tags,
        summary: 'Delete a maintenance window',
        description: 'ServerGroup.delete. Another zone’s window: 404.',
        security,
        params: ZMaintenanceWindowParams,
        querystring: ZZoneQuery,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await removeWindow(ctx, requireAuthz(request), request.query.o, request.params.windowId);
      return reply.code(204).send();
    },
  );
}
