import { ZCreatePolicyBody } from '@patchwell/core/policies/policies.schema';
import { rebootModeOf } from '@patchwell/core/policies/policy-configuration.schema';
import { describe, expect, it } from 'vitest';
import { buildPolicy } from './policies.factories';
import { DEVICE_LOCAL_TIME, emptyPolicyForm, policyToForm, toPolicyBody } from './policy-form';

/** The stored fields a PUT sends back, for comparing a round trip. */
function editable(policy: ReturnType<typeof buildPolicy>) {
  const {
    id: _id,
    uuid: _u,
    organization_id: _o,
    create_time: _c,
    server_count: _s,
    next_run_time: _n,
    ...rest
  } = policy;
  const {
    needs_configuration: _nc,
    compliance: _cp,
    community_worklet_id: _cw,
    ...body
  } = rest as typeof rest & {
    compliance: unknown;
    community_worklet_id?: unknown;
  };
  return ZCreatePolicyBody.parse(body);
}

describe('policy form values', () => {
  it.each([
    [
      'a severity patch policy in a fixed zone',
      buildPolicy({
        schedule_days: 2 | 64,
        schedule_weeks_of_month: 4,
        schedule_months: 2 | 4096,
        schedule_time: '05:45',
        scheduled_timezone: 'UTC+0545',
        configuration: {
          patch_rule: 'filter',
          filter_type: 'severity',
          severity_filter: ['critical', 'no_known_cves'],
          notify_user: true,
          install_deferral_enabled: true,
          custom_notification_deferment_periods: [2, 12, 24],
          custom_notification_max_delays: 10,
          device_filters_enabled: true,
          device_filters: [{ field: 'hostname', op: 'like_any', value: ['web', 'db'] }],
        },
      }),
    ],
    [
      'an advanced patch policy in local time',
      buildPolicy({
        use_scheduled_timezone: false,
        configuration: {
          patch_rule: 'advanced',
          advanced_filter: [
            { left: 'patch-days-old', condition: 'greater-than-or-equal-to', right: 30 },
            { left: 'severity', condition: 'is', right: 'critical' },
          ],
          reboot_mode: 'auto',
        },
      }),
    ],
    [
      'an unscheduled worklet',
      buildPolicy({
        policy_type_name: 'custom',
        status: 'inactive',
        schedule_days: 0,
        configuration: {
          os_family: 'windows',
          language: 'powershell',
          evaluation_code: 'exit 1',
          remediation_code: 'Write-Output fixed',
          missed_patch_window: true,
        },
      }),
    ],
    [
      'a required-software policy with an installer',
      buildPolicy({
        policy_type_name: 'required_software',
        configuration: {
          os_family: 'mac',
          package_name: 'firefox',
          package_version: '128.0',
          installation_code: 'installer -pkg firefox.pkg -target /',
          installer: { id: 'f1', name: 'firefox.pkg', size_bytes: 1000, sha256: 'a'.repeat(64) },
        },
      }),
    ],
  ])('round-trip %s unchanged', (_name, policy) => {
    const form = policyToForm(policy);
    const body = ZCreatePolicyBody.parse(toPolicyBody(form, policy.configuration as Record<string, unknown>));
    // Nothing stored is lost or changed; the form may spell out defaults (null messages, reboot_mode).
    expect(body).toMatchObject(editable(policy));
    expect(rebootModeOf(body.configuration as object)).toBe(rebootModeOf(policy.configuration as object));
  });

  it('runs a local-time schedule in each device’s zone and keeps the days of an unscheduled policy', () => {
    const form = policyToForm(buildPolicy({ use_scheduled_timezone: false, schedule_days: 0 }));
    expect(form.timezone).toBe(DEVICE_LOCAL_TIME);
    expect(form.is_scheduled).toBe(false);
    expect(form.schedule_days).toBe(254);
    expect(toPolicyBody(form)).toMatchObject({ schedule_days: 0, use_scheduled_timezone: false });
  });

  it('starts new policies with the spec’s deferral defaults (1, 4, 8 hours; 6 deferrals)', () => {
    const body = ZCreatePolicyBody.parse(toPolicyBody({ ...emptyPolicyForm('patch'), name: 'New' }));
    expect(body.configuration).toMatchObject({
      custom_notification_deferment_periods: [1, 4, 8],
      custom_notification_max_delays: 6,
      custom_pending_reboot_notification_deferment_periods: [1, 4, 8],
      custom_pending_reboot_notification_max_delays: 6,
    });
  });
});
