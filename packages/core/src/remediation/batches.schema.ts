import { z } from 'zod';
import { ID_MAX } from '../constants';
import { ZPaging } from '../paging.schema';
import { ZRemediationSeverity, ZScannerSource } from './scanners.schema';

/**
 * Task batches (spec B sections 2, 3, 4 and 7; FIELD-NOTES 3.4): a scanner's CSV export,
 * uploaded to a zone, parsed and matched to the zone's devices and to the patches and
 * worklets that fix each CVE. A batch is `building` while it is matched, then `ready`
 * (awaiting approval) or `error`; accepting it (`approved`) creates its tasks, rejecting it
 * (`rejected`) is final: running it later needs a re-import.
 */

/** Remediation type of a batch and its tasks; the spec's `{type}` path segment (default patch). */
export const REMEDIATION_TYPES = ['patch'] as const;
export const ZRemediationType = z.enum(REMEDIATION_TYPES);
export type RemediationType = z.infer<typeof ZRemediationType>;

export const BATCH_STATUSES = ['building', 'ready', 'error', 'approved', 'rejected'] as const;
export const ZBatchStatus = z.enum(BATCH_STATUSES);
export type BatchStatus = z.infer<typeof ZBatchStatus>;

/**
 * Why a scanner row did not become a remediation (spec B section 3):
 * - `unknown_host`: no live device of the zone has that hostname, FQDN or private IP;
 * - `duplicate_host`: the host names several devices of the zone, so none is picked;
 * - `unknown_cve`: no patch any device of the zone reports and no worklet declares the CVE;
 * - `cve_not_applicable`: the device is known but has no pending patch fixing the CVE and no
 *   worklet for its OS declares it (typically already patched);
 * - `unsupported_host`: the device's OS has no remediation for the CVE (e.g. the only fix is
 *   a worklet for another OS) or the device was removed.
 */
export const BATCH_ISSUE_TYPES = [
  'duplicate_host',
  'unknown_host',
  'unknown_cve',
  'cve_not_applicable',
  'unsupported_host',
] as const;
export const ZBatchIssueType = z.enum(BATCH_ISSUE_TYPES);
export type BatchIssueType = z.infer<typeof ZBatchIssueType>;

/** How a solution remediates (spec B section 4 "Patch modes"; FIELD-NOTES 3.4 statistics keys). */
export const SOLUTION_KINDS = ['patch-now', 'patch-with-worklet'] as const;
export const ZSolutionKind = z.enum(SOLUTION_KINDS);
export type SolutionKind = z.infer<typeof ZSolutionKind>;

const zoneId = z.coerce.number().int().positive().max(ID_MAX);

/** Path of every batch and task route: `/api/orgs/{orgId}/tasks/...`. */
export const ZOrgParams = z.object({ orgId: zoneId });
export const ZOrgTypeParams = z.object({ orgId: zoneId, type: ZRemediationType.default('patch') });
export const ZBatchParams = z.object({ orgId: zoneId, batchId: zoneId });

