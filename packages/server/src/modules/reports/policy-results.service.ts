import {
  POLICY_RESULTS_DAYS,
  type PolicyResultsDetail,
  type PolicyResultsList,
  type PolicyResultsQuery,
  type PolicyResultsRow,
} from '@patchwell/core/reports/policy-results.schema';
import { ONE_DAY_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { notFound } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { requireZone } from '../zones/zone-access.service';
import {
  findPolicyResult,
  findPolicyResults,
  type PolicyResultsRow as Row,
  type PolicyResultsSort,
} from './policy-results.store';

function toRow(r: Row): PolicyResultsRow {
  return {
    policy_id: r.policyId,
    policy_uuid: r.policyUuid,
    name: r.name,
    policy_type_name: r.type,
    status: r.status,
    runs: r.runs,
    last_run_at: r.lastRunAt?.toISOString() ?? null,
    devices: r.devices,
    success: r.success,
    failed: r.failed,
    pending: r.pending,
    canceled: r.canceled,
  };
}

const sinceOf = (now: Date) => new Date(now.getTime() - POLICY_RESULTS_DAYS * ONE_DAY_MS);

/**
 * `GET /api/reports/policy-results` (Report.read): the zone's policies that ran in the last
 * 30 days (spec B section 9), with their runs and device results by outcome.
 */
export async function listPolicyResults(
  ctx: AppContext,
  authz: Authz,
  query: PolicyResultsQuery,
): Promise<PolicyResultsList> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  const since = sinceOf(ctx.clock.now());
  const [field, dir] = (query.sort ?? 'last_run_at:desc').split(':') as [PolicyResultsSort['field'], 'asc' | 'desc'];
  const { rows, size } = await findPolicyResults(ctx.db, zone.id, since, {
    search: query.search,
    sort: { field, dir },
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return { since: since.toISOString(), data: rows.map(toRow), size };
}

/**
 * `GET /api/reports/policy-results/{policyUuid}` (Report.read): one policy's figures for the
 * last 30 days (its activity is the activity log's, `GET /api/events?object_type=policy`). A
 * policy of another zone, a deleted one and an unknown UUID answer 404; a policy that did not
 * run has zeros.
 */
export async function getPolicyResult(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  policyUuid: string,
): Promise<PolicyResultsDetail> {
  const zone = await requireZone(ctx, authz, o, 'Report', 'read');
  const since = sinceOf(ctx.clock.now());
  const row = await findPolicyResult(ctx.db, zone.id, policyUuid, since);
  if (!row) throw notFound();
  return { since: since.toISOString(), policy: toRow(row) };
}
