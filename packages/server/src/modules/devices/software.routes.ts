import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZOrgIdParams,
  ZSoftwareDeviceList,
  ZSoftwareDevicesQuery,
  ZSoftwareList,
  ZSoftwareQuery,
} from '@patchwell/core/devices/software.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { listSoftwareDevices, listZoneSoftware } from './software.service';

const tags = ['software'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** The zone's software (`/api/orgs/{orgId}/packages…`). */
export async function softwareRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/orgs/:orgId/packages',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s software by package',
        description:
          'Software.read. Installed count, versions, devices needing an update, highest severity and CVEs; filters ' +
          'by name, OS family, severity and needs-update.',
        security,
        params: ZOrgIdParams,
        querystring: ZSoftwareQuery,
        response: { 200: ZSoftwareList, ...errors },
      },
    },
    async (request) => listZoneSoftware(ctx, requireAuthz(request), request.params.orgId, request.query),
  );

  app.get(
    '/api/orgs/:orgId/packages/devices',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The devices having a package',
        description: 'Software.read and Endpoint.read. `name` is the exact package name.',
        security,
        params: ZOrgIdParams,
        querystring: ZSoftwareDevicesQuery,
        response: { 200: ZSoftwareDeviceList, ...errors },
      },
    },
    async (request) => listSoftwareDevices(ctx, requireAuthz(request), request.params.orgId, request.query),
  );
}
