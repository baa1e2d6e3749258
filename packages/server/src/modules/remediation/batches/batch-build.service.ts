import type { RemediationSeverity } from '@patchwell/core/remediation/scanners.schema';
import type { AppContext } from '../../../context';
import { loadWorkletCatalog } from '../../worklets/worklet-catalog.loader';
import { matchHosts, planSolutions, unresolvedCves, type MatchWorklet } from './batch-matching';
import {
  deleteSolutions,
  findFindingsToMatch,
  findPatchesFixing,
  findZoneCvesWithPatches,
  findZoneDevicesToMatch,
  insertSolutions,
  lockBuildingBatch,
  updateBatch,
  updateFindingMatches,
} from './batches.store';

/**
 * Building a batch: its stored findings matched to the zone's live devices and to what fixes
 * each CVE there, in one transaction that holds the batch's row. Reads are one statement
 * each (the findings, the zone's devices, the matched devices' patches fixing their CVEs,
 * and which remaining CVEs the zone has patches for), so the time grows with the data, not
 * with queries per row. A node that dies mid-build leaves
 * nothing half-written: the batch is still `building`, and a sweep builds it again.
 */

/** Worklets of the catalogue that declare CVEs they mitigate. */
function cveWorklets(): MatchWorklet[] {
  return loadWorkletCatalog()
    .filter((w) => w.cves?.length)
    .map((w) => ({ id: w.id, name: w.name, osFamily: w.os_family, cves: w.cves ?? [] }));
}

const solutionKey = (s: { kind: string; patchName: string | null; workletId: string | null }) =>
  `${s.kind}\u0000${s.patchName ?? s.workletId ?? ''}`;

/**
 * Builds batch `batchId` when it is still `building` and no other node holds it; answers
 * whether it did. Ends in `ready` with the findings' matches, the solutions and the counts.
 */
export async function buildBatch(ctx: Pick<AppContext, 'db' | 'clock'>, batchId: number): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const batch = await lockBuildingBatch(tx, batchId);
    if (!batch) return false;
    const zoneId = batch.organizationId;
    const findings = (await findFindingsToMatch(tx, batchId)).map((f) => ({
      id: Number(f.id),
      hostname: f.hostname,
      fqdn: f.fqdn,
      ipAddrs: f.ip_addrs,
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
      })),
    );
    const idOf = new Map(stored.map((s) => [solutionKey(s), s.id]));
    await updateFindingMatches(
      tx,
      batchId,
      result.matches.map((m) => ({
        id: m.id,
        device_id: m.deviceId,
        matched_by: m.matchedBy,
        issue: m.issue,
        solution_id: m.solutionKey === null ? null : (idOf.get(m.solutionKey) ?? null),
      })),
    );
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

/** Ends a batch that cannot be built in `error`, with the reason the console shows. */
export async function failBatch(ctx: Pick<AppContext, 'db' | 'clock'>, batchId: number, reason: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await lockBuildingBatch(tx, batchId))) return;
    await updateBatch(tx, batchId, { status: 'error', error: reason, updatedAt: ctx.clock.now() });
  });
}