/** `POST /api/orgs/{orgId}/tasks/{type}/batches/upload?o&source` (multipart, field `file`). */
export const ZBatchUploadQuery = z
  .object({
    o: zoneId.optional(),
    org: zoneId.optional(),
    source: ZScannerSource,
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type BatchUploadQuery = z.infer<typeof ZBatchUploadQuery>;

/** Counts of a batch once matched (FIELD-NOTES 3.4 ActionSet `statistics`). */
export const ZBatchStatistics = z.object({
  /** Data rows read from the file. */
  rows: z.number().int(),
  /** Host × CVE findings the rows expand to. */
  findings: z.number().int(),
  /** Distinct CVEs named. */
  vulnerabilities: z.number().int(),
  /** Potential issues by type. */
  issues: z.record(ZBatchIssueType, z.number().int()),
  /** Solutions by kind: how many, on how many devices, fixing how many CVEs. */
  solutions: z.record(
    ZSolutionKind,
    z.object({ count: z.number().int(), device_count: z.number().int(), vulnerability_count: z.number().int() }),
  ),
});
export type BatchStatistics = z.infer<typeof ZBatchStatistics>;

/** A batch as lists and details give it (spec B section 3 "Task batch"). */
export const ZBatch = z.object({
  id: z.number().int(),
  organization_id: z.number().int(),
  type: ZRemediationType,
  /** The provider the file was uploaded as. */
  source: ZScannerSource,
  /** The uploaded file's name (the CSV Name column). */
  report_source: z.string(),
  status: ZBatchStatus,
  /** Why building failed, when `status` is `error`. */
  error: z.string().nullable(),
  /** Devices of the zone at least one solution covers. */
  impacted_device_count: z.number().int(),
  /** Null while building. */
  statistics: ZBatchStatistics.nullable(),
  created_by_user: z.object({ id: z.number().int().nullable(), email: z.string().nullable() }),
  /** Who accepted or rejected it, and when. */
  updated_by_user: z.object({ id: z.number().int().nullable(), email: z.string().nullable() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Batch = z.infer<typeof ZBatch>;

/** `GET /api/orgs/{orgId}/tasks/batches?status:not_in&type:equals&page&limit`. */
export const ZBatchListQuery = z
  .object({
    o: zoneId.optional(),
    org: zoneId.optional(),
    ...ZPaging.shape,
    /** Comma-separated statuses to leave out (the console leaves out `approved`). */
    'status:not_in': z
      .string()
      .max(200)
      .transform((v) => v.split(',').filter(Boolean))
      .pipe(z.array(ZBatchStatus))
      .optional(),
    'type:equals': ZRemediationType.optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type BatchListQuery = z.infer<typeof ZBatchListQuery>;

export const ZBatchList = z.object({ data: z.array(ZBatch), size: z.number().int() });
export type BatchList = z.infer<typeof ZBatchList>;

/** A potential issue (spec B sections 2 and 3): a scanner row that did not become a remediation. */
export const ZBatchIssue = z.object({
  id: z.number().int(),
  /** The matched device's id, when the host named one. */
  device: z.number().int().nullable(),
  hostname: z.string(),
  ip_addrs_private: z.array(z.string()),
  /** The CVE of the row (the spec's `patch_id`). */
  patch_id: z.string(),
  issue: ZBatchIssueType,
  /** The file's line the row ends on. */
  line: z.number().int(),
});
export type BatchIssue = z.infer<typeof ZBatchIssue>;

/** `GET /api/orgs/{orgId}/tasks/batches/{batchId}/issues?page&limit&issue`. */
export const ZBatchIssuesQuery = z
  .object({ o: zoneId.optional(), org: zoneId.optional(), ...ZPaging.shape, issue: ZBatchIssueType.optional() })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type BatchIssuesQuery = z.infer<typeof ZBatchIssuesQuery>;

export const ZBatchIssueList = z.object({ data: z.array(ZBatchIssue), size: z.number().int() });
export type BatchIssueList = z.infer<typeof ZBatchIssueList>;

/** A solution of a batch: one remediation (a patch to install now, or a worklet to run) over its devices. */
export const ZBatchSolution = z.object({
  id: z.number().int(),
  kind: ZSolutionKind,
  /** What is installed: the package or update name for patch-now. */
  patch_name: z.string().nullable(),
  /** The catalogue worklet's id for patch-with-worklet. */
  worklet_id: z.string().nullable(),
  title: z.string(),
  severity: ZRemediationSeverity,
  cves: z.array(z.string()),
  device_ids: z.array(z.number().int()),
  device_count: z.number().int(),
});
export type BatchSolution = z.infer<typeof ZBatchSolution>;

/** One CVE of a batch (the remediations view's Vulnerabilities tab). */
export const ZBatchVulnerability = z.object({
  cve: z.string(),
  severity: ZRemediationSeverity,
  /** The scanner's own severity value, e.g. "5" (Qualys) or "Critical". */
  severity_raw: z.string(),
  cvss: z.number().nullable(),
  title: z.string(),
  /** Devices of the zone the scanner says have it. */
  device_count: z.number().int(),
  /** Of them, devices a solution covers. */
  remediable_device_count: z.number().int(),
  solution_ids: z.array(z.number().int()),
});
export type BatchVulnerability = z.infer<typeof ZBatchVulnerability>;

/** A host of the file with no device in the zone ('Unknown Hosts'). */
export const ZBatchUnknownHost = z.object({
  hostname: z.string(),
  ip_addrs_private: z.array(z.string()),
  os: z.string().nullable(),
  cves: z.array(z.string()),
});
export type BatchUnknownHost = z.infer<typeof ZBatchUnknownHost>;

/** Paged lists of the remediations view (`.../batches/{batchId}/{vulnerabilities|solutions|unknown-hosts}`). */
export const ZBatchVulnerabilityList = z.object({ data: z.array(ZBatchVulnerability), size: z.number().int() });
export const ZBatchSolutionList = z.object({ data: z.array(ZBatchSolution), size: z.number().int() });
export const ZBatchUnknownHostList = z.object({ data: z.array(ZBatchUnknownHost), size: z.number().int() });

export const ZBatchPageQuery = z
  .object({ o: zoneId.optional(), org: zoneId.optional(), ...ZPaging.shape })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type BatchPageQuery = z.infer<typeof ZBatchPageQuery>;

/** `POST .../batches/{batchId}/accept`: the tasks it created. */
export const ZBatchAcceptResult = z.object({ batch: ZBatch, task_ids: z.array(z.number().int()) });
export type BatchAcceptResult = z.infer<typeof ZBatchAcceptResult>;
