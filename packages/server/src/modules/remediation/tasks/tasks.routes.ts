import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import {
  ZTask,
  ZTaskActionBody,
  ZTaskDeleteBody,
  ZTaskExecuteBody,
  ZTaskExecuteResult,
  ZTaskJobList,
  ZTaskJobsQuery,
  ZTaskList,
  ZTaskListQuery,
  ZTaskParams,
} from '@patchwell/core/remediation/tasks.schema';
import { ZOrgParams } from '@patchwell/core/remediation/batches.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import { requireAuthz } from '../../../http/authz';
import { csvCell } from '../../../http/csv';
import { sendIdempotent } from '../../../http/idempotent-reply';
import { IDEMPOTENCY_DOC, idempotent } from '../../idempotency/idempotency.service';
import { actOnTask, deleteTasks, executeTasks, requireTaskAction, type TasksCtx } from './task-actions.service';
import { exportTaskCsv, getTask, listTaskJobs, listTasks, type TaskCsvRow } from './tasks.service';

const tags = ['remediation'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** The CSV's words for each device's status (spec B section 4: remediated, remediating, remediation failed). */
const CSV_STATUS: Record<TaskCsvRow['status'], string> = {
  remediated: 'remediated',
  remediating: 'remediating',
  remediation_failed: 'remediation failed',
  pending: 'pending',
  canceled: 'canceled',
};

/**
 * Remediation tasks (`/api/orgs/{orgId}/tasks…`). The batches' static paths
 * (`tasks/batches…`) win over `tasks/{taskId}` in Fastify's router whatever the order.
 */
export async function tasksRoutes(root: FastifyInstance, ctx: TasksCtx): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/orgs/:orgId/tasks',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s remediation tasks',
        description:
          'Task.read. Filters `status:equals`, `severity:equals`, `source:equals`, `batch_id`; `sort=field:asc|desc` ' +
          '(sorting by status also sorts by severity, worst first); newest first by default.',
        security,
        params: ZOrgParams,
        querystring: ZTaskListQuery,
        response: { 200: ZTaskList, ...errors },
      },
    },
    async (request) => listTasks(ctx, requireAuthz(request), request.params.orgId, request.query),
  );

  app.delete(
    '/api/orgs/:orgId/tasks',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Delete tasks',
        description:
          'Task.modify. Their details and per-device results become inaccessible. Commands of jobs still running ' +
          'are canceled. Every id must be a task of the zone, else nothing is deleted (404).',
        security,
        params: ZOrgParams,
        querystring: ZZoneQuery,
        body: ZTaskDeleteBody,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteTasks(ctx, requireAuthz(request), request.params.orgId, request.query.o, request.body.ids);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/orgs/:orgId/tasks/execute',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Execute many tasks at once',
        description:
          'Task.execute. `{ids}`: these tasks, every one the zone’s (else 404) and pending (else 409 ' +
          '`tasks.not_pending`); `{batch_id}`: every pending task of the accepted batch (those executed or ' +
          'canceled are left; a batch with no tasks in the zone is 404). One transaction: every device command is ' +
          'queued, or none. Runs now, without user notifications, as executing each task would.' +
          IDEMPOTENCY_DOC,
        security,
        params: ZOrgParams,
        querystring: ZZoneQuery,
        body: ZTaskExecuteBody,
        response: { 200: ZTaskExecuteResult, ...errors, 409: ZApiError, 422: ZApiError },
      },
    },
    async (request, reply) => {
      const authz = requireAuthz(request);
      const { orgId } = request.params;
      const { o } = request.query;
      const answer = await idempotent(
        ctx,
        request,
        { userId: authz.userId, zoneId: orgId },
        async () => ({ status: 200, body: await executeTasks(ctx, authz, orgId, o, request.body) }),
        () => requireTaskAction(ctx, authz, orgId, o, 'execute'),
      );
      return sendIdempotent(reply, answer);
    },
  );

  app.get(
    '/api/orgs/:orgId/tasks/:taskId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One remediation task',
        description: 'Task.read. With its per-device counts, overall status and deadline.',
        security,
        params: ZTaskParams,
        querystring: ZZoneQuery,
        response: { 200: ZTask, ...errors },
      },
    },
    async (request) =>
      getTask(ctx, requireAuthz(request), request.params.orgId, request.query.o, request.params.taskId),
  );

  app.patch(
    '/api/orgs/:orgId/tasks/:taskId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Execute or cancel a task',
        description:
          '`execute` (Task.execute): queues one command per device now, without user notifications (patch-now ' +
          'installs the patch; patch-with-worklet runs the worklet’s remediation code); only a pending task ' +
          'executes (409 `tasks.not_pending`). `cancel` (Task.modify): cancels the jobs not yet done and their ' +
          'commands (409 `tasks.not_cancelable` once executed or canceled).' +
          IDEMPOTENCY_DOC,
        security,
        params: ZTaskParams,
        querystring: ZZoneQuery,
        body: ZTaskActionBody,
        response: { 200: ZTask, ...errors, 409: ZApiError, 422: ZApiError },
      },
    },
    async (request, reply) => {
      const authz = requireAuthz(request);
      const { orgId, taskId } = request.params;
      const { o } = request.query;
      const answer = await idempotent(
        ctx,
        request,
        { userId: authz.userId, zoneId: orgId },
        async () => ({ status: 200, body: await actOnTask(ctx, authz, orgId, o, taskId, request.body) }),
        () => requireTaskAction(ctx, authz, orgId, o, request.body.action),
      );
      return sendIdempotent(reply, answer);
    },
  );

  app.get(
    '/api/orgs/:orgId/tasks/:taskId/jobs',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A task’s per-device jobs',
        description: 'Task.read. By host name; filter by job `status`.',
        security,
        params: ZTaskParams,
        querystring: ZTaskJobsQuery,
        response: { 200: ZTaskJobList, ...errors },
      },
    },
    async (request) =>
      listTaskJobs(ctx, requireAuthz(request), request.params.orgId, request.params.taskId, request.query),
  );

  app.get(
    '/api/orgs/:orgId/tasks/:taskId/csv',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Download a task’s per-device remediation status as CSV',
        description:
          'Task.read. Hostname, private IP, remediation status (remediated, remediating, remediation failed; ' +
          "pending or canceled for devices it did not run on). Streamed; formula-like cells are prefixed with `'`.",
        security,
        params: ZTaskParams,
        querystring: ZZoneQuery,
        response: { 200: z.any(), ...errors },
      },
    },
    async (request, reply) => {
      const { fileName, pages } = await exportTaskCsv(
        ctx,
        requireAuthz(request),
        request.params.orgId,
        request.query.o,
        request.params.taskId,
      );
      const csv = stringify({ header: true, columns: ['Hostname', 'Private IP', 'Remediation status'] });
      void (async () => {
        try {
          for await (const page of pages) {
            for (const row of page) {
              if (!csv.write([csvCell(row.hostname), csvCell(row.privateIps), csvCell(CSV_STATUS[row.status])])) {
                await new Promise((resolve) => csv.once('drain', resolve));
              }
            }
          }
          csv.end();
        } catch (err) {
          request.log.error({ err }, 'task CSV export failed');
          csv.destroy(err as Error);
        }
      })();
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(csv);
    },
  );
}
