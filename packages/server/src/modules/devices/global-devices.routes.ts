import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZGlobalDeviceList, ZGlobalDevicesQuery } from '@patchwell/core/devices/global-devices.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { ZAccountParams } from '../../http/params';
import { listAccountDevices } from './global-devices.service';

const tags = ['devices'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** The global devices list (`/global/devices` in the console). */
export async function globalDevicesRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/:accountId/devices',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Devices of every zone of the account',
        description:
          'Global administrators of the account only: another account answers 404, other users of the account 403. ' +
          'Zero-based `page`, `limit` 1–700, `sort=field:asc|desc`, `search` (name, host name, IP or zone name).',
        security,
        params: ZAccountParams,
        querystring: ZGlobalDevicesQuery,
        response: { 200: ZGlobalDeviceList, ...errors },
      },
    },
    async (request) => listAccountDevices(ctx, requireAuthz(request), request.params.accountId, request.query),
  );
}
