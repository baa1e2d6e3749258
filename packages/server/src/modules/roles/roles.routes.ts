import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import {
  ZPermissionCheck,
  ZPermissionCheckQuery,
  ZPermissionsInfo,
  ZRbacRoleList,
} from '@patchwell/core/zones/zones.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { checkPermission, listRoles, permissionsInfo } from './roles.service';

const tags = ['roles'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** The fixed roles and the permission matrix. */
export async function rolesRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/rbacroles',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The fixed zone roles and what each grants',
        description: 'Role.read in zone `o`.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZRbacRoleList, ...errors },
      },
    },
    async (request) => listRoles(ctx, requireAuthz(request), request.query.o),
  );

  app.get(
    '/api/permissions',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The permission matrix and the caller’s permissions',
        description:
          '`mine` lists the caller’s permission keys per zone id: zone `o` only when given (404 when the caller ' +
          'may not enter it), otherwise every zone they may enter.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZPermissionsInfo, ...errors },
      },
    },
    async (request) => permissionsInfo(ctx, requireAuthz(request), request.query.o),
  );

  app.get(
    '/api/permissions/check',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'May the caller do an action on a resource in zone o?',
        description:
          '200 `{ allowed: true }` when allowed, 403 when the caller’s role in `o` lacks the permission, 404 when ' +
          'they may not enter `o`: the check every endpoint runs.',
        security,
        querystring: ZPermissionCheckQuery,
        response: { 200: ZPermissionCheck, ...errors },
      },
    },
    async (request) =>
      checkPermission(ctx, requireAuthz(request), request.query.o, request.query.resource, request.query.action),
  );
}
