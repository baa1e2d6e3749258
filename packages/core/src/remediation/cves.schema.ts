import { z } from 'zod';
import { ID_MAX } from '../constants';
import { ZPaging } from '../paging.schema';
import { ZRemediationSeverity, ZScannerSource } from './scanners.schema';

/**
 * The zone's CVE view (issue 11, "a CVE view that explains itself"): every CVE scanners
 * reported in the zone, the devices it affects and why each matched, decisions that take a
 * device or the zone out of the counts (false positive, accepted risk) until they expire,
 * and the zone's remediation deadlines by severity.
 */

/** A CVE id as scanners write it: `CVE-2024-3094`. */
export const ZCveId = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^CVE-\d{4}-\d{4,7}$/, 'Must be a CVE id such as CVE-2024-3094.');

/** Where one device stands on one CVE. */
export const CVE_DEVICE_STATUSES = ['open', 'remediating', 'remediated', 'remediation_failed', 'excepted'] as const;
export const ZCveDeviceStatus = z.enum(CVE_DEVICE_STATUSES);
export type CveDeviceStatus = z.infer<typeof ZCveDeviceStatus>;

/** How the CSV export and the console name each status. */
export const CVE_DEVICE_STATUS_LABELS: Record<CveDeviceStatus, string> = {
  open: 'Open',
  remediating: 'Remediating',
  remediated: 'Remediated',
  remediation_failed: 'Remediation failed',
  excepted: 'Excepted',
};

export const CVE_EXCEPTION_KINDS = ['false_positive', 'risk_accepted'] as const;
export const ZCveExceptionKind = z.enum(CVE_EXCEPTION_KINDS);
export type CveExceptionKind = z.infer<typeof ZCveExceptionKind>;
export const CVE_EXCEPTION_KIND_LABELS: Record<CveExceptionKind, string> = {
  false_positive: 'False positive',
  risk_accepted: 'Risk accepted',
};

/** The 400 for an exception whose expiry is not after now (the schema cannot see the clock). */
export const CVE_EXCEPTION_EXPIRY_PAST = 'The expiry must be in the future.';

const id = z.coerce.number().int().positive().max(ID_MAX);
const zone = { o: id.optional(), org: id.optional() };

export const ZCveParams = z.object({ orgId: id, cve: ZCveId });
export const ZCveZoneParams = z.object({ orgId: id });
export const ZCveExceptionParams = z.object({ orgId: id, exceptionId: id });

