import { z } from 'zod';
import { ZOsFamily, ZPatchSeverity } from '../agent/agent-protocol.schema';
import { ID_MAX } from '../constants';
import { ZCompliance } from '../devices/devices.schema';
import { ZPaging } from '../paging.schema';
import { isValidDate } from '../rules/datetime';
import { DATE_RANGE_ERRORS } from './date-range';
import { PATCH_AGE_BUCKETS } from './patch-age';

/**
 * The Reports pages' payloads (issue 12; spec B sections 2, 3, 9): the overview, the
 * prepatch report, the devices that need attention and the patch history behind the
 * overview's daily figures. Days are UTC days (`YYYY-MM-DD`); every count is over the zone's
 * enrolled devices (removed ones left out).
 */

const id = z.coerce.number().int().positive().max(ID_MAX);
const zoneFields = {
  /** The zone (alias `org`). */
  o: id.optional(),
  /** Alias of `o`. */
  org: id.optional(),
};
const day = z.string().refine(isValidDate, DATE_RANGE_ERRORS.invalid);
const search = z.string().trim().max(200).optional();

/** Days the overview starts back by default (spec A section 9, B section 7). */
export const OVERVIEW_DAYS_BACK = 10;

/** Commands that install patches: what "patches installed" and "failures" count, and the patch history lists. */
export const PATCH_COMMAND_TYPES = ['install_updates', 'install_all', 'install_package'] as const;

// ---------------------------------------------------------------- overview

/** `GET /api/reports/overview?o&startDate` (`internal=1` as the console sends it is accepted and ignored). */
export const ZOverviewQuery = z
  .object({
    ...zoneFields,
    /** First day shown, YYYY-MM-DD (UTC), at most 90 days back; default 10 days back. */
    startDate: day.optional(),
    internal: z.coerce.number().int().optional(),
  })
  .loose()
  .transform(({ o, org, startDate }) => ({ o: o ?? org, startDate }));
export type OverviewQuery = z.infer<typeof ZOverviewQuery>;

/** One day of the overview. */
export const ZOverviewDay = z.object({
  /** The UTC day, YYYY-MM-DD. */
  date: z.string(),
  /**
   * Compliant devices at the end of the day (today: now). Null for a day no snapshot was
   * taken (the server did not run that day, or the day is older than the reports).
   */
  compliant: z.number().int().nullable(),
  /** Devices pending or needing attention at the end of the day; null as above. */
  not_compliant: z.number().int().nullable(),
  /** Enrolled devices at the end of the day; null as above. */
  total: z.number().int().nullable(),
  /**
   * Patches installed that day: the updates named by each successful install command that
   * finished that day (one for `install_package`, and for `install_all`, whose agent does not
   * say how many). Dry runs of agents without --allow-changes do not count.
   */
  patches_installed: z.number().int(),
  /** Install commands that failed or timed out that day. */
  failures: z.number().int(),
});
export type OverviewDay = z.infer<typeof ZOverviewDay>;

/** The zone's devices now, by state. */
export const ZDevicesByState = z.object({
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  needs_reboot: z.number().int(),
  compliant: z.number().int(),
  pending: z.number().int(),
  needs_attention: z.number().int(),
  /** Devices with at least one pending patch. */
  with_pending_patches: z.number().int(),
});
export type DevicesByState = z.infer<typeof ZDevicesByState>;

/** 200 answer of the overview. */
export const ZOverview = z.object({
  start_date: z.string(),
  end_date: z.string(),
  /** When these figures were computed (ISO 8601). */
  computed_at: z.string(),
  days: z.array(ZOverviewDay),
  devices: ZDevicesByState,
});
export type Overview = z.infer<typeof ZOverview>;

// ---------------------------------------------------------------- patch history

export const PATCH_OUTCOMES = ['installed', 'failed'] as const;
export const ZPatchOutcome = z.enum(PATCH_OUTCOMES);
export type PatchOutcome = z.infer<typeof ZPatchOutcome>;

