import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZReportSchedule,
  ZReportScheduleBody,
  ZReportScheduleList,
  ZReportScheduleListQuery,
  ZReportScheduleParams,
  ZReportScheduleSend,
  ZReportScheduleSendList,
} from '@patchwell/core/reports/schedules.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import {
  createSchedule,
  getSchedule,
  listSchedules,
  listSends,
  removeSchedule,
  replaceSchedule,
  sendNow,
} from './schedules.service';

const tags = ['reports'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

const BODY_DOC =
  '`kind` prepatch, needs_attention or activity_log (the reports with a CSV); `frequency` daily, weekly (with ' +
  '`day_of_week`, Monday 1 … Sunday 7) or monthly (with `day_of_month` 1–31; a shorter month sends on its last ' +
  'day); `time` HH:MM in `timezone` (an IANA name such as Europe/Paris, daylight saving included); `recipients` ' +
  '1–50 distinct e-mail addresses; `enabled`.';

/**
 * Scheduled reports (`/api/reports/schedules…`): Report.read to read, Organization.manage
 * (the zone's settings right) to change or send.
 */
export async function reportSchedulesRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/reports/schedules',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s scheduled reports',
        description: 'Report.read. Oldest first, with each one’s next due time, last send and last error.',
        security,
        querystring: ZReportScheduleListQuery,
        response: { 200: ZReportScheduleList, ...errors },
      },
    },
    async (request) => listSchedules(ctx, requireAuthz(request), request.query),
  );

  app.post(
    '/api/reports/schedules',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Schedule a report by mail',
        description: `Organization.manage. ${BODY_DOC} 409 \`report_schedules.too_many\` past 100 in the zone.`,
        security,
        querystring: ZZoneQuery,
        body: ZReportScheduleBody,
        response: { 201: ZReportSchedule, ...errors, 409: ZApiError },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createSchedule(ctx, requireAuthz(request), request.query.o, request.body)),
  );

  app.get(
    '/api/reports/schedules/:scheduleId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One scheduled report',
        description: 'Report.read. Another zone’s schedule: 404.',
        security,
        params: ZReportScheduleParams,
        querystring: ZZoneQuery,
        response: { 200: ZReportSchedule, ...errors },
      },
    },
    async (request) => getSchedule(ctx, requireAuthz(request), request.query.o, request.params.scheduleId),
  );

  app.put(
    '/api/reports/schedules/:scheduleId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Change a scheduled report',
        description: `Organization.manage. The whole schedule; its next due time is computed again. ${BODY_DOC}`,
        security,
        params: ZReportScheduleParams,
        querystring: ZZoneQuery,
        body: ZReportScheduleBody,
        response: { 200: ZReportSchedule, ...errors },
      },
    },
    async (request) =>
      replaceSchedule(ctx, requireAuthz(request), request.query.o, request.params.scheduleId, request.body),
  );

  app.delete(
    '/api/reports/schedules/:scheduleId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Delete a scheduled report',
        description: 'Organization.manage. With its sends; nothing more is mailed, not even a retry.',
        security,
        params: ZReportScheduleParams,
        querystring: ZZoneQuery,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await removeSchedule(ctx, requireAuthz(request), request.query.o, request.params.scheduleId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/reports/schedules/:scheduleId/send',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Send a scheduled report now',
        description:
          'Organization.manage. Mails the report to its recipients at once, even while the schedule is disabled (a ' +
          'test send), and answers with the send: `sent`, `queued` (no SMTP relay: in the outbox) or `failed` with ' +
          'the relay’s error (tried again up to 3 times).',
        security,
        params: ZReportScheduleParams,
        querystring: ZZoneQuery,
        response: { 200: ZReportScheduleSend, ...errors, 409: ZApiError },
      },
    },
    async (request) => sendNow(ctx, requireAuthz(request), request.query.o, request.params.scheduleId),
  );

  app.get(
    '/api/reports/schedules/:scheduleId/sends',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A scheduled report’s mails',
        description: 'Report.read. One per due time (and per “Send now”), latest first, with status and error.',
        security,
        params: ZReportScheduleParams,
        querystring: ZReportScheduleListQuery,
        response: { 200: ZReportScheduleSendList, ...errors },
      },
    },
    async (request) => listSends(ctx, requireAuthz(request), request.query, request.params.scheduleId),
  );
}
