import { toNestErrors } from '@hookform/resolvers';
import type { OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import {
  DEFERRAL_HOURS_DEFAULT,
  MAX_DEFERRALS_DEFAULT,
  rebootModeOf,
  scriptLanguageOf,
  type InstallerFile,
  type RebootMode,
  type ScriptLanguage,
} from '@patchwell/core/policies/policy-configuration.schema';
import type { DeviceFilterField, DeviceFilterOp } from '@patchwell/core/policies/device-filters.schema';
import {
  PATCH_MODE_RULES,
  patchModeOf,
  type AdvancedFilterAttribute,
  type AdvancedFilterCondition,
  type PatchMode,
  type SeverityFilterValue,
} from '@patchwell/core/policies/patch-filters.schema';
import {
  ZCreatePolicyBody,
  type CreatePolicyBody,
  type Policy,
  type PolicyType,
} from '@patchwell/core/policies/policies.schema';
import { EVERY_MONTH, EVERY_WEEK } from '@patchwell/core/policies/policy-schedule.schema';
import { DEFAULT_SCHEDULE_TIMEZONE, type ScheduleTimezone } from '@patchwell/core/policies/timezones';
import { TEXTS } from '@patchwell/core/texts';
import type { Control, FieldError, Resolver } from 'react-hook-form';
import { POLICY_TEXTS } from './policies.texts';

/**
 * The policy form: the API body's own field paths (so the server's and core's field errors
 * land on the right inputs), plus a few screen-only fields — the patch mode, the scheduled
 * switch and the timezone choice — that `toPolicyBody` turns into the API's spelling.
 */

/** The timezone select's value for "each device's local time". */
export const DEVICE_LOCAL_TIME = 'device';

export type DeviceFilterRow = { field: DeviceFilterField | ''; op: DeviceFilterOp | ''; value: string[] };
export type AdvancedRuleRow = {
  left: AdvancedFilterAttribute | '';
  condition: AdvancedFilterCondition | '';
  right: string;
};

export type PolicyFormValues = {
  policy_type_name: PolicyType;
  name: string;
  notes: string;
  is_active: boolean;
  /** Group ids as the multiselect holds them. */
  server_groups: string[];
  is_scheduled: boolean;
  schedule_days: number;
  schedule_weeks_of_month: number;
  schedule_months: number;
  schedule_time: string;
  timezone: ScheduleTimezone | typeof DEVICE_LOCAL_TIME;
  patch_mode: PatchMode;
  configuration: {
    missed_patch_window: boolean;
    device_filters_enabled: boolean;
    device_filters: DeviceFilterRow[];
    auto_patch: boolean;
    include_optional: boolean;
    filters: string[];
    severity_filter: SeverityFilterValue[];
    advanced_filter: AdvancedRuleRow[];
    notify_user: boolean;
    custom_notification_patch_message: string;
    custom_notification_patch_message_mac: string;
    install_deferral_enabled: boolean;
    custom_notification_max_delays: number | string;
    custom_notification_deferment_periods: string[];
    reboot_mode: RebootMode;
    notify_reboot_user: boolean;
    custom_notification_reboot_message: string;
    custom_notification_reboot_message_mac: string;
    pending_reboot_deferral_enabled: boolean;
    custom_pending_reboot_notification_max_delays: number | string;
    custom_pending_reboot_notification_deferment_periods: string[];
    os_family: OsFamily;
    language: ScriptLanguage;
    evaluation_code: string;
    remediation_code: string;
    refresh_before_remediation: boolean;
    package_name: string;
    package_version: string;
    installation_code: string;
    /** The uploaded installer, once the upload finished. */
    installer: InstallerFile | null;
  };
};

/** The form's control, typed with the API body it submits. */
export type PolicyControl = Control<PolicyFormValues, unknown, CreatePolicyBody>;

const hours = (list: readonly number[]) => list.map(String);

/** A new policy of a type: every day at 02:00 UTC, patch all, the spec's deferral defaults. */
export function emptyPolicyForm(type: PolicyType): PolicyFormValues {
  return {
    policy_type_name: type,
    name: '',
    notes: '',
    is_active: true,
    server_groups: [],
    is_scheduled: true,
    schedule_days: 254,
    schedule_weeks_of_month: EVERY_WEEK,
    schedule_months: EVERY_MONTH,
    schedule_time: '02:00',
    timezone: DEFAULT_SCHEDULE_TIMEZONE,
    patch_mode: 'patch_all',
    configuration: {
      missed_patch_window: false,
      device_filters_enabled: false,
      device_filters: [],
      auto_patch: true,
      include_optional: false,
      filters: [],
      severity_filter: [],
      advanced_filter: [],
      notify_user: false,
      custom_notification_patch_message: '',
      custom_notification_patch_message_mac: '',
      install_deferral_enabled: false,
      custom_notification_max_delays: MAX_DEFERRALS_DEFAULT,
      custom_notification_deferment_periods: hours(DEFERRAL_HOURS_DEFAULT),
      reboot_mode: type === 'patch' ? 'when_needed' : 'notify',
      notify_reboot_user: false,
      custom_notification_reboot_message: '',
      custom_notification_reboot_message_mac: '',
      pending_reboot_deferral_enabled: false,
      custom_pending_reboot_notification_max_delays: MAX_DEFERRALS_DEFAULT,
      custom_pending_reboot_notification_deferment_periods: hours(DEFERRAL_HOURS_DEFAULT),
      os_family: 'linux',
      language: 'bash',
      evaluation_code: '',
      remediation_code: '',
      refresh_before_remediation: false,
      package_name: '',
      package_version: 'latest',
      installation_code: '',
      installer: null,
    },
  };
}

/** A stored policy as form values. */
export function policyToForm(policy: Policy): PolicyFormValues {
  const base = emptyPolicyForm(policy.policy_type_name);
  const c = policy.configuration as Record<string, unknown>;
  const str = (key: string) => (typeof c[key] === 'string' ? (c[key] as string) : '');
  const bool = (key: string, fallback: boolean) => (typeof c[key] === 'boolean' ? (c[key] as boolean) : fallback);
  const nums = (key: string, fallback: string[]) =>
    Array.isArray(c[key]) ? (c[key] as number[]).map(String) : fallback;
  const config = base.configuration;
  return {
    ...base,
    name: policy.name,
    notes: policy.notes,
    is_active: policy.status === 'active',
    server_groups: policy.server_groups.map(String),
    is_scheduled: policy.schedule_days !== 0,
    // An unscheduled policy keeps the default days, so switching the schedule on offers them.
    schedule_days: policy.schedule_days || base.schedule_days,
    schedule_weeks_of_month: policy.schedule_weeks_of_month || EVERY_WEEK,
    schedule_months: policy.schedule_months || EVERY_MONTH,
    schedule_time: policy.schedule_time,
    timezone: policy.use_scheduled_timezone ? policy.scheduled_timezone : DEVICE_LOCAL_TIME,
    patch_mode: policy.policy_type_name === 'patch' ? patchModeOf(policy.configuration) : base.patch_mode,
    configuration: {
      ...config,
      missed_patch_window: bool('missed_patch_window', false),
      device_filters_enabled: bool('device_filters_enabled', false),
      device_filters: Array.isArray(c.device_filters) ? (c.device_filters as DeviceFilterRow[]) : [],
      auto_patch: bool('auto_patch', true),
      include_optional: bool('include_optional', false),
      filters: Array.isArray(c.filters) ? (c.filters as string[]) : [],
      severity_filter: Array.isArray(c.severity_filter) ? (c.severity_filter as SeverityFilterValue[]) : [],
      advanced_filter: Array.isArray(c.advanced_filter)
        ? (
            c.advanced_filter as { left: AdvancedFilterAttribute; condition: AdvancedFilterCondition; right: unknown }[]
          ).map((r) => ({ left: r.left, condition: r.condition, right: String(r.right) }))
        : [],
      notify_user: bool('notify_user', false),
      custom_notification_patch_message: str('custom_notification_patch_message'),
      custom_notification_patch_message_mac: str('custom_notification_patch_message_mac'),
      install_deferral_enabled: bool('install_deferral_enabled', false),
      custom_notification_max_delays:
        typeof c.custom_notification_max_delays === 'number' ? c.custom_notification_max_delays : MAX_DEFERRALS_DEFAULT,
      custom_notification_deferment_periods: nums(
        'custom_notification_deferment_periods',
        config.custom_notification_deferment_periods,
      ),
      reboot_mode: rebootModeOf(c as { reboot_mode?: RebootMode; auto_reboot?: boolean }),
      notify_reboot_user: bool('notify_reboot_user', false),
      custom_notification_reboot_message: str('custom_notification_reboot_message'),
      custom_notification_reboot_message_mac: str('custom_notification_reboot_message_mac'),
      pending_reboot_deferral_enabled: bool('pending_reboot_deferral_enabled', false),
      custom_pending_reboot_notification_max_delays:
        typeof c.custom_pending_reboot_notification_max_delays === 'number'
          ? c.custom_pending_reboot_notification_max_delays
          : MAX_DEFERRALS_DEFAULT,
      custom_pending_reboot_notification_deferment_periods: nums(
        'custom_pending_reboot_notification_deferment_periods',
        config.custom_pending_reboot_notification_deferment_periods,
      ),
      os_family: (typeof c.os_family === 'string' ? c.os_family : config.os_family) as OsFamily,
      language:
        typeof c.language === 'string'
          ? (c.language as ScriptLanguage)
          : scriptLanguageOf((c.os_family as OsFamily | undefined) ?? config.os_family),
      evaluation_code: str('evaluation_code'),
      remediation_code: str('remediation_code'),
      refresh_before_remediation: bool('refresh_before_remediation', false),
      package_name: str('package_name'),
      package_version: str('package_version') || config.package_version,
      installation_code: str('installation_code'),
      installer: c.installer && typeof c.installer === 'object' ? (c.installer as InstallerFile) : null,
    },
  };
}

const orNull = (text: string) => (text.trim() ? text : null);
/** '' stays a string so the schema reports it as not a number, with the spec's range text. */
const toNumber = (value: number | string) => (value === '' ? Number.NaN : Number(value));

/**
 * The API body of the form's values. `base` is the stored configuration: fields the form
 * does not edit (notice timeouts) are kept.
 */
export function toPolicyBody(values: PolicyFormValues, base: Record<string, unknown> = {}): unknown {
  const c = values.configuration;
  const common = {
    ...base,
    missed_patch_window: c.missed_patch_window,
    device_filters_enabled: c.device_filters_enabled,
    device_filters: c.device_filters_enabled ? c.device_filters : [],
  };
  const reboot = {
    reboot_mode: c.reboot_mode,
    auto_reboot: c.reboot_mode !== 'notify',
    notify_reboot_user: c.notify_reboot_user,
    custom_notification_reboot_message: orNull(c.custom_notification_reboot_message),
    custom_notification_reboot_message_mac: orNull(c.custom_notification_reboot_message_mac),
    pending_reboot_deferral_enabled: c.pending_reboot_deferral_enabled,
    custom_pending_reboot_notification_max_delays: toNumber(c.custom_pending_reboot_notification_max_delays),
    custom_pending_reboot_notification_deferment_periods:
      c.custom_pending_reboot_notification_deferment_periods.map(Number),
  };
  let configuration: Record<string, unknown>;
  switch (values.policy_type_name) {
    case 'patch': {
      const rule = PATCH_MODE_RULES[values.patch_mode];
      configuration = {
        ...common,
        ...reboot,
        ...rule,
        auto_patch: c.auto_patch,
        include_optional: c.include_optional,
        notify_user: c.notify_user,
        custom_notification_patch_message: orNull(c.custom_notification_patch_message),
        custom_notification_patch_message_mac: orNull(c.custom_notification_patch_message_mac),
        install_deferral_enabled: c.install_deferral_enabled,
        custom_notification_max_delays: toNumber(c.custom_notification_max_delays),
        custom_notification_deferment_periods: c.custom_notification_deferment_periods.map(Number),
      };
      if (rule.filter_type === 'include' || rule.filter_type === 'exclude') configuration.filters = c.filters;
      if (rule.filter_type === 'severity') configuration.severity_filter = c.severity_filter;
      if (rule.patch_rule === 'advanced') {
        configuration.advanced_filter = c.advanced_filter.map((r) => ({
          left: r.left || undefined,
          condition: r.condition || undefined,
          right: r.left === 'patch-days-old' && /^\d+$/.test(r.right.trim()) ? Number(r.right) : r.right,
        }));
      }
      break;
    }
    case 'custom':
      configuration = {
        ...common,
        ...reboot,
        os_family: c.os_family,
        language: c.language,
        evaluation_code: orNull(c.evaluation_code),
        remediation_code: c.remediation_code,
        refresh_before_remediation: c.refresh_before_remediation,
      };
      break;
    case 'required_software':
      configuration = {
        ...common,
        os_family: c.os_family,
        package_name: c.package_name,
        package_version: c.package_version,
        installation_code: orNull(c.installation_code),
        installer: c.installer,
      };
      break;
  }
  const isLocal = values.timezone === DEVICE_LOCAL_TIME;
  return {
    policy_type_name: values.policy_type_name,
    name: values.name,
    notes: values.notes,
    status: values.is_active ? 'active' : 'inactive',
    server_groups: values.server_groups.map(Number),
    schedule_days: values.is_scheduled ? values.schedule_days : 0,
    schedule_weeks_of_month: values.schedule_weeks_of_month,
    schedule_months: values.schedule_months,
    schedule_time: values.schedule_time,
    use_scheduled_timezone: !isLocal,
    scheduled_timezone: isLocal ? DEFAULT_SCHEDULE_TIMEZONE : values.timezone,
    configuration,
  };
}

/**
 * Lists edited as one input (tags, checkboxes, a multiselect): an error on any item shows
 * on the whole input.
 */
const WHOLE_FIELDS = [
  /^(server_groups)\.\d+$/,
  /^(configuration\.(?:filters|severity_filter|custom_notification_deferment_periods|custom_pending_reboot_notification_deferment_periods))\.\d+$/,
  /^(configuration\.device_filters\.\d+\.value)\.\d+$/,
];

function fieldPath(path: PropertyKey[]): string {
  const joined = path.map(String).join('.');
  for (const pattern of WHOLE_FIELDS) {
    const m = pattern.exec(joined);
    if (m) return m[1]!;
  }
  return joined;
}

/** Checks the screen adds to the schema's (a scheduled policy needs a day). */
function screenErrors(values: PolicyFormValues): Record<string, string> {
  const out: Record<string, string> = {};
  if (values.is_scheduled && (values.schedule_days & 0xfe) === 0) out.schedule_days = POLICY_TEXTS.chooseDay;
  return out;
}

/**
 * Validates the form through core's ZCreatePolicyBody (the server's own schema), so both
 * sides give the same messages; answers the API body as the submitted values.
 */
export function policyResolver(base?: Record<string, unknown>): Resolver<PolicyFormValues, unknown, CreatePolicyBody> {
  return (values, _context, options) => {
    const parsed = ZCreatePolicyBody.safeParse(toPolicyBody(values, base));
    const flat: Record<string, FieldError> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = fieldPath(issue.path);
        flat[path] ??= { type: issue.code, message: issue.message };
      }
    }
    for (const [path, message] of Object.entries(screenErrors(values))) flat[path] ??= { type: 'custom', message };
    if (parsed.success && Object.keys(flat).length === 0) return { values: parsed.data, errors: {} };
    return { values: {}, errors: toNestErrors(flat, options) };
  };
}

/** The spec's summary under a form with errors. */
export const FORM_SUMMARY = TEXTS.validation.summary;
