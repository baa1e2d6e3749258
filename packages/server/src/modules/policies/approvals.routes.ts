import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import { requireAuthz } from '../../http/authz';
import { decide, listApprovals, listManualApprovals } from './approvals.service';
import type { PoliciesCtx } from './policies.context';
import {
  ZApproval,
  ZApprovalDecisionBody,
  ZApprovalList,
  ZListApprovalsQuery,
} from '@patchwell/core/policies/policy-runs.schema';
import { ZApprovalIdParams } from '@patchwell/core/policies/policy-params.schema';
import { ZManualApprovalList } from '@patchwell/core/policies/policy-responses.schema';

const tags = ['policies'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** Manual approval of patches (`/api/approvals`, the console's `/policy-manual-approval`). */
export async function approvalsRoutes(root: FastifyInstance, ctx: PoliciesCtx): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/approvals',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Patches of manual-approval policies',
        description: 'PatchPolicy.read. `{ size, results }`; filters `status` (default pending) and `policy`.',
        security,
        querystring: ZListApprovalsQuery,
        response: { 200: ZApprovalList, ...errors },
      },
    },
    async (request) => listApprovals(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/policy-manual-approval',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Patches waiting for approval, per policy',
        description: 'PatchPolicy.read. Every manual-approval policy with its pending patches.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZManualApprovalList, ...errors },
      },
    },
    async (request) => listManualApprovals(ctx, requireAuthz(request), request.query.o),
  );

  app.put(
    '/api/approvals/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Approve or reject a patch',
        description:
          'Approval.create. `manual_approval` true approves, false rejects; an approved patch installs at the policy’s next run.',
        security,
        querystring: ZZoneQuery,
        params: ZApprovalIdParams,
        body: ZApprovalDecisionBody,
        response: { 200: ZApproval, ...errors },
      },
    },
    async (request) =>
      decide(ctx, requireAuthz(request), request.query.o, request.params.id, request.body.manual_approval),
  );
}
