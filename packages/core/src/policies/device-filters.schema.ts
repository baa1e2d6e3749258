import { z } from 'zod';
import { TEXTS } from '../texts';

/**
 * Device filters of a policy (FIELD-NOTES 3.1, the family's `device_filters`): each is
 * `{field, op, value[]}`; see device-targeting.ts for how they match.
 */

/** Device fields a filter can test. */
export const DEVICE_FILTER_FIELDS = ['tag', 'hostname', 'ip_addr', 'os_family', 'os_version'] as const;
export const ZDeviceFilterField = z.enum(DEVICE_FILTER_FIELDS, { error: TEXTS.validation.required });
export type DeviceFilterField = z.infer<typeof ZDeviceFilterField>;

/** Operators, as the family's API names them. */
export const DEVICE_FILTER_OPS = ['in', 'not_in', 'like_any', 'not_like_any'] as const;
export const ZDeviceFilterOp = z.enum(DEVICE_FILTER_OPS, { error: TEXTS.validation.required });
export type DeviceFilterOp = z.infer<typeof ZDeviceFilterOp>;

/** The console's words for each operator. */
export const DEVICE_FILTER_OP_LABELS: Record<DeviceFilterOp, string> = {
  in: 'is',
  not_in: 'is not',
  like_any: 'contains',
  not_like_any: 'does not contain',
};

/** Most filters on one policy, and most values in one filter. */
export const DEVICE_FILTERS_MAX = 20;
export const DEVICE_FILTER_VALUES_MAX = 100;

/** One device filter; the spec wants it complete: field, operator and at least one value. */
export const ZDeviceFilter = z.object({
  /** The device field tested. */
  field: ZDeviceFilterField,
  /** How: `in` is, `not_in` is not, `like_any` contains, `not_like_any` does not contain. */
  op: ZDeviceFilterOp,
  /** Values, at least one; the filter holds when any value matches (for the negative ops: none). */
  value: z
    .array(z.string().trim().min(1, TEXTS.validation.required).max(255))
    .min(1, TEXTS.validation.atLeastOne)
    .max(DEVICE_FILTER_VALUES_MAX),
});
export type DeviceFilter = z.infer<typeof ZDeviceFilter>;

/** A policy's device filters. */
export const ZDeviceFilters = z.array(ZDeviceFilter).max(DEVICE_FILTERS_MAX);

/**
 * `POST /api/policies/device-filters-preview?o=`: the devices a policy would hit before it
 * is saved (its groups and filters).
 */
export const ZDeviceFiltersPreviewBody = z.object({
  /** Target groups; with none the policy targets no device. */
  server_groups: z.array(z.number().int().positive()).max(1000).default([]),
  /** Device filters, all of which must hold. */
  device_filters: ZDeviceFilters.default([]),
});
export type DeviceFiltersPreviewBody = z.infer<typeof ZDeviceFiltersPreviewBody>;
