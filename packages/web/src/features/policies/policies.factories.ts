import {
  ZPolicyWithCompliance,
  type PolicyRunDetailLenient as PolicyRunDetail,
  type PolicyWithCompliance,
} from '@patchwell/core/policies/policy-responses.schema';

/** Test rows in the API's shapes (validated by the same schemas the console parses them with). */

let nextId = 500;

/** A patch-all policy as GET /api/policies returns it; `overrides` may change any field. */
export function buildPolicy(overrides: Record<string, unknown> = {}): PolicyWithCompliance {
  const id = (overrides.id as number | undefined) ?? nextId++;
  return ZPolicyWithCompliance.parse({
    id,
    uuid: `policy-${id}`,
    organization_id: 1,
    create_time: '2026-11-01T00:00:00Z',
    server_count: 3,
    next_run_time: '2026-11-22T02:00:00Z',
    needs_configuration: false,
    name: `Policy ${id}`,
    notes: '',
    server_groups: [1],
    status: 'active',
    schedule_days: 254,
    schedule_weeks_of_month: 62,
    schedule_months: 8190,
    schedule_time: '02:00',
    use_scheduled_timezone: true,
    scheduled_timezone: 'UTC+0000',
    policy_type_name: 'patch',
    configuration: { patch_rule: 'all' },
    compliance: { compliant: 1, non_compliant: 1, pending: 1 },
    ...overrides,
  });
}

/** A run as GET /api/policies/{id}/runs/{runId} returns it. */
export function buildRun(overrides: Partial<PolicyRunDetail> = {}): PolicyRunDetail {
  return {
    id: 900,
    policy_id: 1,
    policy_uuid: 'policy-1',
    organization_id: 1,
    status: 'queued',
    trigger: 'manual',
    scheduled_for: null,
    created_by: 7,
    create_time: '2026-11-21T10:00:00Z',
    finished_at: null,
    device_count: 2,
    results: { success: 0, in_progress: 0, error: 0, pending: 2, timed_out: 0, canceled: 0 },
    timezone: null,
    queued_at: null,
    error_message: null,
    ...overrides,
  };
}
