import { z } from 'zod';
import { ID_MAX } from '../constants';
import { ZDevicesByState, ZPatchHistoryEntry, ZPrepatchSummary } from './reports.schema';

/**
 * The dashboard's payload (issue 12): the zone's fleet at a glance, every figure from the
 * reports' tables and each one the head of a list the console links to.
 */

const id = z.coerce.number().int().positive().max(ID_MAX);

/** `GET /api/reports/dashboard?o` (alias `org`). */
export const ZDashboardQuery = z
  .object({ o: id.optional(), org: id.optional() })
  .loose()
  .transform(({ o, org }) => ({ o: o ?? org }));
export type DashboardQuery = z.infer<typeof ZDashboardQuery>;

/** One day of the compliance trend; null counts: no snapshot was taken that day. */
export const ZDashboardTrendDay = z.object({
  date: z.string(),
  compliant: z.number().int().nullable(),
  total: z.number().int().nullable(),
  /** Compliant devices in percent of the enrolled ones (one decimal); null without a snapshot or devices. */
  percent: z.number().nullable(),
});

/** Software whose pending high or critical patches the most devices miss. */
export const ZVulnerableSoftware = z.object({
  /** The package or update name the patches carry. */
  name: z.string(),
  /** Devices with a pending high or critical patch of it. */
  devices: z.number().int(),
  /** Of which with a critical one. */
  critical_devices: z.number().int(),
});

export const ZDashboardActivityDay = z.object({
  date: z.string(),
  /** Patches installed that day (as the overview counts them). */
  installed: z.number().int(),
  /** Install commands that failed or timed out that day. */
  failed: z.number().int(),
});

/** 200 answer of the dashboard. */
export const ZFleetDashboard = z.object({
  /** When these figures were computed (ISO 8601); served for up to five minutes. */
  computed_at: z.string(),
  devices: ZDevicesByState,
  compliance: z.object({
    /** Compliant devices now, in percent of the enrolled ones (one decimal); null without devices. */
    percent: z.number().nullable(),
    trend: z.array(ZDashboardTrendDay),
  }),
  /** Devices with a critical patch pending for more than `days` days. */
  missing_critical: z.object({ days: z.number().int(), devices: z.number().int() }),
  /** Pending patches by severity and by age bucket (the prepatch report's summary). */
  pending: ZPrepatchSummary,
  vulnerable_software: z.array(ZVulnerableSoftware),
  /** The latest failed install commands (last 30 days), newest first. */
  recent_failures: z.array(ZPatchHistoryEntry),
  activity: z.array(ZDashboardActivityDay),
});
export type FleetDashboard = z.infer<typeof ZFleetDashboard>;
export type VulnerableSoftware = z.infer<typeof ZVulnerableSoftware>;
