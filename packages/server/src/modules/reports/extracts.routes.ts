import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import {
  ZCreateDataExtractBody,
  ZDataExtract,
  ZDataExtractList,
  ZDataExtractListQuery,
  ZDataExtractParams,
} from '@patchwell/core/reports/extracts.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { getExtract, listExtracts, openExtractDownload, requestExtract } from './extracts.service';
import { errors, security, tags } from './reports.routes';

/** Data extracts (`/api/reports/data-extracts…`): request, follow, download. */
export async function extractsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/reports/data-extracts',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Request a data extract',
        description:
          'Report.read. `kind`: patch_history, device_inventory, software or activity; `preset`: last30days, ' +
          'last7days, yesterday, today or custom with `startDate` and `endDate` (YYYY-MM-DD, UTC, at most 90 days ' +
          'back, not in the future). Built as a job by a server node; follow it with GET until `ready`, then ' +
          'download the CSV. Kept 7 days. 409 `reports.extracts_busy` while 3 are in progress in the zone.',
        security,
        querystring: ZZoneQuery,
        body: ZCreateDataExtractBody,
        response: { 202: ZDataExtract, ...errors, 409: ZApiError },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await requestExtract(ctx, requireAuthz(request), request.query.o, request.body)),
  );

  app.get(
    '/api/reports/data-extracts',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s data extracts',
        description: 'Report.read. Newest first; `expired` once past `expires_at` until deleted.',
        security,
        querystring: ZDataExtractListQuery,
        response: { 200: ZDataExtractList, ...errors },
      },
    },
    async (request) => listExtracts(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/reports/data-extracts/:extractId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One data extract: status and progress',
        description: 'Report.read. Another zone’s extract: 404.',
        security,
        params: ZDataExtractParams,
        querystring: ZZoneQuery,
        response: { 200: ZDataExtract, ...errors },
      },
    },
    async (request) => getExtract(ctx, requireAuthz(request), request.query.o, request.params.extractId),
  );

  app.get(
    '/api/reports/data-extracts/:extractId/csv',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Download a ready data extract as CSV',
        description:
          "Report.read. Streamed from the database. Formula-like cells are prefixed with `'`. 409 while it is " +
          'being built or after it failed; 410 once expired.',
        security,
        params: ZDataExtractParams,
        querystring: ZZoneQuery,
        response: { 200: z.any(), ...errors, 409: ZApiError, 410: ZApiError },
      },
    },
    async (request, reply) => {
      const download = await openExtractDownload(ctx, requireAuthz(request), request.query.o, request.params.extractId);
      async function* body() {
        yield stringify([download.header]);
        yield* download.pages;
      }
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${download.fileName}"`)
          // A byte stream: an object stream would read 16 pages (up to 40 MB) ahead of a slow client.
          .send(Readable.from(body(), { objectMode: false, highWaterMark: 64 * 1024 }))
      );
    },
  );
}
