import { z } from 'zod';
import { PLANS } from '../rules/tiers';
import { FEATURE_FLAG_NAMES, isFeatureFlag, type FeatureFlag } from './flags';

const flagShape = <T extends z.ZodType>(value: T) =>
  Object.fromEntries(FEATURE_FLAG_NAMES.map((f) => [f, value])) as Record<FeatureFlag, T>;

/** Every flag with its value. */
export const ZFeatureValues = z.object(flagShape(z.boolean()));
/** Overrides set at one level: only the flags that level sets. */
export const ZFeatureOverrides = z.object(flagShape(z.boolean().optional())).strict();

/**
 * A level's flags as a global administrator manages them: the server's defaults
 * (core's, then `PATCHWELL_FLAGS`), the account's overrides, the zone's (zone routes only),
 * and the values in effect there.
 */
export const ZFeatureFlagsState = z.object({
  defaults: ZFeatureValues,
  account: ZFeatureOverrides,
  /** Zone routes only. */
  zone: ZFeatureOverrides.optional(),
  effective: ZFeatureValues,
});
export type FeatureFlagsState = z.infer<typeof ZFeatureFlagsState>;

/**
 * `PUT …/flags`: flags to change at that level. `true`/`false` sets an override; `null`
 * removes it (the level above decides again). Flags left out keep their override; `{}` changes nothing.
 */
export const ZPutFeatureFlagsBody = z.strictObject(flagShape(z.boolean().nullable().optional()), {
  error: 'Unknown feature flag.',
});
export type PutFeatureFlagsBody = z.infer<typeof ZPutFeatureFlagsBody>;

/** `PUT /api/accounts/{accountId}/zones/{zoneId}/plan`: the zone's plan until billing sets it. */
export const ZPutZonePlanBody = z.object({
  plan: z.enum(PLANS, { error: `The plan must be one of ${PLANS.join(', ')}.` }),
});
export type PutZonePlanBody = z.infer<typeof ZPutZonePlanBody>;
export const ZZonePlan = z.object({ zone_id: z.number().int(), plan: z.enum(PLANS) });
export type ZonePlan = z.infer<typeof ZZonePlan>;

/**
 * Parses `PATCHWELL_FLAGS` (`global_devices_table=1,remote_control=0`): the server's
 * defaults over core's. Values 1/0, true/false, on/off, yes/no.
 * @returns the flags set, or the problems found (unknown flag, bad value).
 */
export function parseFlagDefaults(
  value: string,
): { ok: true; flags: Partial<Record<FeatureFlag, boolean>> } | { ok: false; problems: string[] } {
  const flags: Partial<Record<FeatureFlag, boolean>> = {};
  const problems: string[] = [];
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name = '', raw = ''] = part.split('=').map((s) => s.trim());
    const on = ['1', 'true', 'on', 'yes'].includes(raw.toLowerCase());
    const off = ['0', 'false', 'off', 'no'].includes(raw.toLowerCase());
    if (!isFeatureFlag(name)) problems.push(`unknown feature flag "${name}"`);
    else if (!on && !off) problems.push(`${name} must be 1 or 0 (got "${raw}")`);
    else flags[name] = on;
  }
  return problems.length ? { ok: false, problems } : { ok: true, flags };
}
