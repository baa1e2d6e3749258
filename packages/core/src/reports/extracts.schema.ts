import { z } from 'zod';
import { ID_MAX } from '../constants';
import { ZPaging } from '../paging.schema';
import { isValidDate } from '../rules/datetime';
import { DATE_RANGE_ERRORS, DATE_RANGE_PRESETS } from './date-range';

/**
 * Data extracts (spec B sections 2, 5 and 9): a person asks for the zone's patch history,
 * device inventory, software or activity over a date range of up to 90 days back; the
 * server builds it as a job (queued → running → ready, or error) and keeps the CSV for
 * {@link DATA_EXTRACT_TTL_DAYS} days.
 */

export const DATA_EXTRACT_KINDS = ['patch_history', 'device_inventory', 'software', 'activity'] as const;
export const ZDataExtractKind = z.enum(DATA_EXTRACT_KINDS);
export type DataExtractKind = z.infer<typeof ZDataExtractKind>;

export const DATA_EXTRACT_KIND_LABELS: Record<DataExtractKind, string> = {
  patch_history: 'Patch history',
  device_inventory: 'Device inventory',
  software: 'Software',
  activity: 'Activity',
};

/** What each kind holds and how the date range selects its rows. */
export const DATA_EXTRACT_KIND_DESCRIPTIONS: Record<DataExtractKind, string> = {
  patch_history: 'Every install command that finished in the range: device, updates, outcome and policy.',
  device_inventory: 'Devices enrolled by the end of the range and still enrolled: system facts, state and compliance.',
  software: 'Installed software of the devices enrolled by the end of the range and still enrolled.',
  activity: 'The activity log of the zone in the range: who did what, on which object.',
};

/** `expired` is not stored: a ready extract past its expiry reads as expired until it is deleted. */
export const DATA_EXTRACT_STATUSES = ['queued', 'running', 'ready', 'error', 'expired'] as const;
export const ZDataExtractStatus = z.enum(DATA_EXTRACT_STATUSES);
export type DataExtractStatus = z.infer<typeof ZDataExtractStatus>;

/** Days a finished extract is kept. */
export const DATA_EXTRACT_TTL_DAYS = 7;
/** Extracts a zone may have queued or running at once. */
export const DATA_EXTRACT_OPEN_MAX = 3;

export const DATA_EXTRACT_ERRORS = {
  busy: `This zone already has ${DATA_EXTRACT_OPEN_MAX} extracts in progress. Wait for one to finish.`,
  notReady: 'This extract is not ready yet.',
  failed: 'This extract failed. Request it again.',
  expired: 'This extract has expired. Request it again.',
} as const;

const id = z.coerce.number().int().positive().max(ID_MAX);
const zone = { o: id.optional(), org: id.optional() };
const day = z.string().refine(isValidDate, DATE_RANGE_ERRORS.invalid);

/** `POST /api/reports/data-extracts?o`. */
export const ZCreateDataExtractBody = z.object({
  /** What to extract. */
  kind: ZDataExtractKind,
  /** The date range (spec B section 3); `custom` takes `startDate` and `endDate`. */
  preset: z.enum(DATE_RANGE_PRESETS),
  /** First day of a custom range, YYYY-MM-DD (UTC), at most 90 days back. */
  startDate: day.optional(),
  /** Last day of a custom range, YYYY-MM-DD (UTC), not in the future. */
  endDate: day.optional(),
});
export type CreateDataExtractBody = z.infer<typeof ZCreateDataExtractBody>;

export const ZDataExtractListQuery = z
  .object({ ...zone, ...ZPaging.shape })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));

export const ZDataExtractParams = z.object({ extractId: id });

export const ZDataExtract = z.object({
  id: z.number().int(),
  kind: ZDataExtractKind,
  preset: z.enum(DATE_RANGE_PRESETS),
  /** First day of the range, YYYY-MM-DD. */
  start_date: z.string(),
  /** Last day of the range, YYYY-MM-DD. */
  end_date: z.string(),
  status: ZDataExtractStatus,
  /** 0–100. */
  progress: z.number().int(),
  /** Rows written so far (all of them once ready). */
  row_count: z.number().int(),
  /** Why it failed. */
  error: z.string().nullable(),
  /** Who asked for it (e-mail); null when that user is gone. */
  requested_by: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** When it is deleted (set once ready or failed). */
  expires_at: z.string().nullable(),
});
export type DataExtract = z.infer<typeof ZDataExtract>;

export const ZDataExtractList = z.object({ data: z.array(ZDataExtract), size: z.number().int() });
export type DataExtractList = z.infer<typeof ZDataExtractList>;
