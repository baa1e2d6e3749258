import type { RemediationSeverity } from '@patchwell/core/remediation/scanners.schema';
import type { AppContext } from '../../../context';
import { loadWorkletCatalog } from '../../worklets/worklet-catalog.loader';
import { matchHosts, planSolutions, unresolvedCves, type MatchWorklet } from './batch-matching';
import {
  deleteStagedFindings,
  findStagedFindings,
  insertFindings,
  type FindingOutcome,
  type NewFinding,
} from './batch-findings.store';
import {
  deleteSolutions,
  findPatchesFixing,
  findZoneCvesWithPatches,
  findZoneDevicesToMatch,
  insertSolutions,
  lockBuildingBatch,
  updateBatch,
  type Tx,
} from './batches.store';

/**
 * Building a batch: the upload's findings matched to the zone's live devices and to what fixes
 * each CVE there, in one transaction that holds the batch's row. The node that took the upload
 * matches the findings it parsed; any other reads the copy the upload staged. Reads are one
 * statement each (the zone's devices, the matched devices' patches fixing their CVEs, and
 * which remaining CVEs the zone has patches for), and the findings are written once, with
 * their matches, so the time grows with the data, not with queries per row. A node that dies
 * mid-build leaves nothing half-written: the batch is still `building` with its staged
 * findings, and a sweep builds it again.
 */

/** Worklets of the catalogue that declare CVEs they mitigate. */
function cveWorklets(): MatchWorklet[] {
  return loadWorkletCatalog()
    .filter((w) => w.cves?.length)
    .map((w) => ({ id: w.id, name: w.name, osFamily: w.os_family, cves: w.cves ?? [] }));
}

const solutionKey = (s: { kind: string; patchName: string | null; workletId: string | null }) =>
  `${s.kind}\u0000${s.patchName ?? s.workletId ?? ''}`;

/** The batch's findings: those the upload parsed when this node took it, else the staged copy. */
async function uploadedFindings(tx: Tx, batchId: number, parsed: NewFinding[] | undefined): Promise<NewFinding[]> {
  return parsed ?? (await findStagedFindings(tx, batchId)) ?? [];
}

/**
 * Builds batch `batchId` when it is still `building` and no other node holds it; answers
 * whether it did. `parsed`: the findings its upload read, on the node that took it. Ends in
 * `ready` with the findings and their matches, the solutions and the counts.
 */
export async function buildBatch(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  batchId: number,
  parsed?: NewFinding[],
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const batch = await lockBuildingBatch(tx, batchId);
    if (!batch) return false;
    const zoneId = batch.organizationId;
    const rows = await uploadedFindings(tx, batchId, parsed);
    const findings = rows.map((f, i) => ({
      id: i,
      hostname: f.hostname,
      fqdn: f.fqdn,
      ipAddrs: f.ipAddrs,
      cve: f.cve,
      severity: f.severity as RemediationSeverity,
    }));
    const devices = (await findZoneDevicesToMatch(tx, zoneId)).map((d) => ({
      id: d.id,
      hostname: d.hostname,
      fqdn: d.fqdn,
      ipAddrsPrivate: d.ip_addrs_private,
      osFamily: d.os_family,
    }));
    const hosts = matchHosts(findings, devices);
    // The pending patches of the matched devices that fix their findings' CVEs, in one query.
    const pairs = new Map<string, [number, string]>();
    findings.forEach((f, i) => {
      const host = hosts[i]!;
      if ('deviceId' in host) pairs.set(`${host.deviceId} ${f.cve}`, [host.deviceId, f.cve]);
    });
    const patches = (
      await findPatchesFixing(tx, {
        deviceIds: [...pairs.values()].map(([id]) => id),
        cves: [...pairs.values()].map(([, cve]) => cve),
      })
    ).map((p) => ({ deviceId: p.device_id, name: p.name, severity: p.severity, cves: [p.cve] }));
    const worklets = cveWorklets();
    // Whether a CVE no patch of its device fixes is fixed anywhere in the zone.
    const zoneCves = await findZoneCvesWithPatches(
      tx,
      zoneId,
      unresolvedCves(findings, hosts, devices, patches, worklets),
    );
    const result = planSolutions({ findings, hosts, devices, patches, worklets, zoneCves });
    // A build that an earlier, interrupted attempt began has nothing stored (one transaction);
    // this only keeps a rebuild from doubling solutions should that ever change.
    await deleteSolutions(tx, batchId);
    const stored = await insertSolutions(
      tx,
      result.solutions.map((s) => ({
        batchId,
        organizationId: zoneId,
        kind: s.kind,
        patchName: s.patchName,
        workletId: s.workletId,
        title: s.title,
        severity: s.severity,
        cves: s.cves,
        deviceIds: s.deviceIds,
        devicePatches: s.devicePatches,
      })),
    );
    const idOf = new Map(stored.map((s) => [solutionKey(s), s.id]));
    await insertFindings(
      tx,
      batchId,
      zoneId,
      rows,
      result.matches.map((m): FindingOutcome => ({
        deviceId: m.deviceId,
        matchedBy: m.matchedBy,
        issue: m.issue,
        solutionId: m.solutionKey === null ? null : (idOf.get(m.solutionKey) ?? null),
      })),
    );
    await deleteStagedFindings(tx, batchId);
    await updateBatch(tx, batchId, {
      status: 'ready',
      error: null,
      statistics: { rows: batch.rowCount, ...result.statistics },
      impactedDeviceCount: result.impactedDeviceCount,
      updatedAt: ctx.clock.now(),
    });
    return true;
  });
}

/**
 * Ends a batch that cannot be built in `error`, with the reason the console shows. Its
 * findings are written unmatched (its CSV stays downloadable) when they can be.
 */
export async function failBatch(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  batchId: number,
  reason: string,
  parsed?: NewFinding[],
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const batch = await lockBuildingBatch(tx, batchId);
    if (!batch) return;
    const rows = await uploadedFindings(tx, batchId, parsed);
    // In a savepoint: findings that cannot be written must not keep the batch building.
    await tx.transaction((sp) => insertFindings(sp, batchId, batch.organizationId, rows)).catch(() => undefined);
    await deleteStagedFindings(tx, batchId);
    await updateBatch(tx, batchId, { status: 'error', error: reason, updatedAt: ctx.clock.now() });
  });
}
