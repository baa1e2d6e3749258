import { ZCveId } from './cves.schema';
import {
  BATCH_UPLOAD_MAX_BYTES,
  BATCH_UPLOAD_MAX_ROWS,
  type RemediationSeverity,
  type ScannerColumn,
  type ScannerField,
  type ScannerFormat,
  type ScannerSource,
} from './scanners.schema';

/**
 * The CSV exports each scanner writes (FIELD-NOTES section 5) and how a batch upload reads
 * them: columns are found by their header (or an alias) wherever they stand in the header
 * line, other columns are ignored, and a missing required column is named. Pure: the
 * console shows these as the expected format, the server parses with them.
 */

type SeverityMap = (raw: string) => RemediationSeverity | null;

type FormatDefinition = Omit<ScannerFormat, 'max_rows' | 'max_bytes'> & {
  /** The scanner's severity value → the product's scale; null when the value is not one it writes. */
  severity: SeverityMap;
  /**
   * Values of the `status` column that mean the finding is no longer open (CrowdStrike keeps
   * closed findings in its export); such rows are skipped, lowercased.
   */
  closed_statuses: readonly string[];
};

const col = (
  field: ScannerField,
  name: string,
  aliases: string[],
  required: boolean,
  description: string,
): ScannerColumn => ({ field, name, aliases, required, description });

/** Words most scanners use, lowercased. */
const WORDS: Record<string, RemediationSeverity> = {
  critical: 'critical',
  urgent: 'critical',
  high: 'high',
  important: 'high',
  medium: 'medium',
  moderate: 'medium',
  low: 'low',
  none: 'none',
  info: 'none',
  informational: 'none',
  unknown: 'none',
};

const byWord: SeverityMap = (raw) => (raw === '' ? 'none' : (WORDS[raw.toLowerCase()] ?? null));

/** An integer cell within [min, max], else null. */
function intIn(raw: string, min: number, max: number): number | null {
  if (!/^\d{1,2}(?:\.0+)?$/.test(raw)) return null;
  const n = Number.parseInt(raw, 10);
  return n >= min && n <= max ? n : null;
}

const qualysSeverity: SeverityMap = (raw) => {
  if (raw === '') return 'none';
  const n = intIn(raw, 1, 5);
  if (n === null) return null;
  // Qualys levels: 5 urgent, 4 critical, 3 serious, 2 medium, 1 minimal.
  return n === 5 ? 'critical' : n === 4 ? 'high' : n === 3 ? 'medium' : 'low';
};

const tenableSeverity: SeverityMap = (raw) => {
  // Nessus writes the word in `Risk`; Tenable.io's numeric `Severity` is 0 (info) to 4 (critical).
  const n = intIn(raw, 0, 4);
  if (n !== null) return (['none', 'low', 'medium', 'high', 'critical'] as const)[n]!;
  return byWord(raw);
};

const rapid7Severity: SeverityMap = (raw) => {
  if (raw === '') return 'none';
  const n = intIn(raw, 0, 10);
  // InsightVM: 1-3 moderate, 4-7 severe, 8-10 critical; templates may write the word instead.
  if (n !== null) return n >= 8 ? 'critical' : n >= 4 ? 'high' : n >= 1 ? 'medium' : 'none';
  const word = raw.toLowerCase();
  return word === 'severe' ? 'high' : word === 'critical' ? 'critical' : word === 'moderate' ? 'medium' : null;
};

