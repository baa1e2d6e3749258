import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { TEXTS } from '../texts';
import { ZDeviceFilter } from './device-filters.schema';
import { PATCH_MODE_RULES, PATCH_MODES, ZAdvancedFilter, patchModeOf } from './patch-filters.schema';
import {
  POLICY_NAME_MAX_LENGTH,
  ZClonePolicyBody,
  ZCreatePolicyBody,
  ZPolicyActionBody,
  actionDeviceIds,
  type CreatePolicyInput,
} from './policies.schema';
import {
  ZCustomConfiguration,
  ZPatchConfiguration,
  ZRequiredSoftwareConfiguration,
  rebootModeOf,
} from './policy-configuration.schema';
import { approvalStatusOf, executionBanner } from './policy-runs.schema';
import { EVERY_DAY, daysOfMask, maskOfDays, ZPolicySchedule } from './policy-schedule.schema';
import { SCHEDULE_TIMEZONES, parseUtcOffset } from './timezones';

/** Messages of a failed parse, keyed by path. */
function errors(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const r = schema.safeParse(value);
  if (r.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of r.error.issues) (out[issue.path.join('.')] ??= []).push(issue.message);
  return out;
}

const PATCH_ALL: CreatePolicyInput = {
  name: 'Patch everything',
  policy_type_name: 'patch',
  schedule_days: 64,
  schedule_weeks_of_month: 4,
  schedule_months: 8190,
  schedule_time: '02:00',
  use_scheduled_timezone: true,
  scheduled_timezone: 'UTC+0000',
  server_groups: [1],
  configuration: { patch_rule: 'all', auto_reboot: true },
};

describe('ZCreatePolicyBody', () => {
  it('accepts a family-shaped patch policy and fills the defaults', () => {
    const p = ZCreatePolicyBody.parse(PATCH_ALL);
    expect(p.status).toBe('active');
    expect(p.notes).toBe('');
    if (p.policy_type_name !== 'patch') throw new Error('type');
    expect(p.configuration.custom_notification_deferment_periods).toEqual([1, 4, 8]);
    expect(p.configuration.custom_notification_max_delays).toBe(6);
    expect(p.configuration.notify_user_message_timeout).toBe(15);
    expect(p.configuration.missed_patch_window).toBe(false);
    expect(rebootModeOf(p.configuration)).toBe('when_needed');
  });

  it("gives the spec's messages for name, device filters and advanced rules", () => {
    expect(errors(ZCreatePolicyBody, { ...PATCH_ALL, name: '  ' })).toEqual({ name: [TEXTS.validation.required] });
    expect(errors(ZCreatePolicyBody, { ...PATCH_ALL, name: 'x'.repeat(POLICY_NAME_MAX_LENGTH + 1) }).name).toHaveLength(
      1,
    );
    expect(errors(ZDeviceFilter, { field: 'tag', op: 'in', value: [] })).toEqual({
      value: [TEXTS.validation.atLeastOne],
    });
    expect(errors(ZDeviceFilter, { value: ['a'] })).toEqual({
      field: [TEXTS.validation.required],
      op: [TEXTS.validation.required],
    });
    expect(errors(ZAdvancedFilter, {})).toEqual({
      left: [TEXTS.validation.required],
      condition: [TEXTS.validation.required],
      right: [TEXTS.validation.required],
    });
  });

  it('checks each advanced rule against its attribute', () => {
    expect(
      ZAdvancedFilter.safeParse({ left: 'severity', condition: 'greater-than-or-equal-to', right: 'high' }).success,
    ).toBe(true);
    expect(errors(ZAdvancedFilter, { left: 'display-name', condition: 'is', right: 'x' })).toHaveProperty('condition');
    expect(
      errors(ZAdvancedFilter, { left: 'severity', condition: 'less-than-or-equal-to', right: 'unknown' }),
    ).toHaveProperty('right');
    expect(errors(ZAdvancedFilter, { left: 'patch-days-old', condition: 'less-than', right: 181 })).toEqual({
      right: [TEXTS.validation.numberBetween(1, 180)],
    });
    expect(errors(ZAdvancedFilter, { left: 'patch-os', condition: 'is', right: 'beos' })).toHaveProperty('right');
  });

  it('validates deferral options: 1–24, unique, at least one, up to 3; max deferrals 1–10', () => {
    const periods = (v: unknown) =>
      errors(ZPatchConfiguration, { patch_rule: 'all', custom_notification_deferment_periods: v })[
        'custom_notification_deferment_periods'
      ];
    expect(periods([2, 6])).toBeUndefined();
    expect(periods([])).toEqual([TEXTS.validation.atLeastOne]);
    expect(periods([1, 4, 8, 12])).toEqual(['Choose at most 3 deferral options.']);
    expect(periods([4, 4])).toEqual(['Each deferral option must be different.']);
    expect(errors(ZPatchConfiguration, { patch_rule: 'all', custom_notification_deferment_periods: [25] })).toEqual({
      'custom_notification_deferment_periods.0': [TEXTS.validation.numberBetween(1, 24)],
    });
    expect(errors(ZPatchConfiguration, { patch_rule: 'all', custom_notification_max_delays: 0 })).toEqual({
      custom_notification_max_delays: [TEXTS.validation.numberBetween(1, 10)],
    });
  });

  it('limits notification messages to 125 characters (70 on macOS)', () => {
    expect(
      errors(ZPatchConfiguration, { patch_rule: 'all', custom_notification_patch_message: 'x'.repeat(125) }),
    ).toEqual({});
    expect(
      errors(ZPatchConfiguration, { patch_rule: 'all', custom_notification_patch_message: 'x'.repeat(126) }),
    ).toHaveProperty('custom_notification_patch_message');
    expect(
      errors(ZPatchConfiguration, { patch_rule: 'all', custom_notification_reboot_message_mac: 'x'.repeat(71) }),
    ).toHaveProperty('custom_notification_reboot_message_mac');
  });

  it('requires filters for patch only / all except, severities for by-severity, rules for advanced', () => {
    expect(errors(ZPatchConfiguration, { patch_rule: 'filter', filter_type: 'include', filters: [] })).toEqual({
      filters: [TEXTS.validation.atLeastOne],
    });
    expect(errors(ZPatchConfiguration, { patch_rule: 'filter', filter_type: 'severity', severity_filter: [] })).toEqual(
      {
        severity_filter: [TEXTS.validation.atLeastOne],
      },
    );
    expect(errors(ZPatchConfiguration, { patch_rule: 'advanced', advanced_filter: [] })).toEqual({
      advanced_filter: [TEXTS.validation.atLeastOne],
    });
  });

  it('maps every patch mode to its patch_rule/filter_type and back', () => {
    for (const mode of PATCH_MODES) expect(patchModeOf(PATCH_MODE_RULES[mode])).toBe(mode);
  });

  it('takes a worklet with the family spelling of the OS and checks its language', () => {
    const c = ZCustomConfiguration.parse({ os_family: 'Windows', remediation_code: 'Exit 0\n' });
    expect(c.remediation_code).toBe('Exit 0\n');
    expect(c.os_family).toBe('windows');
    expect(c.evaluation_code).toBe(null);
    expect(
      errors(ZCustomConfiguration, { os_family: 'Linux', remediation_code: 'true', language: 'powershell' }),
    ).toHaveProperty('language');
    expect(errors(ZCustomConfiguration, { os_family: 'Linux', remediation_code: ' ' })).toEqual({
      remediation_code: [TEXTS.validation.namedRequired('Remediation code')],
    });
  });

  it('requires an install command with an uploaded installer', () => {
    const base = { package_name: 'Firefox', package_version: '125.0', os_family: 'windows' };
    expect(ZRequiredSoftwareConfiguration.safeParse(base).success).toBe(true);
    const installer = { id: 'f1', name: 'firefox.msi', size_bytes: 1000, sha256: 'a'.repeat(64) };
    expect(errors(ZRequiredSoftwareConfiguration, { ...base, installer })).toEqual({
      installation_code: [TEXTS.validation.namedRequired('Install command')],
    });
    expect(
      ZRequiredSoftwareConfiguration.safeParse({ ...base, installer, installation_code: 'msiexec /i firefox.msi /qn' })
        .success,
    ).toBe(true);
  });
});

