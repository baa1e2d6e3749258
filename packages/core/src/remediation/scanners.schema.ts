import { z } from 'zod';

/**
 * Vulnerability scanners whose CSV exports a batch is uploaded from (FIELD-NOTES 3.4 and 5).
 * The column lists of each provider are in `scanner-formats.ts`.
 */
export const SCANNER_SOURCES = ['generic', 'qualys', 'tenable', 'crowd-strike', 'rapid7'] as const;
export const ZScannerSource = z.enum(SCANNER_SOURCES);
export type ScannerSource = z.infer<typeof ZScannerSource>;

/** The product's own severity scale every scanner's is mapped to (the raw value is kept beside it). */
export const REMEDIATION_SEVERITIES = ['critical', 'high', 'medium', 'low', 'none'] as const;
export const ZRemediationSeverity = z.enum(REMEDIATION_SEVERITIES);
export type RemediationSeverity = z.infer<typeof ZRemediationSeverity>;

/** Most data rows in one upload (the product family's documented limit, FIELD-NOTES 3.4). */
export const BATCH_UPLOAD_MAX_ROWS = 20_000;
/** Largest accepted upload: 32 MiB (a 20,000-row Tenable export with long solution texts is ~15 MiB). */
export const BATCH_UPLOAD_MAX_BYTES = 32 * 1024 * 1024;
/**
 * Most host × CVE findings one upload may expand to. A Qualys row names every CVE of its QID
 * in one cell (a Windows cumulative update lists dozens), so 20,000 rows can hold far more
 * findings than rows; past this the file is refused rather than stored half.
 */
export const BATCH_UPLOAD_MAX_FINDINGS = 200_000;

/** What Patchwell reads from a scanner's column (several columns may feed the host's names). */
export const SCANNER_FIELDS = [
  'host',
  'netbios',
  'fqdn',
  'ip',
  'os',
  'cve',
  'severity',
  'cvss',
  'title',
  'solution',
  'status',
] as const;
export const ZScannerField = z.enum(SCANNER_FIELDS);
export type ScannerField = z.infer<typeof ZScannerField>;

/** One column a provider's export is read by (FIELD-NOTES 3.4 HeaderObject). */
export const ZScannerColumn = z.object({
  /** What Patchwell reads from the column. */
  field: ZScannerField,
  /** The header as the scanner writes it. */
  name: z.string(),
  /** Other headers accepted for the same column (scanner versions and report templates differ). */
  aliases: z.array(z.string()),
  /** A file without this column (or any of its aliases) is refused, naming it. */
  required: z.boolean(),
  /** What Patchwell reads from it. */
  description: z.string(),
});
export type ScannerColumn = z.infer<typeof ZScannerColumn>;

/** `GET /api/orgs/{orgId}/tasks/{type}/batches/formats`: one entry per provider. */
export const ZScannerFormat = z.object({
  name: ZScannerSource,
  /** The provider's display name, e.g. "Tenable / Nessus". */
  label: z.string(),
  format: z.literal('csv'),
  /** The export the columns are taken from, e.g. "Tenable.io / Nessus CSV export". */
  export_name: z.string(),
  headers: z.array(ZScannerColumn),
  /** How the scanner's severity values map to the product's scale (the raw value is kept). */
  severity_scale: z.string(),
  /** A short example file the upload dialog shows as the expected format. */
  example: z.string(),
  max_rows: z.number().int(),
  max_bytes: z.number().int(),
});
export type ScannerFormat = z.infer<typeof ZScannerFormat>;
export const ZScannerFormatList = z.array(ZScannerFormat);