/** One row of `GET /api/orgs/{orgId}/cves`. */
export const ZZoneCve = z.object({
  cve: z.string(),
  severity: ZRemediationSeverity,
  cvss: z.number().nullable(),
  title: z.string(),
  /** Devices still affected (open, remediating or failed), excepted ones left out. */
  affected_device_count: z.number().int(),
  remediated_device_count: z.number().int(),
  excepted_device_count: z.number().int(),
  /** Affected devices past the zone's deadline for the severity. */
  overdue_device_count: z.number().int(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  /** First detection plus the severity's deadline; null when the zone sets none. */
  due_at: z.string().nullable(),
});
export type ZoneCve = z.infer<typeof ZZoneCve>;

export const CVE_SORT_FIELDS = ['cve', 'severity', 'affected_device_count', 'first_seen_at', 'due_at'] as const;

export const ZCveListQuery = z
  .object({
    ...zone,
    ...ZPaging.shape,
    severity: ZRemediationSeverity.optional(),
    /** Substring of the CVE id or title. */
    search: z.string().max(100).optional(),
    /** Only CVEs with overdue devices. */
    overdue: z.enum(['true', 'false']).optional(),
    sort: z
      .string()
      .regex(new RegExp(`^(${CVE_SORT_FIELDS.join('|')}):(asc|desc)$`), 'Sort must be field:asc or field:desc.')
      .optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type CveListQuery = z.infer<typeof ZCveListQuery>;

export const ZZoneCveList = z.object({ data: z.array(ZZoneCve), size: z.number().int() });

/** `GET /api/orgs/{orgId}/cves/csv`: the list's filters, every row (one per CVE and device). */
export const ZCveCsvQuery = z
  .object({
    ...zone,
    severity: ZRemediationSeverity.optional(),
    search: z.string().max(100).optional(),
    /** Only devices past their due date. */
    overdue: z.enum(['true', 'false']).optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type CveCsvQuery = z.infer<typeof ZCveCsvQuery>;

/** `GET /api/orgs/{orgId}/cves/{cve}`: pages of its devices (affected and overdue first). */
export const ZCveDetailQuery = z
  .object({ ...zone, ...ZPaging.shape })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type CveDetailQuery = z.infer<typeof ZCveDetailQuery>;

/** Zone totals for the remediations page: open CVEs and overdue devices by severity. */
export const ZCveSummary = z.object({
  open_cves: z.number().int(),
  affected_devices: z.number().int(),
  overdue: z.record(ZRemediationSeverity, z.number().int()),
  overdue_total: z.number().int(),
});
export type CveSummary = z.infer<typeof ZCveSummary>;

export const ZCveException = z.object({
  id: z.number().int(),
  cve: z.string(),
  /** Null: the decision covers every device of the zone. */
  device_id: z.number().int().nullable(),
  hostname: z.string().nullable(),
  kind: ZCveExceptionKind,
  reason: z.string(),
  expires_at: z.string().nullable(),
  created_by_user: z.object({ id: z.number().int().nullable(), email: z.string().nullable() }),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  /** Who revoked it; null while not revoked (or the user was deleted). */
  revoked_by_user: z.object({ id: z.number().int().nullable(), email: z.string().nullable() }).nullable(),
  /** `active` takes the CVE out of the counts; `expired` and `revoked` no longer do. */
  state: z.enum(['active', 'expired', 'revoked']),
});
export type CveException = z.infer<typeof ZCveException>;

/** `POST /api/orgs/{orgId}/cves/{cve}/exceptions`. */
export const ZCveExceptionBody = z
  .object({
    kind: ZCveExceptionKind,
    reason: z.string().trim().min(1, 'A reason is required.').max(1000),
    /** Omitted: the whole zone. */
    device_id: id.optional(),
    /** ISO date-time in the future, or omitted for no expiry. */
    expires_at: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();
export type CveExceptionBody = z.infer<typeof ZCveExceptionBody>;

/** One device of a CVE, with why it matched. */
export const ZCveDevice = z.object({
  device_id: z.number().int(),
  hostname: z.string(),
  status: ZCveDeviceStatus,
  /** The scanner rows that named the device for this CVE, newest first. */
  findings: z.array(
    z.object({
      batch_id: z.number().int(),
      source: ZScannerSource,
      file_name: z.string(),
      line: z.number().int(),
      /** The host as the scanner wrote it and what of the device it matched (hostname, fqdn or ip). */
      scanned_host: z.string(),
      matched_by: z.enum(['hostname', 'fqdn', 'ip']),
      severity_raw: z.string(),
      cvss: z.number().nullable(),
      seen_at: z.string(),
    }),
  ),
  /** The installed package the fixing patch updates, from the device's inventory. */
  installed: z.object({ name: z.string(), version: z.string().nullable() }).nullable(),
  /** What fixes it on this device. */
  fix: z
    .object({
      kind: z.enum(['patch', 'worklet']),
      name: z.string(),
      version: z.string().nullable(),
      /** The patch's source (e.g. apt, Windows Update) or the worklet's catalogue id. */
      source: z.string().nullable(),
    })
    .nullable(),
  exception: ZCveException.nullable(),
  due_at: z.string().nullable(),
  overdue: z.boolean(),
  remediated_at: z.string().nullable(),
});
export type CveDevice = z.infer<typeof ZCveDevice>;

/** `GET /api/orgs/{orgId}/cves/{cve}`. */
export const ZCveDetail = z.object({
  cve: ZZoneCve,
  /** One page of the CVE's devices (`page`, `limit`): still affected first, then by due date and host name. */
  devices: z.array(ZCveDevice),
  /** All devices of the CVE in the zone, for paging `devices`. */
  devices_size: z.number().int(),
  exceptions: z.array(ZCveException),
  /**
   * Daily counts since first seen (UTC days, the last 366 at most, today as of now): devices
   * affected (excepted ones left out) and remediated at the end of each day.
   */
  history: z.array(z.object({ date: z.string(), affected: z.number().int(), remediated: z.number().int() })),
});
export type CveDetail = z.infer<typeof ZCveDetail>;

/** Days to remediate by severity; null: no deadline. Defaults critical 15, high 30, medium 90, low none. */
export const ZRemediationDeadlines = z
  .object({
    critical: z.number().int().min(1).max(365).nullable(),
    high: z.number().int().min(1).max(365).nullable(),
    medium: z.number().int().min(1).max(365).nullable(),
    low: z.number().int().min(1).max(365).nullable(),
  })
  .strict();
export type RemediationDeadlines = z.infer<typeof ZRemediationDeadlines>;
export const REMEDIATION_DEADLINES_DEFAULT: RemediationDeadlines = { critical: 15, high: 30, medium: 90, low: null };