describe('schedule fields', () => {
  it('reads the bitmask with bit 1 as Monday and rejects bit 0', () => {
    expect(daysOfMask(42)).toEqual(['monday', 'wednesday', 'friday']);
    expect(maskOfDays(['monday', 'sunday'])).toBe(130);
    expect(daysOfMask(EVERY_DAY)).toHaveLength(7);
    const base = { schedule_time: '02:00', use_scheduled_timezone: false };
    expect(errors(ZPolicySchedule, { ...base, schedule_days: 3 })).toHaveProperty('schedule_days');
    expect(errors(ZPolicySchedule, { ...base, schedule_days: 256 })).toHaveProperty('schedule_days');
    expect(errors(ZPolicySchedule, { ...base, schedule_days: 2, schedule_time: '24:00' })).toHaveProperty(
      'schedule_time',
    );
    expect(ZPolicySchedule.parse({ ...base, schedule_days: 0 })).toMatchObject({
      schedule_weeks_of_month: 62,
      schedule_months: 8190,
      scheduled_timezone: 'UTC+0000',
    });
  });

  it('offers 38 timezones from UTC-1200 to UTC+1400', () => {
    expect(SCHEDULE_TIMEZONES).toHaveLength(38);
    expect(new Set(SCHEDULE_TIMEZONES).size).toBe(38);
    const offsets = SCHEDULE_TIMEZONES.map((t) => parseUtcOffset(t));
    expect(offsets[0]).toBe(-720);
    expect(offsets.at(-1)).toBe(840);
    expect(offsets).toEqual([...offsets].sort((a, b) => a! - b!));
    expect(offsets).toContain(345);
  });
});

describe('actions, clone, approvals, banner', () => {
  it('runs now on all devices or chosen ones', () => {
    expect(actionDeviceIds(ZPolicyActionBody.parse({ action: 'remediateAll' }))).toBe(null);
    expect(
      actionDeviceIds(ZPolicyActionBody.parse({ action: 'remediateServer', serverId: 7, serverIds: [7, 8] })),
    ).toEqual([7, 8]);
    expect(errors(ZPolicyActionBody, { action: 'remediateServer' })).toEqual({ serverId: ['Choose a device.'] });
  });

  it('clones into zones named by uuid', () => {
    expect(ZClonePolicyBody.safeParse({}).success).toBe(true);
    expect(ZClonePolicyBody.safeParse({ target_zone_ids: ['not-a-uuid'] }).success).toBe(false);
  });

  it('names approval states from manual_approval', () => {
    expect([null, true, false].map((v) => approvalStatusOf(v))).toEqual(['pending', 'approved', 'rejected']);
  });

  it("shows the spec's banner texts", () => {
    expect(executionBanner('error', 42).text).toBe('Error code: 42');
    expect(executionBanner('error').text).toBe('An unknown error occurred.');
    expect(executionBanner('timeout').text).toBe('The execution timed out.');
    expect(executionBanner('weird')).toEqual({
      state: 'unknown',
      kind: 'alert',
      text: 'Execution is in unrecognized state: weird',
    });
    expect(executionBanner('running').kind).toBe('in-progress');
  });
});
