import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import {
  ZWorkletCatalogEntry,
  ZWorkletCatalogIdParams,
  ZWorkletCatalogList,
  ZWorkletCatalogQuery,
} from '@patchwell/core/worklets/worklet-catalog.schema';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { getWorkletCatalogEntry, listWorkletCatalog } from './worklet-catalog.service';

const tags = ['worklets'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** The catalogue query plus the zone (`o`, alias `org`) whose CustomPolicy.read is checked. */
const ZCatalogQuery = ZWorkletCatalogQuery.extend({
  o: z.coerce.number().int().positive().optional(),
  org: z.coerce.number().int().positive().optional(),
}).transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));

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
