import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import {
  ZNeedsAttentionCsvQuery,
  ZNeedsAttentionQuery,
  ZNeedsAttentionReport,
  ZOverview,
  ZOverviewQuery,
  ZPatchHistory,
  ZPatchHistoryQuery,
  ZPrepatchCsvQuery,
  ZPrepatchQuery,
  ZPrepatchReport,
} from '@patchwell/core/reports/reports.schema';
import {
  ZPolicyResultsDetail,
  ZPolicyResultsList,
  ZPolicyResultsParams,
  ZPolicyResultsQuery,
} from '@patchwell/core/reports/policy-results.schema';
import { ZDashboardQuery, ZFleetDashboard } from '@patchwell/core/reports/dashboard.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { csvCell } from '../../http/csv';
import {
  exportNeedsAttention,
  exportPrepatch,
  getNeedsAttention,
  getPrepatch,
  NEEDS_ATTENTION_CSV_COLUMNS,
  PREPATCH_CSV_COLUMNS,
} from './device-reports.service';
import { getFleetDashboard } from './dashboard.service';
import { getOverview, listPatchHistory } from './overview.service';
import { getPolicyResult, listPolicyResults } from './policy-results.service';

export const tags = ['reports'];
export const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
export const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/**
 * Streams rows as CSV (header first), every cell through the formula guard, waiting for the
 * client whenever the stream's buffer is full.
 */
export function sendCsv<T>(
  reply: FastifyReply,
  log: FastifyBaseLogger,
  fileName: string,
  columns: [keyof T, string][],
  pages: AsyncGenerator<T[], void, void>,
) {
  const csv = stringify({ header: true, columns: columns.map(([, header]) => header) });
  void (async () => {
    try {
      for await (const page of pages) {
        for (const row of page) {
          if (!csv.write(columns.map(([key]) => csvCell(row[key])))) {
            await new Promise((resolve) => csv.once('drain', resolve));
          }
        }
      }
      csv.end();
    } catch (err) {
      log.error({ err }, 'report export failed');
      csv.destroy(err as Error);
    }
  })();
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(csv);
}

/** The Reports pages' API (issue 12): overview, patch history, prepatch, needs attention, policy results. */
export async function reportsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/reports/overview',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Compliance over time, patches installed, failures and devices by state',
        description:
          'Report.read. Per UTC day from `startDate` (YYYY-MM-DD, at most 90 days back; default 10 days back) to ' +
          'today: compliant, not compliant and enrolled devices (today from the devices now, earlier days from the ' +
          'snapshot taken that day, null when none was), patches installed and failed install commands; and the ' +
          'devices by state now. Marks the caller’s `metadata.overviewReportRun`.',
        security,
        querystring: ZOverviewQuery,
        response: { 200: ZOverview, ...errors },
      },
    },
    async (request) => getOverview(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/reports/patch-history',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The install commands behind the overview’s daily figures',
        description:
          'Report.read. Install commands (install_updates, install_all, install_package) that finished from ' +
          '`startDate` to `endDate` (UTC days; default the last 10 days and today), newest first. `outcome=installed` ' +
          '(successful, not dry runs) or `failed` (error or timed out), as the overview counts them. Zero-based `page`, `limit` 1–700.',
        security,
        querystring: ZPatchHistoryQuery,
        response: { 200: ZPatchHistory, ...errors },
      },
    },
    async (request) => listPatchHistory(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/reports/prepatch',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Pending patches by severity and age, and the devices that have them',
        description:
          'Report.read. `summary`: devices and pending (device, patch) pairs in all, by severity and by age bucket ' +
          '(0-15, 16-30, 31-60, 61-89, 90+ days since publication; `unknown` without a date). The table: devices with ' +
          'pending patches, filtered by `severity` and `age` (a patch of both), `search`; ' +
          '`sort=name|pending_patches|critical|oldest_age_days:asc|desc`. Marks the caller’s `metadata.prepatchReportRun`.',
        security,
        querystring: ZPrepatchQuery,
        response: { 200: ZPrepatchReport, ...errors },
      },
    },
    async (request) => getPrepatch(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/reports/prepatch/csv',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Export the prepatch table as CSV',
        description: "Report.read; the table's filters and sort, every row. Formula-like cells are prefixed with `'`.",
        security,
        querystring: ZPrepatchCsvQuery,
        response: { 200: z.any(), ...errors },
      },
    },
    async (request, reply) =>
      sendCsv(
        reply,
        request.log,
        'prepatch.csv',
        PREPATCH_CSV_COLUMNS,
        await exportPrepatch(ctx, requireAuthz(request), request.query),
      ),
  );

  app.get(
    '/api/reports/dashboard',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The fleet at a glance',
        description:
          'Endpoint.read (as GET /api/dashboard). Compliance now and its 30-day trend, devices missing critical patches for more than 14 days ' +
          '(the devices list with `critical_older_than=14`), pending patches by severity and age, the most vulnerable ' +
          'software, the latest failed installs and the last 7 days of installs. Computed ahead for the zones being looked at ' +
          'before their five minutes run out; older figures (up to a day) are served while the next ones are computed ' +
          '(`computed_at` says when they are from).',
        security,
        querystring: ZDashboardQuery,
        response: { 200: ZFleetDashboard, ...errors },
      },
    },
    async (request) => getFleetDashboard(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/reports/needs-attention',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Devices that are not compliant, and why',
        description:
          'Report.read. Devices pending or needing attention with the reason the compliance rule gave; ' +
          '`compliance=pending|needs_attention`, `search`, `sort=name|compliance|pending_patches|last_seen_at:asc|desc` ' +
          '(default needing attention first). `summary` counts each state.',
        security,
        querystring: ZNeedsAttentionQuery,
        response: { 200: ZNeedsAttentionReport, ...errors },
      },
    },
    async (request) => getNeedsAttention(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/reports/needs-attention/csv',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Export the devices that need attention as CSV',
        description: "Report.read; the table's filters and sort, every row. Formula-like cells are prefixed with `'`.",
        security,
        querystring: ZNeedsAttentionCsvQuery,
        response: { 200: z.any(), ...errors },
      },
    },
    async (request, reply) =>
      sendCsv(
        reply,
        request.log,
        'needs-attention.csv',
        NEEDS_ATTENTION_CSV_COLUMNS,
        await exportNeedsAttention(ctx, requireAuthz(request), request.query),
      ),
  );

  app.get(
    '/api/reports/policy-results',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Policies that ran in the last 30 days, with their results',
        description:
          'Report.read. Each policy of the zone with a run started in the last 30 days: runs, last run, devices, and ' +
          'device results by outcome. `search` (name), `sort=name|last_run_at|runs|failed:asc|desc`, paging.',
        security,
        querystring: ZPolicyResultsQuery,
        response: { 200: ZPolicyResultsList, ...errors },
      },
    },
    async (request) => listPolicyResults(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/reports/policy-results/:policyUuid',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One policy’s results of the last 30 days',
        description:
          'Report.read. The policy’s figures and its run starts and finishes; the runs and their device results are ' +
          '`GET /api/policies/{id}/runs` and `…/runs/{runId}/results`. Another zone’s or a deleted policy: 404.',
        security,
        params: ZPolicyResultsParams,
        querystring: ZZoneQuery,
        response: { 200: ZPolicyResultsDetail, ...errors },
      },
    },
    async (request) => getPolicyResult(ctx, requireAuthz(request), request.query.o, request.params.policyUuid),
  );
}
