import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  ZAgentInfo,
  ZDashboard,
  ZDeviceBatchBody,
  ZDeviceBatchResult,
  ZDeviceCommand,
  ZDeviceCommandList,
  ZDeviceCommandsQuery,
  ZDeviceDetail,
  ZDeviceIdParams,
  ZDeviceList,
  ZDevicePackageList,
  ZDevicePackagesQuery,
  ZListDevicesQuery,
  ZQueueCommandBody,
  ZUpdateDeviceBody,
} from '@patchwell/core/devices/devices.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AgentRuntime } from '../../agent-api/agent-runtime';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { sendIdempotent } from '../../http/idempotent-reply';
import { IDEMPOTENCY_DOC, idempotent } from '../idempotency/idempotency.service';
import { requireZone } from '../zones/zone-access.service';
import {
  batchDevices,
  exportDevices,
  getAgentInfo,
  getDashboard,
  getDevice,
  listDeviceCommands,
  listDevicePackages,
  listDevicesJson,
  queueCommand,
  removeDevice,
  requireBatchPermission,
  updateDevice,
} from './devices.service';

const tags = ['devices'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** Devices (`/api/servers…`), the add-devices info and the dashboard. */
export async function devicesRoutes(root: FastifyInstance, ctx: AppContext, agents: AgentRuntime): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const dctx = { ...ctx, agents };

  app.get(
    '/api/servers',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'List devices',
        description:
          'Endpoint.read. Zero-based `page`, `limit` 1–700, `sort=field:asc|desc`, filters by group, OS family, ' +
          'online/offline, needs-reboot, compliance, tag, and `search` (name, host name or IP).',
        security,
        querystring: ZListDevicesQuery,
        response: { 200: ZDeviceList, ...errors },
      },
    },
    // The body is the JSON the database wrote (listDevicesJson): a string with a JSON type is sent
    // as it is, not through the response schema's serializer, which stays for the OpenAPI
    // document; the devices tests hold the rows to ZDevice and to toDevice.
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send((await listDevicesJson(dctx, requireAuthz(request), request.query)) as never),
  );

  app.get(
    '/api/servers/export.csv',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Export the filtered device list as CSV',
        description: "Endpoint.read; the list’s filters and sort. Streamed; formula-like cells are prefixed with `'`.",
        security,
        querystring: ZListDevicesQuery,
        response: { 200: z.any(), ...errors },
      },
    },
    async (request, reply) => {
      const csv = await exportDevices(dctx, requireAuthz(request), request.query);
      // A byte stream pulls the next page only when the reply has taken the last one (backpressure).
      const body = Readable.from(csv, { objectMode: false });
      body.on('error', (err) => request.log.error({ err }, 'device export failed'));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="devices.csv"')
        .send(body);
    },
  );

  app.post(
    '/api/servers/batch',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Act on up to 500 devices',
        description:
          'tag, untag, group, scan, reboot (Endpoint.manage) or remove (Endpoint.delete). Ids of other zones are ignored.' +
          IDEMPOTENCY_DOC,
        security,
        querystring: ZZoneQuery,
        body: ZDeviceBatchBody,
        response: { 200: ZDeviceBatchResult, ...errors, 409: ZApiError, 422: ZApiError },
      },
    },
    async (request, reply) => {
      const authz = requireAuthz(request);
      const { o } = request.query;
      const answer = await idempotent(
        ctx,
        request,
        { userId: authz.userId, zoneId: o },
        async () => ({ status: 200, body: await batchDevices(dctx, authz, o, request.body) }),
        () => requireBatchPermission(dctx, authz, o, request.body.action),
      );
      return sendIdempotent(reply, answer);
    },
  );

  app.get(
    '/api/servers/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One device with its details',
        description: 'Endpoint.read. Another zone’s device answers 404.',
        security,
        querystring: ZZoneQuery,
        params: ZDeviceIdParams,
        response: { 200: ZDeviceDetail, ...errors },
      },
    },
    async (request) => getDevice(dctx, requireAuthz(request), request.query.o, request.params.id),
  );

  app.put(
    '/api/servers/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Update a device',
        description: 'Endpoint.manage: custom name, group, tags, notes.',
        security,
        querystring: ZZoneQuery,
        params: ZDeviceIdParams,
        body: ZUpdateDeviceBody,
        response: { 200: ZDeviceDetail, ...errors },
      },
    },
    async (request) => updateDevice(dctx, requireAuthz(request), request.query.o, request.params.id, request.body),
  );

  app.delete(
    '/api/servers/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Remove a device',
        description: 'Endpoint.delete. Its agent is told to stop (410 at its next check-in).',
        security,
        querystring: ZZoneQuery,
        params: ZDeviceIdParams,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await removeDevice(dctx, requireAuthz(request), request.query.o, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/servers/:id/packages',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A device’s packages and available updates',
        description: 'Endpoint.read.',
        security,
        querystring: ZDevicePackagesQuery,
        params: ZDeviceIdParams,
        response: { 200: ZDevicePackageList, ...errors },
      },
    },
    async (request) => listDevicePackages(dctx, requireAuthz(request), request.query, request.params.id),
  );

  app.post(
    '/api/servers/:id/queues',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Queue a command for a device',
        description:
          'Endpoint.manage. GetOS (scan), InstallAllUpdates, InstallUpdate (args.names), InstallPackage, ' +
          'RemovePackage (args.package), Reboot. A device waiting in a check-in receives it at once.' +
          IDEMPOTENCY_DOC,
        security,
        querystring: ZZoneQuery,
        params: ZDeviceIdParams,
        body: ZQueueCommandBody,
        response: { 201: ZDeviceCommand, ...errors, 409: ZApiError, 422: ZApiError },
      },
    },
    async (request, reply) => {
      const authz = requireAuthz(request);
      const { o } = request.query;
      const answer = await idempotent(
        ctx,
        request,
        { userId: authz.userId, zoneId: o },
        async () => ({ status: 201, body: await queueCommand(dctx, authz, o, request.params.id, request.body) }),
        () => requireZone(ctx, authz, o, 'Endpoint', 'manage'),
      );
      return sendIdempotent(reply, answer);
    },
  );

  app.get(
    '/api/servers/:id/commands',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A device’s commands, newest first',
        description: 'Endpoint.read.',
        security,
        querystring: ZDeviceCommandsQuery,
        params: ZDeviceIdParams,
        response: { 200: ZDeviceCommandList, ...errors },
      },
    },
    async (request) => listDeviceCommands(dctx, requireAuthz(request), request.query, request.params.id),
  );

  app.get(
    '/api/info',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'How to add devices',
        description:
          'Endpoint.read. The server URL and install commands per OS; the zone’s access key only with Organization.manage.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZAgentInfo, ...errors },
      },
    },
    async (request) =>
      getAgentInfo(
        dctx,
        requireAuthz(request),
        request.query.o,
        ctx.config.publicUrl ?? `${request.protocol}://${request.host}`,
      ),
  );

  app.get(
    '/api/dashboard',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Device counts for the dashboard',
        description: 'Endpoint.read. By status, OS family and compliance, and pending patches.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZDashboard, ...errors },
      },
    },
    async (request) => getDashboard(dctx, requireAuthz(request), request.query.o),
  );
}