const FORMATS: Record<ScannerSource, FormatDefinition> = {
  generic: {
    name: 'generic',
    label: 'Generic',
    format: 'csv',
    export_name: 'Any list of hosts and CVEs: one host and one or more CVEs per line',
    headers: [
      col(
        'host',
        'Hostname',
        ['Host', 'Host Name', 'Device', 'Device Name', 'Computer Name', 'Asset Name'],
        true,
        'The host name or FQDN the device reports.',
      ),
      col(
        'ip',
        'IP',
        ['IP Address', 'Private IP', 'IPv4', 'IPv4 Address'],
        false,
        'Private IP address(es), used when the name matches no device.',
      ),
      col(
        'cve',
        'CVE ID',
        ['CVE', 'CVE IDs', 'CVEs'],
        true,
        'One or more CVE ids (CVE-2024-3094), separated by commas or spaces.',
      ),
      col('severity', 'Severity', ['Risk', 'Priority'], false, 'Critical, High, Medium, Low or None; empty is None.'),
      col('fqdn', 'FQDN', ['DNS Name'], false, 'Fully qualified domain name.'),
      col('os', 'OS', ['Operating System'], false, 'Operating system, as shown for unknown hosts.'),
      col('title', 'Title', ['Vulnerability', 'Vulnerability Title', 'Name'], false, 'What the finding is.'),
      col('cvss', 'CVSS', ['CVSS Score', 'CVSS3 Score', 'Base Score'], false, 'CVSS base score, 0 to 10.'),
    ],
    severity_scale: 'Critical, High, Medium, Low, None (also Info); empty is None.',
    severity: byWord,
    closed_statuses: [],
    example:
      'Hostname,IP,CVE ID,Severity\r\n' +
      'web-eu-0012,10.30.0.12,CVE-2024-5535,High\r\n' +
      'SRV-SQL-0003.corp.example.com,10.20.1.13,"CVE-2024-43451, CVE-2024-49039",Critical\r\n',
  },
  qualys: {
    name: 'qualys',
    label: 'Qualys',
    format: 'csv',
    export_name: 'Qualys VM/VMDR host-based findings (CSV), or a VMDR Asset Vuln report',
    headers: [
      col('ip', 'IP', ['IP Address', 'Asset IPV4', 'Asset IPv4 Address'], true, 'The host’s IP address.'),
      col('host', 'DNS', ['DNS Name', 'Asset Name'], false, 'DNS host name.'),
      col('netbios', 'NetBIOS', ['NetBIOS Name'], false, 'NetBIOS name, used when DNS is empty.'),
      col('fqdn', 'FQDN', [], false, 'Fully qualified domain name.'),
      col('os', 'OS', ['Operating System', 'Asset OS'], false, 'Operating system.'),
      col('title', 'Title', ['Vulnerability Title', 'QID Title'], false, 'The QID’s title.'),
      col('severity', 'Severity', ['Severity Level'], true, 'Qualys level 1 (minimal) to 5 (urgent).'),
      col('cve', 'CVE ID', ['CVE', 'CVE IDs'], true, 'The QID’s CVEs, several in one cell separated by ", ".'),
      col(
        'cvss',
        'CVSS3 Base',
        ['CVSS3.1 Base', 'CVSS V3 Base', 'CVSS Base', 'CVSS'],
        false,
        'CVSS base score; a trailing vector is ignored.',
      ),
      col('solution', 'Solution', [], false, 'Qualys’s solution text.'),
      col('status', 'Vuln Status', ['Status'], false, 'New, Active, Re-Opened or Fixed: fixed rows are skipped.'),
    ],
    severity_scale: '5 critical, 4 high, 3 medium, 2 and 1 low.',
    severity: qualysSeverity,
    closed_statuses: ['fixed'],
    example:
      '"Scan Results","11/25/2026 at 02:00:11 (GMT)"\r\n' +
      '\r\n' +
      '"IP","DNS","NetBIOS","OS","QID","Title","Severity","CVE ID","CVSS3 Base","Solution"\r\n' +
      '"10.20.1.13","srv-sql-0003.corp.example.com","SRV-SQL-0003","Windows Server 2022","92189",' +
      '"Microsoft Windows Security Update for November 2024","5","CVE-2024-43451, CVE-2024-49039","8.8",' +
      '"Install the November 2024 cumulative update."\r\n',
  },
  tenable: {
    name: 'tenable',
    label: 'Tenable / Nessus',
    format: 'csv',
    export_name: 'Tenable.io / Nessus vulnerability CSV export',
    headers: [
      col('host', 'Host', ['Asset Name', 'DNS Name'], true, 'The scanned host: an IP address or a name.'),
      col('ip', 'IP Address', ['IPv4', 'IPV4 Address'], false, 'Tenable.io: the host’s IP address.'),
      col('fqdn', 'FQDN', [], false, 'Tenable.io: fully qualified domain name.'),
      col('netbios', 'NetBios', ['NetBIOS Name'], false, 'Tenable.io: NetBIOS name.'),
      col('os', 'OS', ['Operating System'], false, 'Tenable.io: operating system.'),
      col(
        'cve',
        'CVE',
        [],
        true,
        'One CVE per row (a plugin with several CVEs repeats its row); empty for checks without one.',
      ),
      col(
        'severity',
        'Risk',
        ['Severity'],
        true,
        'Critical, High, Medium, Low or None (Tenable.io’s Severity 0-4 too).',
      ),
      col(
        'cvss',
        'CVSS v3.0 Base Score',
        ['CVSS v3 Base Score', 'CVSS v2.0 Base Score', 'CVSS'],
        false,
        'CVSS base score.',
      ),
      col('title', 'Name', ['Plugin Name'], false, 'The plugin’s name.'),
      col('solution', 'Solution', [], false, 'The plugin’s solution text.'),
      col(
        'status',
        'Vulnerability State',
        ['State'],
        false,
        'Tenable.io: New, Active, Resurfaced or Fixed: fixed rows are skipped.',
      ),
    ],
    severity_scale: 'Critical, High, Medium, Low, None (Severity 4 to 0).',
    severity: tenableSeverity,
    closed_statuses: ['fixed'],
    example:
      'Plugin ID,CVE,CVSS v3.0 Base Score,Risk,Host,Protocol,Port,Name,Solution\r\n' +
      '201000,CVE-2024-5535,9.1,Critical,10.30.0.12,tcp,0,Debian DSA-5764-1 : openssl - security update,Upgrade the openssl packages.\r\n' +
      '212000,CVE-2024-43451,6.5,Medium,srv-sql-0003.corp.example.com,tcp,445,KB5046616: Windows Server 2022 Security Update (November 2024),Apply Security Update 5046616\r\n',
  },
  'crowd-strike': {
    name: 'crowd-strike',
    label: 'CrowdStrike Falcon Spotlight',
    format: 'csv',
    export_name: 'CrowdStrike Falcon Spotlight vulnerabilities export (CSV, UTF-8 with BOM)',
    headers: [
      col('host', 'Hostname', ['Host Name', 'Host'], true, 'The sensor’s host name.'),
      col('ip', 'LocalIP', ['Local IP', 'Local IP Address'], false, 'The host’s local IP address.'),
      col('os', 'OSVersion', ['OS Version', 'Operating System'], false, 'Operating system.'),
      col('title', 'Product', ['Vulnerable Product', 'Product Name Version'], false, 'The vulnerable product.'),
      col('cve', 'CVE ID', ['CVE'], true, 'One CVE per row.'),
      col('severity', 'Severity', [], true, 'Critical, High, Medium, Low (None, Unknown).'),
      col('cvss', 'Base Score', ['CVSS Base Score'], false, 'CVSS base score.'),
      col('status', 'Status', [], false, 'Open, Reopened, Closed or Expired: closed and expired rows are skipped.'),
      col('solution', 'Remediation Details', ['Remediation'], false, 'CrowdStrike’s remediation text.'),
    ],
    severity_scale: 'Critical, High, Medium, Low; None and Unknown are None.',
    severity: byWord,
    closed_statuses: ['closed', 'expired'],
    example:
      '\uFEFFHostname,LocalIP,OSVersion,Product,CVE ID,Severity,Base Score,Status,Remediation Details\r\n' +
      'WS-3F0007,10.20.2.7,Windows 11,Windows 11,CVE-2024-49039,HIGH,8.8,Open,Install patch KB5046633\r\n',
  },
  rapid7: {
    name: 'rapid7',
    label: 'Rapid7 InsightVM',
    format: 'csv',
    export_name: 'Rapid7 InsightVM / Nexpose “Basic Vulnerability Check Results (CSV)” report',
    headers: [
      col(
        'ip',
        'Asset IP Address',
        ['Asset IP', 'IP Address'],
        true,
        'The asset’s IP address: hosts are matched by private IP.',
      ),
      col(
        'host',
        'Asset Names',
        ['Asset Name', 'Asset Host Name', 'Host Name'],
        false,
        'A custom template’s asset names.',
      ),
      col('os', 'Asset OS Name', ['Asset OS', 'Operating System'], false, 'A custom template’s operating system.'),
      col(
        'cve',
        'Vulnerability CVE IDs',
        ['Vulnerability CVE ID', 'CVE IDs', 'CVE'],
        true,
        'CVEs of the check, comma-separated; empty for checks without one.',
      ),
      col(
        'severity',
        'Vulnerability Severity Level',
        ['Severity Level', 'Vulnerability Severity'],
        true,
        'InsightVM level 1 to 10.',
      ),
      col('title', 'Vulnerability Title', ['Title'], false, 'The check’s title.'),
      col('cvss', 'Vulnerability CVSSv3 Score', ['Vulnerability CVSS Score', 'CVSS Score'], false, 'CVSS base score.'),
    ],
    severity_scale: '8-10 critical, 4-7 high (severe), 1-3 medium (moderate).',
    severity: rapid7Severity,
    closed_statuses: [],
    example:
      'Asset IP Address,Service Port,Vulnerability Test Result Code,Vulnerability ID,Vulnerability CVE IDs,Vulnerability Severity Level,Vulnerability Title\r\n' +
      '10.30.0.12,0,VV,debian-cve-2024-5535,CVE-2024-5535,9,Debian: CVE-2024-5535: openssl -- security update\r\n',
  },
};

