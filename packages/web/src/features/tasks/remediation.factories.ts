import type {
  Batch,
  BatchIssue,
  BatchSolution,
  BatchUnknownHost,
  BatchVulnerability,
} from '@patchwell/core/remediation/batches.schema';
import type { CveDetail, CveDevice, CveException, ZoneCve } from '@patchwell/core/remediation/cves.schema';
import type { ScannerFormat } from '@patchwell/core/remediation/scanners.schema';
import type { Task, TaskJob } from '@patchwell/core/remediation/tasks.schema';

/** Test payloads shaped by core's remediation schemas (what the server answers). */

let nextId = 500;
const user = { id: 7, email: 'ada@example.com' };

export function buildBatch(overrides: Partial<Batch> = {}): Batch {
  const id = overrides.id ?? nextId++;
  return {
    id,
    organization_id: 1,
    type: 'patch',
    source: 'qualys',
    report_source: `scan-${id}.csv`,
    status: 'ready',
    error: null,
    impacted_device_count: 2,
    statistics: {
      rows: 4,
      findings: 5,
      vulnerabilities: 3,
      issues: { duplicate_host: 0, unknown_host: 1, unknown_cve: 0, cve_not_applicable: 1, unsupported_host: 0 },
      solutions: {
        'patch-now': { count: 1, device_count: 2, vulnerability_count: 2 },
        'patch-with-worklet': { count: 1, device_count: 1, vulnerability_count: 1 },
      },
    },
    created_by_user: user,
    updated_by_user: null,
    created_at: '2026-11-20T10:00:00Z',
    updated_at: '2026-11-20T10:00:05Z',
    ...overrides,
  };
}

export function buildIssue(overrides: Partial<BatchIssue> = {}): BatchIssue {
  const id = overrides.id ?? nextId++;
  return {
    id,
    device: null,
    hostname: 'ghost-01',
    ip_addrs_private: ['10.9.9.9'],
    patch_id: 'CVE-2024-3094',
    issue: 'unknown_host',
    line: 3,
    ...overrides,
  };
}

export function buildTask(overrides: Partial<Task> = {}): Task {
  const id = overrides.id ?? nextId++;
  return {
    id,
    organization_id: 1,
    type: 'patch',
    kind: 'patch-now',
    title: 'Install openssl 3.0.15',
    patch_name: 'openssl',
    worklet_id: null,
    cves: ['CVE-2024-5535'],
    severity: 'high',
    source: 'qualys',
    batch_id: 40,
    status: 'pending',
    overall_status: 'unknown',
    counts: { devices: 2, remediated: 0, remediating: 0, remediation_failed: 0, not_run: 2 },
    created_by_user: user,
    executed_by_user: null,
    created_at: '2026-11-20T10:01:00Z',
    executed_at: null,
    due_at: '2026-12-20T10:00:00Z',
    overdue: false,
    ...overrides,
  };
}

export function buildJob(overrides: Partial<TaskJob> = {}): TaskJob {
  const id = overrides.id ?? nextId++;
  return {
    id,
    device_id: 11,
    hostname: 'web-1',
    ip_addrs_private: ['10.0.0.11'],
    patch_names: ['openssl'],
    status: 'pending',
    remediation_status: null,
    exit_code: null,
    output: null,
    started_at: null,
    finished_at: null,
    ...overrides,
  };
}

export function buildFormat(overrides: Partial<ScannerFormat> = {}): ScannerFormat {
  return {
    name: 'qualys',
    label: 'Qualys',
    format: 'csv',
    export_name: 'Qualys VMDR host-based findings',
    headers: [
      { field: 'ip', name: 'IP', aliases: ['Asset IPV4'], required: true, description: 'The host’s IP address' },
      { field: 'host', name: 'DNS', aliases: ['Asset Name'], required: false, description: 'The host name' },
      { field: 'cve', name: 'CVE ID', aliases: ['CVE'], required: true, description: 'CVEs, comma-separated' },
      { field: 'severity', name: 'Severity', aliases: [], required: false, description: 'Severity 1-5' },
    ],
    severity_scale: '5 critical, 4 high, 3 medium, 1-2 low',
    example: '"IP","DNS","CVE ID","Severity"\n"10.0.0.11","web-1","CVE-2024-3094","5"',
    max_rows: 20_000,
    max_bytes: 32 * 1024 * 1024,
    ...overrides,
  };
}

