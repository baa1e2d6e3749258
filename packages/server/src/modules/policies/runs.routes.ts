import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZDeviceIdParams } from '@patchwell/core/devices/devices.schema';
import { ZPolicyActionBody, ZPolicyIdParams } from '@patchwell/core/policies/policies.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import { requireAuthz } from '../../http/authz';
import { sendIdempotent } from '../../http/idempotent-reply';
import { ZPagedZoneQuery, ZResultsQuery, ZRunParams } from '@patchwell/core/policies/policy-params.schema';
import type { PoliciesCtx } from './policies.context';
import { IDEMPOTENCY_DOC, idempotent } from '../idempotency/idempotency.service';
import {
  ZDevicePolicyList,
  ZPolicyActionResult,
  ZPolicyResultList,
  ZPolicyRunDetail,
  ZPolicyRunList,
} from '@patchwell/core/policies/policy-responses.schema';
import { getRun, listDevicePolicies, listResults, listRuns, requireRunPermission, runPolicyNow } from './runs.service';

const tags = ['policies'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** Running policies and reading their runs and per-device results. */
export async function runsRoutes(root: FastifyInstance, ctx: PoliciesCtx): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/policies/:id/action',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Run a policy now',
        description:
          'Execute on the policy’s type. `remediateAll`: every targeted device; `remediateServer` with `serverId`: ' +
          'that device. Worklets run their remediation code only. Devices offline now run it at their next check-in. ' +
          '409 `policies.run_open` while a run of the policy still has commands open on these devices.' +
          IDEMPOTENCY_DOC,
        security,
        querystring: ZZoneQuery,
        params: ZPolicyIdParams,
        body: ZPolicyActionBody,
        response: { 202: ZPolicyActionResult, ...errors, 409: ZApiError, 422: ZApiError },
      },
    },
    async (request, reply) => {
      const authz = requireAuthz(request);
      const { o } = request.query;
      const answer = await idempotent(
        ctx,
        request,
        { userId: authz.userId, zoneId: o },
        async () => ({ status: 202, body: await runPolicyNow(ctx, authz, o, request.params.id, request.body) }),
        () => requireRunPermission(ctx, authz, o, request.params.id),
      );
      return sendIdempotent(reply, answer);
    },
  );

  app.get(
    '/api/policies/:id/runs',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A policy’s runs of the last 30 days',
        description: 'Read on the policy’s type. Newest first.',
        security,
        querystring: ZPagedZoneQuery,
        params: ZPolicyIdParams,
        response: { 200: ZPolicyRunList, ...errors },
      },
    },
    async (request) => listRuns(ctx, requireAuthz(request), request.query, request.params.id),
  );

  app.get(
    '/api/policies/:id/runs/:runId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One run (the execution banner’s status)',
        description: 'Read on the policy’s type.',
        security,
        querystring: ZZoneQuery,
        params: ZRunParams,
        response: { 200: ZPolicyRunDetail, ...errors },
      },
    },
    async (request) => getRun(ctx, requireAuthz(request), request.query.o, request.params.id, request.params.runId),
  );

  app.get(
    '/api/policies/:id/runs/:runId/results',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A run’s per-device results with their output',
        description: 'Read on the policy’s type. Filter by `status`.',
        security,
        querystring: ZResultsQuery,
        params: ZRunParams,
        response: { 200: ZPolicyResultList, ...errors },
      },
    },
    async (request) => listResults(ctx, requireAuthz(request), request.query, request.params.id, request.params.runId),
  );

  app.get(
    '/api/servers/:id/policies',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A device’s policies: standing and last result',
        description: 'Endpoint.read.',
        security,
        querystring: ZZoneQuery,
        params: ZDeviceIdParams,
        response: { 200: ZDevicePolicyList, ...errors },
      },
    },
    async (request) => listDevicePolicies(ctx, requireAuthz(request), request.query.o, request.params.id),
  );
}
