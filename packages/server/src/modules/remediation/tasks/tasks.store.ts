import type { Db } from '../../../db/client';
import { remediationJobs, remediationTasks } from '../../../db/remediation.schema';

/**
 * The only SQL that writes `remediation_tasks` and `remediation_jobs`. Other stores may read
 * them in joins (the CVE view reads jobs' outcomes).
 */

export type TaskRow = typeof remediationTasks.$inferSelect;
export type NewTask = typeof remediationTasks.$inferInsert;
export type JobRow = typeof remediationJobs.$inferSelect;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A connection or a transaction: accepting a batch creates its tasks in the batch's transaction. */
export type Exec = Db | Tx;

/** Inserts tasks in the given order; returns their rows in the same order. */
export async function insertTasks(exec: Exec, tasks: NewTask[]): Promise<TaskRow[]> {
  if (tasks.length === 0) return [];
  return exec.insert(remediationTasks).values(tasks).returning();
}

/** One pending job per (task, device). */
export async function insertJobs(
  exec: Exec,
  jobs: Array<{ taskId: number; organizationId: number; deviceId: number }>,
): Promise<void> {
  // Chunked: a solution may cover 10,000 devices and a statement holds at most 65,535 parameters.
  for (let i = 0; i < jobs.length; i += 5000) {
    await exec.insert(remediationJobs).values(jobs.slice(i, i + 5000));
  }
}
