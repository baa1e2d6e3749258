import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import { ZActivityCsvQuery, ZActivityEventList, ZActivityQuery } from '@patchwell/core/activity/activity.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { csvCell } from '../../http/csv';
import { ACTIVITY_CSV_COLUMNS, exportActivity, listActivity } from './activity-list.service';

const tags = ['activity'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

const FILTERS_DOC =
  'Report.read in zone `o`. `preset` last30days (default), last7days, yesterday, today (UTC days), or custom with ' +
  '`startDate` and `endDate` (YYYY-MM-DD, real days, at most 90 days back, not in the future); `user_id`; ' +
  '`action` (an action or its family: `device` matches `device.reboot`); `object_type` with an optional `object_id`. ' +
  'The zone’s events, plus account-level events (sign-ins) of the zone’s members, or of everyone for a ' +
  'global administrator. Newest first. Events are never edited or deleted through the API.';

const CSV_COLUMNS = ACTIVITY_CSV_COLUMNS;

/** The activity log (`/api/events…`): read-only by design. */
export async function activityRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/events',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s activity log',
        description: `${FILTERS_DOC} Zero-based \`page\`, \`limit\` 1–700.`,
        security,
        querystring: ZActivityQuery,
        response: { 200: ZActivityEventList, ...errors },
      },
    },
    async (request) => listActivity(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/events/csv',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Download the zone’s activity log as CSV',
        description: `${FILTERS_DOC} Every matching event, streamed; formula-like cells are prefixed with \`'\`.`,
        security,
        querystring: ZActivityCsvQuery,
        response: { 200: z.any(), ...errors },
      },
    },
    async (request, reply) => {
      const pages = await exportActivity(ctx, requireAuthz(request), request.query);
      const csv = stringify({ header: true, columns: CSV_COLUMNS.map(([header]) => header) });
      void (async () => {
        try {
          for await (const page of pages) {
            for (const event of page) {
              if (!csv.write(CSV_COLUMNS.map(([, cell]) => csvCell(cell(event))))) {
                await new Promise((resolve) => csv.once('drain', resolve));
              }
            }
          }
          csv.end();
        } catch (err) {
          request.log.error({ err }, 'activity CSV export failed');
          csv.destroy(err as Error);
        }
      })();
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="activity-log.csv"')
        .send(csv);
    },
  );
}
