import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import {
  ZCveCsvQuery,
  ZCveDetail,
  ZCveDetailQuery,
  ZCveException,
  ZCveExceptionBody,
  ZCveExceptionParams,
  ZCveListQuery,
  ZCveParams,
  ZCveSummary,
  ZCveZoneParams,
  ZRemediationDeadlines,
  ZZoneCveList,
} from '@patchwell/core/remediation/cves.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../../context';
import { requireAuthz } from '../../../http/authz';
import { csvCell } from '../../../http/csv';
import { CVE_CSV_HEADERS, exportCves, getCveDetail, getCveSummary, listCves } from './cves.service';
import { getDeadlines, putDeadlines } from './deadlines.service';
import { createException, revokeException } from './exceptions.service';

const tags = ['remediation'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/**
 * The zone's CVE view (`/api/orgs/{orgId}/cves…`), its exceptions and its remediation
 * deadlines. Task.read to see, Task.modify to change; another zone's CVEs and exceptions 404.
 */
export async function cvesRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/orgs/:orgId/cves',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s CVEs',
        description:
          'Task.read. Every CVE an accepted scanner batch reported on a device of the zone, with devices affected, ' +
          'remediated, excepted (an unexpired false positive or accepted risk; left out of the affected count) and ' +
          'overdue (past the zone’s deadline for the severity). Zero-based `page`, `limit` 1–700, `severity`, ' +
          '`search` (CVE id or title), `overdue=true|false`, `sort=cve|severity|affected_device_count|first_seen_at|due_at:asc|desc`.',
        security,
        params: ZCveZoneParams,
        querystring: ZCveListQuery,
        response: { 200: ZZoneCveList, ...errors },
      },
    },
    async (request) => listCves(ctx, requireAuthz(request), request.params.orgId, request.query),
  );

  app.get(
    '/api/orgs/:orgId/cves/summary',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s CVE totals',
        description:
          'Task.read. CVEs with affected devices, devices affected by any, and devices with at least one overdue ' +
          'CVE, by the severity of that CVE and in total. Excepted devices are left out while the exception holds.',
        security,
        params: ZCveZoneParams,
        querystring: ZZoneQuery,
        response: { 200: ZCveSummary, ...errors },
      },
    },
    async (request) => getCveSummary(ctx, requireAuthz(request), request.params.orgId, request.query.o),
  );

  app.get(
    '/api/orgs/:orgId/cves/csv',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Export the zone’s CVEs by device as CSV',
        description:
          'Task.read. One row per CVE and device: status (an exception in force shows as Excepted, with its kind ' +
          "and expiry), first and last seen, due date and an Overdue column. The list's `severity`, `search` and " +
          "`overdue` (here: the device is overdue) filters. Streamed; formula-like cells are prefixed with `'`.",
        security,
        params: ZCveZoneParams,
        querystring: ZCveCsvQuery,
        response: { 200: z.any(), ...errors },
      },
    },
    async (request, reply) => {
      const pages = await exportCves(ctx, requireAuthz(request), request.params.orgId, request.query);
      const csv = stringify({ header: true, columns: CVE_CSV_HEADERS });
      void (async () => {
        try {
          for await (const page of pages) {
            for (const row of page) {
              if (!csv.write(row.map(csvCell))) await new Promise((resolve) => csv.once('drain', resolve));
            }
          }
          csv.end();
        } catch (err) {
          request.log.error({ err }, 'CVE export failed');
          csv.destroy(err as Error);
        }
      })();
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="cves.csv"')
        .send(csv);
    },
  );

  app.get(
    '/api/orgs/:orgId/cves/:cve',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One CVE of the zone, explained',
        description:
          'Task.read. Its counts; a page of its devices (`page`, `limit`; overdue and affected first), each with the ' +
          'scanner rows that named it (batch, source, file and line, the host as written and what it matched), the ' +
          'installed package and the patch (version, source) or worklet that fixes it, its exception, due date and ' +
          'overdue flag; every exception of the CVE; and the daily affected and remediated counts. A CVE no device ' +
          'of the zone has answers 404.',
        security,
        params: ZCveParams,
        querystring: ZCveDetailQuery,
        response: { 200: ZCveDetail, ...errors },
      },
    },
    async (request) =>
      getCveDetail(ctx, requireAuthz(request), request.params.orgId, request.params.cve, request.query),
  );

  app.post(
    '/api/orgs/:orgId/cves/:cve/exceptions',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Mark a CVE a false positive or an accepted risk',
        description:
          'Task.modify. On one device of the zone (`device_id`; another zone’s device answers 404) or on the whole ' +
          'zone, with a reason and an optional expiry in the future (400 otherwise). While it holds, its devices ' +
          'leave the counts; once it expires they count again. 409 when one with the same scope is already in force.',
        security,
        params: ZCveParams,
        querystring: ZZoneQuery,
        body: ZCveExceptionBody,
        response: { 201: ZCveException, ...errors, 409: ZApiError },
      },
    },
    async (request, reply) => {
      const created = await createException(
        ctx,
        requireAuthz(request),
        request.params.orgId,
        request.query.o,
        request.params.cve,
        request.body,
      );
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/api/orgs/:orgId/cve-exceptions/:exceptionId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Revoke an exception',
        description:
          'Task.modify. Its devices count again from now; the revocation records who made it. 409 when it was ' +
          'already revoked or has expired; another zone’s exception answers 404.',
        security,
        params: ZCveExceptionParams,
        querystring: ZZoneQuery,
        response: { 200: ZCveException, ...errors, 409: ZApiError },
      },
    },
    async (request) =>
      revokeException(ctx, requireAuthz(request), request.params.orgId, request.query.o, request.params.exceptionId),
  );

  app.get(
    '/api/orgs/:orgId/remediation-deadlines',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s remediation deadlines',
        description:
          'Task.read. Days to remediate a CVE on a device by severity, counted from its first sighting; null: no ' +
          'deadline. A zone that never set them has critical 15, high 30, medium 90, low none.',
        security,
        params: ZCveZoneParams,
        querystring: ZZoneQuery,
        response: { 200: ZRemediationDeadlines, ...errors },
      },
    },
    async (request) => getDeadlines(ctx, requireAuthz(request), request.params.orgId, request.query.o),
  );

  app.put(
    '/api/orgs/:orgId/remediation-deadlines',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Set the zone’s remediation deadlines',
        description: 'Task.modify. Every severity, 1–365 days or null. Due dates and overdue counts follow at once.',
        security,
        params: ZCveZoneParams,
        querystring: ZZoneQuery,
        body: ZRemediationDeadlines,
        response: { 200: ZRemediationDeadlines, ...errors },
      },
    },
    async (request) => putDeadlines(ctx, requireAuthz(request), request.params.orgId, request.query.o, request.body),
  );
}
