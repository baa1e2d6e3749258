import { and, eq } from 'drizzle-orm';
import type { SolutionKind } from '@patchwell/core/remediation/batches.schema';
import type { RemediationSeverity, ScannerSource } from '@patchwell/core/remediation/scanners.schema';
import {
  cveDeviceStates,
  remediationBatches,
  remediationFindings,
  remediationSolutions,
} from '../db/remediation.schema';
import { recordAcceptedBatch } from '../modules/remediation/cves/cves.service';
import { createTasksForBatch } from '../modules/remediation/tasks/tasks.service';
import type { TestApp } from './app';

/**
 * An accepted scanner batch, written straight into the batches tables (the upload and its
 * matching belong to the batches module; these tests start where accepting hands over),
 * then accepted the way the batches module accepts it: its tasks and the zone's CVE states
 * created in one transaction.
 */

export type SolutionSpec = {
  kind?: SolutionKind;
  patchName?: string | null;
  workletId?: string | null;
  title?: string;
  severity?: RemediationSeverity;
  cves?: string[];
  deviceIds: number[];
  /** Each device's own versions of the fix (none: the job installs `patchName`). */
  devicePatches?: Record<string, string[]>;
};

export async function acceptedBatch(
  t: TestApp,
  input: { zoneId: number; userId: number | null; source?: ScannerSource; solutions: SolutionSpec[] },
): Promise<{ batchId: number; taskIds: number[] }> {
  const at = t.clock.now();
  const source = input.source ?? 'qualys';
  return t.db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(remediationBatches)
      .values({
        organizationId: input.zoneId,
        source,
        fileName: 'scan.csv',
        status: 'approved',
        createdBy: input.userId,
        decidedBy: input.userId,
        decidedAt: at,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    const specs = input.solutions.map((s, i) => ({
      kind: s.kind ?? ('patch-now' as const),
      patchName: s.kind === 'patch-with-worklet' ? null : (s.patchName ?? 'openssl'),
      workletId: s.workletId ?? null,
      title: s.title ?? `Solution ${i + 1}`,
      severity: s.severity ?? ('high' as const),
      cves: s.cves ?? [`CVE-2026-${String(1000 + i)}`],
      deviceIds: s.deviceIds,
      devicePatches: s.devicePatches ?? {},
    }));
    const solutions = await tx
      .insert(remediationSolutions)
      .values(specs.map((s) => ({ ...s, batchId: batch!.id, organizationId: input.zoneId })))
      .returning();
    // One scanner row per CVE and device, so accepting opens their CVE states.
    const findings = specs.flatMap((s) =>
      s.deviceIds.flatMap((deviceId) =>
        s.cves.map((cve) => ({
          batchId: batch!.id,
          organizationId: input.zoneId,
          line: 2,
          hostname: `device-${deviceId}`,
          cve,
          severity: s.severity,
          deviceId,
          matchedBy: 'hostname' as const,
        })),
      ),
    );
    for (let i = 0; i < findings.length; i += 5000) {
      await tx.insert(remediationFindings).values(findings.slice(i, i + 5000));
    }
    const taskIds = await createTasksForBatch(tx, {
      zoneId: input.zoneId,
      batch: { id: batch!.id, source },
      solutions: specs.map((s, i) => ({ ...s, id: solutions[i]!.id })),
      userId: input.userId,
      at,
    });
    await recordAcceptedBatch(tx, { zoneId: input.zoneId, batchId: batch!.id, at });
    return { batchId: batch!.id, taskIds };
  });
}

/** The device's status on the CVE in the zone's CVE view, or undefined. */
export async function cveStatus(t: TestApp, zoneId: number, cve: string, deviceId: number) {
  const [row] = await t.db
    .select({ status: cveDeviceStates.status })
    .from(cveDeviceStates)
    .where(
      and(
        eq(cveDeviceStates.organizationId, zoneId),
        eq(cveDeviceStates.cve, cve),
        eq(cveDeviceStates.deviceId, deviceId),
      ),
    );
  return row?.status;
}
