import type { RemediationSeverity, ScannerSource } from '@patchwell/core/remediation/scanners.schema';
import type { SolutionKind } from '@patchwell/core/remediation/batches.schema';
import { insertJobs, insertTasks, type Exec } from './tasks.store';

/**
 * Remediation tasks: one per solution of an accepted batch, each with a pending job per
 * device it covers. Executing, cancelling, listing and the jobs' outcomes build on these rows.
 */

/** A batch's solution as accepting it hands it over. */
export type SolutionForTask = {
  id: number;
  kind: SolutionKind;
  patchName: string | null;
  workletId: string | null;
  title: string;
  severity: RemediationSeverity;
  cves: string[];
  deviceIds: number[];
};

/**
 * Creates the tasks of an accepted batch, in the caller's transaction (the batch's status
 * change and its tasks land together or not at all). Returns the new tasks' ids.
 */
export async function createTasksForBatch(
  tx: Exec,
  input: {
    zoneId: number;
    batch: { id: number; source: ScannerSource };
    solutions: SolutionForTask[];
    userId: number | null;
    at: Date;
  },
): Promise<number[]> {
  const tasks = await insertTasks(
    tx,
    input.solutions.map((s) => ({
      organizationId: input.zoneId,
      batchId: input.batch.id,
      solutionId: s.id,
      type: 'patch' as const,
      kind: s.kind,
      title: s.title,
      patchName: s.patchName,
      workletId: s.workletId,
      cves: s.cves,
      severity: s.severity,
      source: input.batch.source,
      status: 'pending' as const,
      createdBy: input.userId,
      createdAt: input.at,
      updatedAt: input.at,
    })),
  );
  await insertJobs(
    tx,
    tasks.flatMap((task, i) =>
      [...new Set(input.solutions[i]!.deviceIds)].map((deviceId) => ({
        taskId: task.id,
        organizationId: input.zoneId,
        deviceId,
      })),
    ),
  );
  return tasks.map((t) => t.id);
}
