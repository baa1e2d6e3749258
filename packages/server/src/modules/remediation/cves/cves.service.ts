import {
  CVE_DEVICE_STATUS_LABELS,
  CVE_EXCEPTION_KIND_LABELS,
  type CveCsvQuery,
  type CveDetail,
  type CveDetailQuery,
  type CveDevice,
  type CveListQuery,
  type CveSummary,
  type ZoneCve,
} from '@patchwell/core/remediation/cves.schema';
import type { AppContext } from '../../../context';
import type { Authz } from '../../../domain/authz';
import { notFound } from '../../../domain/errors';
import { cveHistory } from './cve-history';
import {
  findCve,
  findCveDevices,
  findCveList,
  findCveStatesPage,
  findCveSummary,
  type CveAggregate,
  type CveSortField,
  type CveStateRow,
  type ViewScope,
} from './cve-view.store';
import {
  findCveEvents,
  findFindings,
  findInstalledVersions,
  findPendingFixes,
  type FindingRow,
  type PendingFix,
} from './cve-explain.store';
import { cveZone } from './cve-zone';
import {
  findOpenCriticalCvesOfBatch,
  findOpenCvesOfBatch,
  markPatchedOutsideTasks,
  setRemediatingForTasks,
  setRemediationStatus,
  upsertStatesFromBatch,
  type Exec,
} from './cves.store';
import { enqueueWebhookEvents } from '../../webhooks/webhooks.service';
import { deadlinesFor } from './deadlines.service';
import { findExceptionsOfCve } from './exceptions.store';
import { recordExpiredExceptions, toCveException } from './exceptions.service';

/**
 * The zone's CVE view: which devices each reported CVE affects and where each stands. Its
 * states change when a batch is accepted (the scanner's word becomes the zone's), when a
 * remediation job starts or finishes, and when a device's inventory drops the patch that
 * fixed it; the view reads them with the exceptions in force and the zone's deadlines.
 */

/** An accepted batch's findings open their devices' CVE states (in the acceptance's transaction). */
export async function recordAcceptedBatch(
  tx: Exec,
  input: { zoneId: number; batchId: number; at: Date },
): Promise<void> {
  await recordExpiredExceptions(tx, input.zoneId, input.at);
  const openBefore = await findOpenCvesOfBatch(tx, input.zoneId, input.batchId);
  await upsertStatesFromBatch(tx, input.zoneId, input.batchId, input.at);
  // A critical CVE the zone had no open device for is news: the webhooks' event, in this transaction.
  const critical = await findOpenCriticalCvesOfBatch(tx, input.zoneId, input.batchId);
  await enqueueWebhookEvents(
    tx,
    input.zoneId,
    'vulnerability.critical',
    critical
      .filter((c) => !openBefore.has(c.cve))
      .map((c) => ({
        cve: c.cve,
        title: c.title,
        severity: 'critical',
        cvss: c.cvss,
        device_count: c.deviceCount,
        batch_id: input.batchId,
      })),
    input.at,
  );
}

/** A remediation job for these CVEs on a device started, succeeded or failed. */
export function recordRemediationOutcome(
  exec: Exec,
  input: {
    zoneId: number;
    deviceId: number;
    cves: string[];
    outcome: 'remediating' | 'remediated' | 'remediation_failed';
    taskId: number;
    at: Date;
  },
): Promise<void> {
  const { deviceId, ...rest } = input;
  return recordRemediationOutcomes(exec, { ...rest, deviceIds: [deviceId] });
}

/**
 * {@link recordRemediationOutcome} for many devices of one task in one statement: executing
 * it (`remediating`), the sweep's timeouts (`remediation_failed`), and cancelling it (`open`:
 * states the task left `remediating` are open again; others stay as they are).
 */
export function recordRemediationOutcomes(
  exec: Exec,
  input: {
    zoneId: number;
    deviceIds: number[];
    cves: string[];
    outcome: 'open' | 'remediating' | 'remediated' | 'remediation_failed';
    taskId: number;
    at: Date;
  },
): Promise<void> {
  return setRemediationStatus(exec, {
    zoneId: input.zoneId,
    deviceIds: input.deviceIds,
    cves: [...new Set(input.cves.map((c) => c.trim().toUpperCase()))],
    status: input.outcome,
    cause: `task:${input.taskId}`,
    at: input.at,
  });
}

/**
 * The jobs of many tasks started: `remediating` for the CVE states they cover, as
 * recordRemediationOutcomes would task after task (the first task names a state's event).
 */
export function recordRemediationStarts(
  exec: Exec,
  input: { zoneId: number; tasks: Array<{ taskId: number; deviceIds: number[]; cves: string[] }>; at: Date },
): Promise<void> {
  return setRemediatingForTasks(exec, {
    zoneId: input.zoneId,
    tasks: input.tasks.map((t) => ({ ...t, cves: [...new Set(t.cves.map((c) => c.trim().toUpperCase()))] })),
    at: input.at,
  });
}