/** `GET .../batches/formats`: every provider, in the order the upload dialog lists them. */
export function scannerFormatList(): ScannerFormat[] {
  return Object.values(FORMATS).map(({ severity: _severity, closed_statuses: _closed, ...format }) => ({
    ...format,
    max_rows: BATCH_UPLOAD_MAX_ROWS,
    max_bytes: BATCH_UPLOAD_MAX_BYTES,
  }));
}

export function scannerFormat(source: ScannerSource): FormatDefinition {
  return FORMATS[source];
}

/** The product's severity for a scanner's value, or null when the scanner never writes it. */
export function mapScannerSeverity(source: ScannerSource, raw: string): RemediationSeverity | null {
  return FORMATS[source].severity(raw.trim());
}

/** `CVE ID`, `cve_id`, `CveId` → `cveid`: headers compared without case, spaces or punctuation. */
export const headerKey = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');

export type ColumnIndex = Partial<Record<ScannerField, { index: number; column: ScannerColumn; header: string }>>;

/**
 * Where each of the provider's columns is in `headers`: its name first, then its aliases in
 * order; a header already taken by another column is not reused, nor is a repeated one.
 */
export function findScannerColumns(
  source: ScannerSource,
  headers: readonly string[],
): { columns: ColumnIndex; missing: ScannerColumn[] } {
  const keys = headers.map(headerKey);
  const taken = new Set<number>();
  const columns: ColumnIndex = {};
  for (const column of FORMATS[source].headers) {
    for (const name of [column.name, ...column.aliases]) {
      const at = keys.findIndex((k, i) => k === headerKey(name) && !taken.has(i));
      if (at >= 0) {
        taken.add(at);
        columns[column.field] = { index: at, column, header: headers[at]!.trim() };
        break;
      }
    }
  }
  const missing = FORMATS[source].headers.filter((c) => c.required && !columns[c.field]);
  return { columns, missing };
}

