import type { ServerGroup } from '@patchwell/core/devices/groups.schema';
import type { CreatePolicyBody } from '@patchwell/core/policies/policies.schema';
import { rebootModeOf } from '@patchwell/core/policies/policy-configuration.schema';
import { EVERY_MONTH, EVERY_WEEK, WEEKDAYS, daysOfMask } from '@patchwell/core/policies/policy-schedule.schema';
import { POLICY_TEXTS as T } from './policies.texts';

const R = T.review;

/** Bits 1…n of a mask, as labels (bit 1 is the first label). */
function bitsOf(mask: number, labels: readonly string[]): string[] {
  return labels.filter((_, i) => (mask & (1 << (i + 1))) !== 0);
}

function whatItDoes(body: CreatePolicyBody): string {
  const c = body.configuration;
  switch (body.policy_type_name) {
    case 'patch':
      return R.patchRules[(c as { patch_rule: string }).patch_rule] ?? R.patchRules.advanced!;
    case 'custom':
      return R.worklet;
    case 'required_software': {
      const { package_name, package_version } = c as { package_name: string; package_version: string };
      return R.requiredSoftware(package_name, package_version);
    }
  }
}

function targets(body: CreatePolicyBody, groups: readonly ServerGroup[]): string {
  if (body.server_groups.length === 0) return R.noTargets;
  const names = body.server_groups.map((id) => groups.find((g) => g.id === id)?.name ?? `#${id}`);
  const c = body.configuration as { device_filters_enabled?: boolean; device_filters?: unknown[] };
  const filters = c.device_filters_enabled ? (c.device_filters?.length ?? 0) : 0;
  return R.groups(names) + (filters > 0 ? R.narrowedBy(filters) : '');
}

function schedule(body: CreatePolicyBody): string {
  if (body.schedule_days === 0) return T.onDemand;
  const days = daysOfMask(body.schedule_days).map((d) => T.dayNames[WEEKDAYS.indexOf(d)]!);
  const weeks = body.schedule_weeks_of_month ?? EVERY_WEEK;
  const months = body.schedule_months ?? EVERY_MONTH;
  const where = body.use_scheduled_timezone ? body.scheduled_timezone : T.deviceLocalTime.toLowerCase();
  return R.schedule({
    days,
    weeks: weeks === EVERY_WEEK || weeks === 0 ? null : bitsOf(weeks, T.weekLabels),
    months: months === EVERY_MONTH || months === 0 ? null : bitsOf(months, T.monthNames),
    time: body.schedule_time,
    where,
  });
}

function reboot(body: CreatePolicyBody): string {
  const c = body.configuration as { reboot_mode?: 'auto' | 'when_needed' | 'notify' | null; auto_reboot?: boolean };
  if (!('reboot_mode' in c) && !('auto_reboot' in c)) return R.noReboot;
  return T.rebootModes[rebootModeOf(c)]!;
}

/**
 * What a new policy will do, in the words a person checks before the first save: what it
 * installs or runs, where, when, and whether devices reboot.
 */
export function policySummary(
  body: CreatePolicyBody,
  groups: readonly ServerGroup[],
): { label: string; value: string }[] {
  return [
    { label: R.does, value: whatItDoes(body) },
    { label: T.targets, value: targets(body, groups) },
    { label: T.schedule, value: body.status === 'inactive' ? R.inactive : schedule(body) },
    { label: T.rebootMode, value: reboot(body) },
  ];
}
