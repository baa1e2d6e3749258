import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZDeviceFiltersPreviewBody } from '@patchwell/core/policies/device-filters.schema';
import {
  ZClonePolicyBody,
  ZCloneJob,
  ZCreatePolicyBody,
  ZListPoliciesQuery,
  ZPolicyIdParams,
  ZUpdatePolicyBody,
} from '@patchwell/core/policies/policies.schema';
import { ZPolicyResponse, ZPolicyResponseList, ZPreviewList } from '@patchwell/core/policies/policy-responses.schema';
import { ZPolicyStatsList } from '@patchwell/core/policies/policy-runs.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import { requireAuthz } from '../../http/authz';
import { clonePolicy, getCloneJob } from './clone.service';
import type { PoliciesCtx } from './policies.context';
import {
  createPolicy,
  deletePolicy,
  getPolicy,
  getPolicyStats,
  listPolicies,
  previewTargets,
  updatePolicy,
} from './policies.service';
import { ZCloneJobParams } from '@patchwell/core/policies/policy-params.schema';

const tags = ['policies'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** Policies (`/api/policies…`, `/api/policystats`), in the product family's shapes. */
export async function policiesRoutes(root: FastifyInstance, ctx: PoliciesCtx): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/policies',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'List policies',
        description:
          'Read on each type (types the caller may not read are left out). Zero-based `page`, `limit`, ' +
          '`sort=name|policy_type_name|status|create_time|next_run_time:asc|desc`, `type`, `status`, `search`.',
        security,
        querystring: ZListPoliciesQuery,
        response: { 200: ZPolicyResponseList, ...errors },
      },
    },
    async (request) => listPolicies(ctx, requireAuthz(request), request.query),
  );

  app.post(
    '/api/policies',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Create a policy',
        description:
          'Create on the body’s type (Patch, Custom or Required Software Policy). 400 with every field’s message ' +
          'and the summary “One or more fields have an error. Please check and try again.”',
        security,
        querystring: ZZoneQuery,
        body: ZCreatePolicyBody,
        response: { 201: ZPolicyResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createPolicy(ctx, requireAuthz(request), request.query.o, request.body)),
  );

  app.get(
    '/api/policystats',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Per-policy device standing',
        description: 'Read. For each policy: devices compliant, non-compliant (needing attention) and pending.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZPolicyStatsList, ...errors },
      },
    },
    async (request) => getPolicyStats(ctx, requireAuthz(request), request.query.o),
  );

  for (const url of ['/api/policies/preview', '/api/policies/device-filters-preview']) {
    app.post(
      url,
      {
        config: { access: 'session' },
        schema: {
          tags,
          summary: 'Preview the devices a draft policy targets',
          description: 'Read. The zone’s devices in `server_groups` that pass every device filter.',
          security,
          querystring: ZZoneQuery,
          body: ZDeviceFiltersPreviewBody,
          response: { 200: ZPreviewList, ...errors },
        },
      },
      async (request) => previewTargets(ctx, requireAuthz(request), request.query.o, request.body),
    );
  }

  app.get(
    '/api/policies/clone-jobs/:jobId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A clone job’s progress',
        description: 'Read. `status` queued, running, completed or error; `progress` 0–100; `data` the copies made.',
        security,
        querystring: ZZoneQuery,
        params: ZCloneJobParams,
        response: { 200: ZCloneJob, ...errors },
      },
    },
    async (request) => getCloneJob(ctx, requireAuthz(request), request.query.o, request.params.jobId),
  );

  app.get(
    '/api/policies/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One policy',
        description: 'Read on its type. Another zone’s policy answers 404.',
        security,
        querystring: ZZoneQuery,
        params: ZPolicyIdParams,
        response: { 200: ZPolicyResponse, ...errors },
      },
    },
    async (request) => getPolicy(ctx, requireAuthz(request), request.query.o, request.params.id),
  );

  app.put(
    '/api/policies/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Replace a policy',
        description:
          'Modify on its type. The whole policy; its type cannot change. Saving a clone clears `needs_configuration`.',
        security,
        querystring: ZZoneQuery,
        params: ZPolicyIdParams,
        body: ZUpdatePolicyBody,
        response: { 200: ZPolicyResponse, ...errors },
      },
    },
    async (request) => updatePolicy(ctx, requireAuthz(request), request.query.o, request.params.id, request.body),
  );

  app.delete(
    '/api/policies/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Delete a policy',
        description: 'Delete on its type. It stops running; its runs and results stay for reports.',
        security,
        querystring: ZZoneQuery,
        params: ZPolicyIdParams,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await deletePolicy(ctx, requireAuthz(request), request.query.o, request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/policies/:id/clone',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Clone a policy (a job)',
        description:
          'Read on the policy and create on its type in each target zone (`target_zone_ids`, uuids; default its own). ' +
          'Copies start inactive and need configuration. 202 with the job; poll `/api/policies/clone-jobs/{jobId}`.',
        security,
        querystring: ZZoneQuery,
        params: ZPolicyIdParams,
        body: ZClonePolicyBody,
        response: { 202: ZCloneJob, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await clonePolicy(ctx, requireAuthz(request), request.query.o, request.params.id, request.body)),
  );
}