/** `GET /api/reports/patch-history?o&startDate&endDate&outcome&page&limit`: the install commands behind the overview's days. */
export const ZPatchHistoryQuery = z
  .object({
    ...zoneFields,
    ...ZPaging.shape,
    /** First day, YYYY-MM-DD (UTC); default 10 days back. */
    startDate: day.optional(),
    /** Last day, YYYY-MM-DD (UTC); default today. */
    endDate: day.optional(),
    /** `installed` (successful, not dry runs) or `failed` (error or timed out); default both and the rest. */
    outcome: ZPatchOutcome.optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type PatchHistoryQuery = z.infer<typeof ZPatchHistoryQuery>;

export const ZPatchHistoryEntry = z.object({
  command_id: z.number().int(),
  device_id: z.number().int(),
  device_name: z.string(),
  os_family: ZOsFamily,
  /** install_updates, install_all or install_package. */
  type: z.string(),
  /** The updates or package it installs; empty for install_all. */
  patches: z.array(z.string()),
  /** The command's status: success, error, timed_out, canceled. */
  status: z.string(),
  /** The agent only simulated it (no --allow-changes). */
  simulated: z.boolean(),
  exit_code: z.number().int().nullable(),
  finished_at: z.string(),
  /** The policy it carried out, if any. */
  policy_id: z.number().int().nullable(),
  policy_name: z.string().nullable(),
});
export type PatchHistoryEntry = z.infer<typeof ZPatchHistoryEntry>;
export const ZPatchHistory = z.object({ data: z.array(ZPatchHistoryEntry), size: z.number().int() });
export type PatchHistory = z.infer<typeof ZPatchHistory>;

// ---------------------------------------------------------------- prepatch

export const ZPatchAgeBucket = z.enum(PATCH_AGE_BUCKETS);
/** A bucket, or `unknown`: patches without a publication date. */
export const ZPatchAge = z.enum([...PATCH_AGE_BUCKETS, 'unknown']);

export const PREPATCH_SORT_FIELDS = ['name', 'pending_patches', 'critical', 'oldest_age_days'] as const;

/** The prepatch report's table filters (shared by the list and its CSV). */
const prepatchFilters = {
  /** Only devices with a pending patch of this severity. */
  severity: ZPatchSeverity.optional(),
  /** Only devices with a pending patch of this age, or without a date (`unknown`); with `severity`, a patch of both. */
  age: ZPatchAge.optional(),
  /** Substring of the device's name or host name. */
  search,
  /** `field:asc|desc`, field one of name, pending_patches, critical, oldest_age_days. Default `pending_patches:desc`. */
  sort: z
    .string()
    .regex(new RegExp(`^(${PREPATCH_SORT_FIELDS.join('|')}):(asc|desc)$`), 'Invalid sort.')
    .optional(),
};

/** `GET /api/reports/prepatch?o&page&limit&severity&age&search&sort`. */
export const ZPrepatchQuery = z
  .object({ ...zoneFields, ...ZPaging.shape, ...prepatchFilters })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type PrepatchQuery = z.infer<typeof ZPrepatchQuery>;

/** `GET /api/reports/prepatch/csv`: the table's filters and sort, every row. */
export const ZPrepatchCsvQuery = z
  .object({ ...zoneFields, ...prepatchFilters })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type PrepatchCsvQuery = z.infer<typeof ZPrepatchCsvQuery>;

/** Devices and (device, patch) pairs in one group of the summary. */
export const ZPatchCount = z.object({ devices: z.number().int(), patches: z.number().int() });

export const ZPrepatchSummary = z.object({
  /** Devices with at least one pending patch, and pending (device, patch) pairs in all. */
  total: ZPatchCount,
  by_severity: z.array(ZPatchCount.extend({ severity: ZPatchSeverity })),
  /** The spec's buckets, then `unknown` for patches without a publication date. */
  by_age: z.array(ZPatchCount.extend({ bucket: ZPatchAge })),
});
export type PrepatchSummary = z.infer<typeof ZPrepatchSummary>;

/** A device with pending patches: its counts by severity and its oldest one. */
export const ZPrepatchDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  hostname: z.string(),
  os_family: ZOsFamily,
  os_name: z.string(),
  group_id: z.number().int(),
  group_name: z.string(),
  compliance: ZCompliance,
  pending_patches: z.number().int(),
  critical: z.number().int(),
  high: z.number().int(),
  medium: z.number().int(),
  low: z.number().int(),
  /** Patches of no or unknown severity. */
  other: z.number().int(),
  /** Publication of its oldest pending patch (ISO 8601); null when none has a date. */
  oldest_published_at: z.string().nullable(),
  /** Whole days since then. */
  oldest_age_days: z.number().int().nullable(),
});
export type PrepatchDevice = z.infer<typeof ZPrepatchDevice>;

