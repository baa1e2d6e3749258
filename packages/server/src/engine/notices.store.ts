import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { policyDeviceResults } from '../db/policies.schema';
import { chunks, type ResultRow, type Tx } from './engine.store';
import { noteRunsChanged } from './results.store';

/** SQL of deferred results (engine/notices.ts): the user postponed a run on their device. */

type Exec = Db | Tx;

/**
 * Puts an open result still carried out by `commandId` back to `pending` without a command
 * until `deferredUntil` (the user deferred the run); the catch-up queues it with `args` then.
 * Returns it when it was (an answer to an older command counts for nothing).
 */
export async function deferResult(
  db: Exec,
  resultId: number,
  commandId: number,
  deferral: { args: Record<string, unknown>; deferredUntil: Date; deferralsUsed: number; message: string },
): Promise<ResultRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(policyDeviceResults)
      .set({
        status: 'pending',
        commandId: null,
        queuedAt: null,
        args: deferral.args,
        deferredUntil: deferral.deferredUntil,
        deferralsUsed: deferral.deferralsUsed,
        message: deferral.message,
      })
      .where(
        and(
          eq(policyDeviceResults.id, resultId),
          eq(policyDeviceResults.commandId, commandId),
          inArray(policyDeviceResults.status, ['pending', 'in_progress']),
        ),
      )
      .returning();
    // In progress, it counted as started: its run may be back to `queued`.
    if (row) await noteRunsChanged(tx, [row.runId]);
    return row;
  });
}

/**
 * Deferrals each device already used on a still-waiting result of the policy, which the
 * next run supersedes: the new run carries the count on.
 */
export async function findDeferralsUsed(db: Exec, policyId: number, deviceIds: number[]): Promise<Map<number, number>> {
  const used = new Map<number, number>();
  for (const chunk of chunks(deviceIds, 5000)) {
    const rows = await db
      .select({ deviceId: policyDeviceResults.deviceId, used: sql<number>`max(${policyDeviceResults.deferralsUsed})` })
      .from(policyDeviceResults)
      .where(
        and(
          eq(policyDeviceResults.policyId, policyId),
          sql`${policyDeviceResults.deviceId} = any(${sql.param(chunk)}::int[])`,
          eq(policyDeviceResults.status, 'pending'),
          isNull(policyDeviceResults.commandId),
          sql`${policyDeviceResults.deferralsUsed} > 0`,
        ),
      )
      .groupBy(policyDeviceResults.deviceId);
    for (const r of rows) used.set(r.deviceId, Number(r.used));
  }
  return used;
}
