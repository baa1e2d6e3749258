import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import { findWorkletCatalogEntry, loadWorkletCatalog } from './worklet-catalog.loader';
import {
  ZWorkletCatalogEntry,
  ZWorkletCatalogIdParams,
  ZWorkletCatalogList,
  ZWorkletCatalogQuery,
  type WorkletCatalogEntry,
  type WorkletCatalogList,
  type WorkletCatalogQuery,
} from '@patchwell/core/worklets/worklet-catalog.schema';
import { queryWorkletCatalog } from '@patchwell/core/worklets/worklet-rules';
import { roleAllows } from '@patchwell/core/zones/roles';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { forbidden, notFound } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { requireZone } from '../zones/zone-access.service';

const tags = ['worklets'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** The catalogue query plus the zone (`o`, alias `org`) whose CustomPolicy.read is checked. */
const ZCatalogQuery = ZWorkletCatalogQuery.extend({
  o: z.coerce.number().int().positive().optional(),
  org: z.coerce.number().int().positive().optional(),
}).transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));

/**
 * CustomPolicy.read in zone `o`; without `o` (spec B section 7 calls the catalogue with no
 * zone), in at least one zone the caller may enter. The catalogue is the same shipped content
 * in every zone, so which zone allows the read does not matter. A key bound to one zone
 * stands for that zone.
 */
async function requireCatalogueRead(ctx: AppContext, authz: Authz, o: number | undefined): Promise<void> {
  const { actor } = authz;
  if (o !== undefined || actor.onlyZoneId != null) {
    await requireZone(ctx, authz, o, 'CustomPolicy', 'read');
    return;
  }
  const may = (role: { roleId: number | null; isGlobalAdmin: boolean }) => roleAllows(role, 'CustomPolicy', 'read');
  const allowed =
    (actor.isGlobalAdmin && actor.accountId !== null && may({ roleId: null, isGlobalAdmin: true })) ||
    actor.zoneRoles.some((r) => may({ roleId: r.roleId, isGlobalAdmin: false }));
  if (!allowed) throw forbidden();
  authz.allow('the catalogue is the same in every zone; the caller may read it in one of theirs');
}

/** `GET /api/worklet-catalog` (CustomPolicy.read in the zone `o`): the shipped catalogue, filtered and paged. */
export async function listWorkletCatalog(
  ctx: AppContext,
  authz: Authz,
  query: WorkletCatalogQuery & { o?: number },
): Promise<WorkletCatalogList> {
  await requireCatalogueRead(ctx, authz, query.o);
  return queryWorkletCatalog(loadWorkletCatalog(), query);
}

/** `GET /api/worklet-catalog/{id}` by slug or UUID. */
export async function getWorkletCatalogEntry(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: string,
): Promise<WorkletCatalogEntry> {
  await requireCatalogueRead(ctx, authz, o);
  const entry = findWorkletCatalogEntry(id);
  if (!entry) throw notFound();
  return entry;
}

/** The worklet catalogue (`/api/worklet-catalog`, spec B section 7: `{ results, size }`). */
export async function workletCatalogRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/worklet-catalog',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The worklet catalogue',
        description:
          'CustomPolicy.read in zone `o`, or without `o` in any zone of the caller. Zero-based `page`, `limit`; ' +
          'filters `os_family`, `category`, `search` (name or description).',
        security,
        querystring: ZCatalogQuery,
        response: { 200: ZWorkletCatalogList, ...errors },
      },
    },
    async (request) => listWorkletCatalog(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/worklet-catalog/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One catalogue worklet with its code',
        description:
          'CustomPolicy.read in zone `o`, or without `o` in any zone of the caller (the catalogue is the same in ' +
          'every zone). `id` is the slug or the UUID.',
        security,
        querystring: ZZoneQuery,
        params: ZWorkletCatalogIdParams,
        response: { 200: ZWorkletCatalogEntry, ...errors },
      },
    },
    async (request) => getWorkletCatalogEntry(ctx, requireAuthz(request), request.query.o, request.params.id),
  );
}