export const ZPrepatchReport = z.object({
  /** The whole zone's figures (the table's filters do not change them), at most 5 minutes old. */
  summary: ZPrepatchSummary,
  /** The filtered table's page, read live. */
  data: z.array(ZPrepatchDevice),
  size: z.number().int(),
  /** When the summary was computed (ISO 8601). */
  computed_at: z.string(),
});
export type PrepatchReport = z.infer<typeof ZPrepatchReport>;

// ---------------------------------------------------------------- needs attention

/** Compliance states that are not compliant. */
export const NON_COMPLIANT_STATES = ['pending', 'needs_attention'] as const;

export const NEEDS_ATTENTION_SORT_FIELDS = ['name', 'compliance', 'pending_patches', 'last_seen_at'] as const;

const needsAttentionFilters = {
  /** One of the two states; default both. */
  compliance: z.enum(NON_COMPLIANT_STATES).optional(),
  search,
  /** `field:asc|desc`, field one of name, compliance, pending_patches, last_seen_at. Default `compliance:desc` (needs attention first). */
  sort: z
    .string()
    .regex(new RegExp(`^(${NEEDS_ATTENTION_SORT_FIELDS.join('|')}):(asc|desc)$`), 'Invalid sort.')
    .optional(),
};

/** `GET /api/reports/needs-attention?o&page&limit&compliance&search&sort`. */
export const ZNeedsAttentionQuery = z
  .object({ ...zoneFields, ...ZPaging.shape, ...needsAttentionFilters })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type NeedsAttentionQuery = z.infer<typeof ZNeedsAttentionQuery>;

export const ZNeedsAttentionCsvQuery = z
  .object({ ...zoneFields, ...needsAttentionFilters })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type NeedsAttentionCsvQuery = z.infer<typeof ZNeedsAttentionCsvQuery>;

/** A device that is not compliant, and why (core's devices/compliance.ts rule). */
export const ZNeedsAttentionDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  hostname: z.string(),
  os_family: ZOsFamily,
  os_name: z.string(),
  group_id: z.number().int(),
  group_name: z.string(),
  compliance: ZCompliance,
  compliance_reason: z.string(),
  pending_patches: z.number().int(),
  needs_reboot: z.boolean(),
  last_seen_at: z.string().nullable(),
});
export type NeedsAttentionDevice = z.infer<typeof ZNeedsAttentionDevice>;

export const ZNeedsAttentionReport = z.object({
  summary: z.object({ total: z.number().int(), pending: z.number().int(), needs_attention: z.number().int() }),
  data: z.array(ZNeedsAttentionDevice),
  size: z.number().int(),
});
export type NeedsAttentionReport = z.infer<typeof ZNeedsAttentionReport>;

/** The profile `metadata` flag each report sets for its reader when it runs. */
export const REPORT_RUN_FLAGS = { overview: 'overviewReportRun', prepatch: 'prepatchReportRun' } as const;