/**
 * A device stored a new inventory: CVEs a batch matched to a pending patch on it that no
 * pending patch lists any more were patched outside a task (by hand, or by the OS's own
 * updates) and are remediated. One indexed statement; returns how many states changed.
 */
export function recordInventory(exec: Exec, input: { deviceId: number; at: Date }): Promise<number> {
  return markPatchedOutsideTasks(exec, input.deviceId, input.at);
}

async function scopeOf(ctx: AppContext, zoneId: number): Promise<ViewScope> {
  return { zoneId, deadlines: await deadlinesFor(ctx, zoneId), now: ctx.clock.now() };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toZoneCve(a: CveAggregate): ZoneCve {
  return {
    cve: a.cve,
    severity: a.severity,
    cvss: a.cvss,
    title: a.title,
    affected_device_count: a.affected,
    remediated_device_count: a.remediated,
    excepted_device_count: a.excepted,
    overdue_device_count: a.overdue,
    first_seen_at: iso(a.firstSeenMs)!,
    last_seen_at: iso(a.lastSeenMs)!,
    due_at: iso(a.dueMs),
  };
}

/** `GET /api/orgs/{orgId}/cves` (Task.read): the zone's CVEs with their counts, excepted devices left out. */
export async function listCves(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  query: CveListQuery,
): Promise<{ data: ZoneCve[]; size: number }> {
  const zone = await cveZone(ctx, authz, orgId, query.o, 'read');
  const [field, dir] = (query.sort ?? 'severity:desc').split(':') as [CveSortField, 'asc' | 'desc'];
  const { rows, size } = await findCveList(ctx.db, await scopeOf(ctx, zone.id), {
    severity: query.severity,
    search: query.search,
    overdue: query.overdue === undefined ? undefined : query.overdue === 'true',
    sort: { field, dir },
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return { data: rows.map(toZoneCve), size };
}

/** `GET /api/orgs/{orgId}/cves/summary` (Task.read): open CVEs, affected devices, overdue devices by severity. */
export async function getCveSummary(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  o: number | undefined,
): Promise<CveSummary> {
  const zone = await cveZone(ctx, authz, orgId, o, 'read');
  const s = await findCveSummary(ctx.db, await scopeOf(ctx, zone.id));
  return {
    open_cves: s.openCves,
    affected_devices: s.affectedDevices,
    overdue: s.overdue,
    overdue_total: s.overdueTotal,
  };
}

/** What fixes the CVE on a device: its pending patch (live inventory) first, else the accepted batch's solution. */
function fixOf(
  fix: PendingFix | undefined,
  finding: FindingRow | undefined,
  installed: Map<string, string>,
): Pick<CveDevice, 'installed' | 'fix'> {
  if (fix) {
    return {
      installed: { name: fix.name, version: fix.installedVersion ?? fix.currentVersion },
      fix: { kind: 'patch', name: fix.name, version: fix.version, source: fix.source },
    };
  }
  const solution = finding?.solution;
  if (!solution) return { installed: null, fix: null };
  if (solution.kind === 'patch-with-worklet') {
    return {
      installed: null,
      fix: { kind: 'worklet', name: solution.title, version: null, source: solution.workletId },
    };
  }
  const name = solution.patchName ?? solution.title;
  const version = installed.get(`${finding.deviceId}:${name}`);
  return {
    installed: version === undefined ? null : { name, version },
    fix: { kind: 'patch', name, version: null, source: null },
  };
}

/** Scanner rows shown per device: the newest few explain the match; older ones repeat it. */
const FINDINGS_PER_DEVICE = 10;

/**
 * `GET /api/orgs/{orgId}/cves/{cve}` (Task.read): the CVE's counts, a page of its devices with
 * why each matched, its fix and its exception, every exception of the CVE, and its history.
 * A CVE no live device of the zone has answers 404, whatever other zones hold.
 */
export async function getCveDetail(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  cve: string,
  query: CveDetailQuery,
): Promise<CveDetail> {
  const zone = await cveZone(ctx, authz, orgId, query.o, 'read');
  const scope = await scopeOf(ctx, zone.id);
  const aggregate = await findCve(ctx.db, scope, cve);
  if (!aggregate) throw notFound();
  const [page, exceptions, events] = await Promise.all([
    findCveDevices(ctx.db, scope, cve, { offset: query.page * query.limit, limit: query.limit }),
    findExceptionsOfCve(ctx.db, zone.id, cve),
    findCveEvents(ctx.db, zone.id, cve),
  ]);
  const ids = page.rows.map((r) => r.deviceId);
  const [findings, fixes] = await Promise.all([
    findFindings(ctx.db, zone.id, cve, ids, FINDINGS_PER_DEVICE),
    findPendingFixes(ctx.db, cve, ids),
  ]);
  const findingsOf = new Map<number, FindingRow[]>();
  for (const f of findings) findingsOf.set(f.deviceId, [...(findingsOf.get(f.deviceId) ?? []), f]);
  const fixOfDevice = new Map<number, PendingFix>();
  for (const f of fixes) if (!fixOfDevice.has(f.deviceId)) fixOfDevice.set(f.deviceId, f);
  const wanted = ids
    .filter((id) => !fixOfDevice.has(id))
    .flatMap((id) => {
      const s = findingsOf.get(id)?.[0]?.solution;
      return s?.kind === 'patch-now' ? [{ deviceId: id, name: s.patchName ?? s.title }] : [];
    });
  const installed = await findInstalledVersions(ctx.db, wanted);
  const exceptionById = new Map(exceptions.map((e) => [e.id, e]));

  const devices = page.rows.map((r: CveStateRow): CveDevice => {
    const rows = findingsOf.get(r.deviceId) ?? [];
    const exception = r.exceptionId === null ? undefined : exceptionById.get(r.exceptionId);
    return {
      device_id: r.deviceId,
      hostname: r.hostname,
      status: r.status,
      findings: rows.map((f) => ({
        batch_id: f.batchId,
        source: f.source,
        file_name: f.fileName,
        line: f.line,
        scanned_host: f.scannedHost,
        matched_by: f.matchedBy,
        severity_raw: f.severityRaw,
        cvss: f.cvss,
        seen_at: iso(f.seenMs)!,
      })),
      ...fixOf(fixOfDevice.get(r.deviceId), rows[0], installed),
      exception: exception ? toCveException(exception, scope.now) : null,
      due_at: iso(r.dueMs),
      overdue: r.overdue,
      remediated_at: iso(r.remediatedMs),
    };
  });

  const history = cveHistory(
    events,
    exceptions.map((e) => {
      const ends = [e.revokedAt?.getTime(), e.expiresAt?.getTime()].filter((t): t is number => t !== undefined);
      return { deviceId: e.deviceId, createdMs: e.createdAt.getTime(), endMs: ends.length ? Math.min(...ends) : null };
    }),
    scope.now.getTime(),
  );
  return {
    cve: toZoneCve(aggregate),
    devices,
    devices_size: page.size,
    exceptions: exceptions.map((e) => toCveException(e, scope.now)),
    history,
  };
}

/** The CSV export's columns, in order. */
export const CVE_CSV_HEADERS = [
  'CVE',
  'Title',
  'Severity',
  'CVSS',
  'Device ID',
  'Hostname',
  'Status',
  'Exception',
  'Exception expires',
  'First seen',
  'Last seen',
  'Due',
  'Overdue',
  'Remediated',
];

function csvRow(r: CveStateRow): (string | number | null)[] {
  const isHeld = r.status === 'excepted' && r.exceptionKind !== null;
  return [
    r.cve,
    r.title,
    r.severity,
    r.cvss,
    r.deviceId,
    r.hostname,
    CVE_DEVICE_STATUS_LABELS[r.status],
    isHeld ? CVE_EXCEPTION_KIND_LABELS[r.exceptionKind!] : null,
    isHeld ? iso(r.exceptionExpiresMs) : null,
    iso(r.firstSeenMs),
    iso(r.lastSeenMs),
    iso(r.dueMs),
    r.overdue ? 'Yes' : 'No',
    iso(r.remediatedMs),
  ];
}

/**
 * `GET /api/orgs/{orgId}/cves/csv` (Task.read): one row per CVE and device, in pages read as
 * the response streams. The permission is checked before the first byte; the route guards cells.
 */
export async function exportCves(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  query: CveCsvQuery,
): Promise<AsyncGenerator<(string | number | null)[][], void, void>> {
  const zone = await cveZone(ctx, authz, orgId, query.o, 'read');
  const scope = await scopeOf(ctx, zone.id);
  const filters = {
    severity: query.severity,
    search: query.search,
    overdue: query.overdue === undefined ? undefined : query.overdue === 'true',
  };
  const pageSize = 2000;
  async function* pages(): AsyncGenerator<(string | number | null)[][], void, void> {
    let after: { cve: string; deviceId: number } | null = null;
    for (;;) {
      const rows = await findCveStatesPage(ctx.db, scope, filters, after, pageSize);
      if (rows.length) yield rows.map(csvRow);
      if (rows.length < pageSize) return;
      const last = rows[rows.length - 1]!;
      after = { cve: last.cve, deviceId: last.deviceId };
    }
  }
  return pages();
}
