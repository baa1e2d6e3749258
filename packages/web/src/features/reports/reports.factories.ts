import type { ActivityEvent } from '@patchwell/core/activity/activity.schema';
import type { DataExtract } from '@patchwell/core/reports/extracts.schema';
import type { PolicyResultsRow } from '@patchwell/core/reports/policy-results.schema';
import type {
  NeedsAttentionDevice,
  Overview,
  OverviewDay,
  PrepatchDevice,
  PrepatchReport,
} from '@patchwell/core/reports/reports.schema';

/** Report payloads as the API answers them, for the Reports pages' tests. */

export function buildOverview(days: Partial<OverviewDay>[], overrides: Partial<Overview> = {}): Overview {
  const built = days.map((d, i) => ({
    date: `2026-11-${String(15 + i).padStart(2, '0')}`,
    compliant: 3,
    not_compliant: 2,
    total: 5,
    patches_installed: 0,
    failures: 0,
    ...d,
  }));
  return {
    start_date: built[0]!.date,
    end_date: built.at(-1)!.date,
    computed_at: '2026-11-25T12:00:00.000Z',
    days: built,
    devices: {
      total: 5,
      online: 4,
      offline: 1,
      needs_reboot: 1,
      compliant: 3,
      pending: 1,
      needs_attention: 1,
      with_pending_patches: 2,
    },
    ...overrides,
  };
}

export function buildPrepatchDevice(overrides: Partial<PrepatchDevice> = {}): PrepatchDevice {
  return {
    id: 1,
    name: 'web-1',
    hostname: 'web-1',
    os_family: 'linux',
    os_name: 'Debian GNU/Linux',
    group_id: 1,
    group_name: 'Default',
    compliance: 'needs_attention',
    pending_patches: 2,
    critical: 1,
    high: 1,
    medium: 0,
    low: 0,
    other: 0,
    oldest_published_at: '2026-10-01T00:00:00.000Z',
    oldest_age_days: 55,
    ...overrides,
  };
}

export function buildPrepatchReport(data: PrepatchDevice[], overrides: Partial<PrepatchReport> = {}): PrepatchReport {
  return {
    summary: {
      total: { devices: 2, patches: 3 },
      by_severity: [
        { severity: 'critical', devices: 1, patches: 1 },
        { severity: 'high', devices: 2, patches: 2 },
        { severity: 'medium', devices: 0, patches: 0 },
        { severity: 'low', devices: 0, patches: 0 },
        { severity: 'none', devices: 0, patches: 0 },
        { severity: 'unknown', devices: 0, patches: 0 },
      ],
      by_age: [
        { bucket: '0-15', devices: 1, patches: 1 },
        { bucket: '16-30', devices: 0, patches: 0 },
        { bucket: '31-60', devices: 1, patches: 1 },
        { bucket: '61-89', devices: 0, patches: 0 },
        { bucket: '90+', devices: 1, patches: 1 },
        { bucket: 'unknown', devices: 0, patches: 0 },
      ],
    },
    data,
    size: data.length,
    computed_at: '2026-11-25T12:00:00.000Z',
    ...overrides,
  };
}

export function buildNeedsAttentionDevice(overrides: Partial<NeedsAttentionDevice> = {}): NeedsAttentionDevice {
  return {
    id: 1,
    name: 'web-1',
    hostname: 'web-1',
    os_family: 'linux',
    os_name: 'Debian GNU/Linux',
    group_id: 1,
    group_name: 'Default',
    compliance: 'needs_attention',
    compliance_reason: '1 Critical patch pending, and no policy has run on this device.',
    pending_patches: 1,
    needs_reboot: false,
    last_seen_at: '2026-11-25T11:00:00.000Z',
    ...overrides,
  };
}

export function buildPolicyResultsRow(overrides: Partial<PolicyResultsRow> = {}): PolicyResultsRow {
  return {
    policy_id: 7,
    policy_uuid: '11111111-1111-4111-8111-111111111111',
    name: 'Nightly',
    policy_type_name: 'patch',
    status: 'active',
    runs: 2,
    last_run_at: '2026-11-24T02:00:00.000Z',
    devices: 3,
    success: 4,
    failed: 1,
    pending: 1,
    canceled: 0,
    ...overrides,
  };
}

export function buildExtract(overrides: Partial<DataExtract> = {}): DataExtract {
  return {
    id: 1,
    kind: 'patch_history',
    preset: 'last7days',
    start_date: '2026-11-19',
    end_date: '2026-11-25',
    status: 'ready',
    progress: 100,
    row_count: 42,
    error: null,
    requested_by: 'ada@example.com',
    created_at: '2026-11-25T10:00:00.000Z',
    started_at: '2026-11-25T10:00:01.000Z',
    finished_at: '2026-11-25T10:00:03.000Z',
    expires_at: '2026-12-02T10:00:03.000Z',
    ...overrides,
  };
}

/**
 * jsdom has no layout, so every chart measures 0 × 0 and recharts warns about it once per
 * render. The tests read the tables beside the charts; this keeps their output readable.
 */
export function quietChartSizeWarnings(): () => void {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('of chart should be greater than 0')) return;
    warn(...args);
  };
  return () => {
    console.warn = warn;
  };
}

export function buildActivityEvent(overrides: Partial<ActivityEvent> = {}): ActivityEvent {
  return {
    id: 1,
    created_at: '2026-03-02T08:15:00.000Z',
    organization_id: 1,
    actor: { type: 'user', user_id: 7, api_key_id: null, device_id: null, name: 'ada@example.com' },
    via: 'session',
    action: 'device.reboot',
    object: { type: 'device', id: '42', name: 'web-1' },
    details: { changes: { notes: { from: '', to: 'checked' } } },
    summary: 'notes: — → checked',
    client_address: '203.0.113.9',
    ...overrides,
  };
}