/** Cells scanners write for "no value". */
const EMPTY_MARKERS = new Set(['', '-', '--', 'n/a', 'na', 'none', 'null']);

/** Whether a cell holds no value (empty, or a scanner's placeholder such as `-` or `N/A`). */
export const isEmptyCell = (cell: string): boolean => EMPTY_MARKERS.has(cell.trim().toLowerCase());

/**
 * The CVE ids of a cell: Qualys and Rapid7 list several separated by commas, some exports
 * use spaces, semicolons or line breaks. Ids are upper-cased; what is not an id is `invalid`.
 */
export function splitCves(cell: string): { cves: string[]; invalid: string[] } {
  const cves: string[] = [];
  const invalid: string[] = [];
  if (isEmptyCell(cell)) return { cves, invalid };
  for (const token of cell.split(/[\s,;|]+/)) {
    if (!token) continue;
    const parsed = ZCveId.safeParse(token);
    if (parsed.success) {
      if (!cves.includes(parsed.data)) cves.push(parsed.data);
    } else invalid.push(token);
  }
  return { cves, invalid };
}

/** A CVSS cell (`7.5`, `9.8 (AV:N/AC:L/…)`, `7,5`) as a score from 0 to 10, or null. */
export function parseCvss(cell: string): number | null {
  const match = /^\s*(\d{1,2}(?:[.,]\d+)?)/.exec(cell);
  if (!match) return null;
  const score = Number.parseFloat(match[1]!.replace(',', '.'));
  return score >= 0 && score <= 10 ? Math.round(score * 10) / 10 : null;
}

const SEVERITY_RANK: Record<RemediationSeverity, number> = { none: 0, low: 1, medium: 2, high: 3, critical: 4 };

/** The worse of two severities. */
export function worseSeverity(a: RemediationSeverity, b: RemediationSeverity): RemediationSeverity {
  return SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a;
}

/** Orders severities worst first. */
export const severityRank = (severity: RemediationSeverity): number => SEVERITY_RANK[severity];