export function buildVulnerability(overrides: Partial<BatchVulnerability> = {}): BatchVulnerability {
  return {
    cve: 'CVE-2024-3094',
    severity: 'critical',
    severity_raw: '5',
    cvss: 10,
    title: 'xz backdoor',
    device_count: 2,
    remediable_device_count: 1,
    solution_ids: [1],
    ...overrides,
  };
}

export function buildSolution(overrides: Partial<BatchSolution> = {}): BatchSolution {
  const id = overrides.id ?? nextId++;
  return {
    id,
    kind: 'patch-now',
    patch_name: 'xz-utils',
    worklet_id: null,
    title: 'Install xz-utils 5.6.1+really5.4.5',
    severity: 'critical',
    cves: ['CVE-2024-3094'],
    device_ids: [11, 12],
    device_count: 2,
    ...overrides,
  };
}

export function buildUnknownHost(overrides: Partial<BatchUnknownHost> = {}): BatchUnknownHost {
  return {
    hostname: 'ghost-01',
    ip_addrs_private: ['10.9.9.9'],
    os: 'Windows Server 2019',
    cves: ['CVE-2024-3094'],
    ...overrides,
  };
}

export function buildZoneCve(overrides: Partial<ZoneCve> = {}): ZoneCve {
  return {
    cve: 'CVE-2024-3094',
    severity: 'critical',
    cvss: 10,
    title: 'xz backdoor',
    affected_device_count: 2,
    remediated_device_count: 1,
    excepted_device_count: 0,
    overdue_device_count: 1,
    first_seen_at: '2026-10-01T00:00:00Z',
    last_seen_at: '2026-11-20T00:00:00Z',
    due_at: '2026-10-16T00:00:00Z',
    ...overrides,
  };
}

export function buildCveException(overrides: Partial<CveException> = {}): CveException {
  const id = overrides.id ?? nextId++;
  return {
    id,
    cve: 'CVE-2024-3094',
    device_id: 12,
    hostname: 'db-1',
    kind: 'risk_accepted',
    reason: 'Isolated lab machine.',
    expires_at: '2099-01-31T23:59:59Z',
    created_by_user: user,
    created_at: '2026-11-01T00:00:00Z',
    revoked_at: null,
    revoked_by_user: null,
    state: 'active',
    ...overrides,
  };
}

export function buildCveDevice(overrides: Partial<CveDevice> = {}): CveDevice {
  return {
    device_id: 11,
    hostname: 'web-1',
    status: 'open',
    findings: [
      {
        batch_id: 40,
        source: 'qualys',
        file_name: 'scan-40.csv',
        line: 2,
        scanned_host: 'web-1.corp.example',
        matched_by: 'fqdn',
        severity_raw: '5',
        cvss: 10,
        seen_at: '2026-10-01T00:00:00Z',
      },
    ],
    installed: { name: 'xz-utils', version: '5.6.0-0.2' },
    fix: { kind: 'patch', name: 'xz-utils', version: '5.6.1+really5.4.5-1', source: 'apt' },
    exception: null,
    due_at: '2026-10-16T00:00:00Z',
    overdue: true,
    remediated_at: null,
    ...overrides,
  };
}

export function buildCveDetail(overrides: Partial<CveDetail> = {}): CveDetail {
  return {
    cve: buildZoneCve(),
    devices: [buildCveDevice()],
    devices_size: 1,
    exceptions: [],
    history: [
      { date: '2026-11-18', affected: 2, remediated: 0 },
      { date: '2026-11-19', affected: 2, remediated: 1 },
      { date: '2026-11-20', affected: 1, remediated: 1 },
    ],
    ...overrides,
  };
}
