import { and, asc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import type { JobStatus } from '@patchwell/core/remediation/tasks.schema';
import type { Db } from '../../../db/client';
import { arrays, queryRows, queryRowsAsJson } from '../../../db/raw';
import { remediationJobs, remediationTasks } from '../../../db/remediation.schema';
import { deviceCommands, devices } from '../../../db/devices.schema';
import type { JobRow, Tx } from './tasks.store';
import { insideWindowSql } from '../../maintenance-windows/maintenance-windows.store';

/**
 * The only SQL that writes `remediation_jobs` after their creation: commands given to them,
 * their results, cancels. A job is open while `pending` or `in_progress`.
 */

const OPEN: JobStatus[] = ['pending', 'in_progress'];

/** Per-task job counts, by what the console shows. */
export type JobCounts = {
  taskId: number;
  devices: number;
  success: number;
  /** Open jobs whose command was queued. */
  running: number;
  failed: number;
  /** Open jobs without a command, and canceled ones. */
  notRun: number;
  open: number;
};

/** Job counts of each task among `taskIds` (tasks without jobs are absent). */
export async function countJobs(db: Db, taskIds: number[]): Promise<JobCounts[]> {
  if (!taskIds.length) return [];
  const j = remediationJobs;
  const n = (filter: ReturnType<typeof sql>) => sql<number>`count(*) filter (where ${filter})`.mapWith(Number);
  return db
    .select({
      taskId: j.taskId,
      devices: sql<number>`count(*)`.mapWith(Number),
      success: n(sql`${j.status} = 'success'`),
      running: n(sql`${j.status} in ('pending', 'in_progress') and ${j.commandId} is not null`),
      failed: n(sql`${j.status} in ('error', 'timed_out')`),
      notRun: n(sql`(${j.status} = 'pending' and ${j.commandId} is null) or ${j.status} = 'canceled'`),
      open: n(sql`${j.status} in ('pending', 'in_progress')`),
    })
    .from(j)
    .where(inArray(j.taskId, taskIds))
    .groupBy(j.taskId);
}

export type JobWithDevice = JobRow & { hostname: string; ipAddrsPrivate: string[] };

/** A page of a task's jobs with their device, by host name. */
export async function findJobs(
  db: Db,
  taskId: number,
  options: { status?: JobStatus; offset: number; limit: number },
): Promise<{ rows: JobWithDevice[]; size: number }> {
  const where = and(
    eq(remediationJobs.taskId, taskId),
    options.status ? eq(remediationJobs.status, options.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ job: remediationJobs, hostname: devices.hostname, ipAddrsPrivate: devices.ipAddrsPrivate })
      .from(remediationJobs)
      .innerJoin(devices, eq(devices.id, remediationJobs.deviceId))
      .where(where)
      .orderBy(asc(sql`lower(${devices.hostname})`), asc(remediationJobs.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(remediationJobs)
      .where(where),
  ]);
  return {
    rows: rows.map((r) => ({ ...r.job, hostname: r.hostname, ipAddrsPrivate: r.ipAddrsPrivate })),
    size: total?.n ?? 0,
  };
}

/** Up to `limit` jobs of a task after job id `after`, with their device (the CSV's pages). */
export async function findJobsAfter(db: Db, taskId: number, after: number, limit: number): Promise<JobWithDevice[]> {
  const rows = await db
    .select({ job: remediationJobs, hostname: devices.hostname, ipAddrsPrivate: devices.ipAddrsPrivate })
    .from(remediationJobs)
    .innerJoin(devices, eq(devices.id, remediationJobs.deviceId))
    .where(and(eq(remediationJobs.taskId, taskId), gt(remediationJobs.id, after)))
    .orderBy(asc(remediationJobs.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.job, hostname: r.hostname, ipAddrsPrivate: r.ipAddrsPrivate }));
}

export type JobTarget = {
  taskId: number;
  jobId: number;
  deviceId: number;
  patchNames: string[] | null;
  osFamily: OsFamily;
  removed: boolean;
  /** Inside one of its group's maintenance windows now (or its group has none): it may start now. */
  inside: boolean;
};

/**
 * What executing needs of each open job of the tasks: its device's OS and whether it was
 * removed. Read as one JSON value (a big batch has 20,000 jobs; see queryRowsAsJson).
 */
export async function findJobTargets(tx: Tx, taskIds: number[], now: Date): Promise<JobTarget[]> {
  if (!taskIds.length) return [];
  return queryRowsAsJson<JobTarget>(
    tx as unknown as Db,
    sql`select j.task_id as "taskId", j.id as "jobId", j.device_id as "deviceId", j.patch_names as "patchNames",
               d.os_family as "osFamily", d.removed_at is not null as removed,
               ${insideWindowSql(sql`d.group_id`, now)} as inside
          from ${remediationJobs} j
          join ${devices} d on d.id = j.device_id
         where j.task_id = any(${arrays.int(taskIds)}::int[]) and j.status = any(${arrays.text(OPEN)}::text[])`,
    sql`q."taskId", q."jobId"`,
  );
}

/**
 * Locks up to `limit` jobs of executed tasks that wait for their device's maintenance window
 * (pending without a command) whose device is inside a window now, or was removed; answers
 * them with their task's id (the caller queues their commands, or closes the removed ones).
 */
export async function lockWaitingJobs(tx: Tx, now: Date, limit: number): Promise<JobTarget[]> {
  return queryRowsAsJson<JobTarget>(
    tx as unknown as Db,
    sql`select j.task_id as "taskId", j.id as "jobId", j.device_id as "deviceId", j.patch_names as "patchNames",
               d.os_family as "osFamily", d.removed_at is not null as removed, true as inside
          from ${remediationJobs} j
          join ${remediationTasks} t on t.id = j.task_id
          join ${devices} d on d.id = j.device_id
         where t.status = 'in_progress' and j.status = 'pending' and j.command_id is null
           and (d.removed_at is not null or ${insideWindowSql(sql`d.group_id`, now)})
         order by j.id
         limit ${limit}
         for update of j skip locked`,
    sql`q."taskId", q."jobId"`,
  );
}

/** Gives jobs their queued commands (pairs in the same order), in one statement per 10,000. */
export async function setJobCommands(tx: Tx, jobIds: number[], commandIds: number[]): Promise<void> {
  for (let i = 0; i < jobIds.length; i += 10_000) {
    const jobs = arrays.int(jobIds.slice(i, i + 10_000));
    const commands = arrays.int(commandIds.slice(i, i + 10_000));
    await tx.execute(sql`
      update ${remediationJobs} j set command_id = v.command_id
        from unnest(${jobs}::bigint[], ${commands}::int[]) as v(job_id, command_id)
       where j.id = v.job_id`);
  }
}

/** Closes open jobs without running them (a removed device, a worklet for another OS), with why. */
export async function closeJobsUnrun(
  tx: Tx,
  jobIds: number[],
  status: 'canceled' | 'error',
  output: string,
  at: Date,
): Promise<void> {
  if (!jobIds.length) return;
  await tx
    .update(remediationJobs)
    .set({ status, output, finishedAt: at })
    .where(and(inArray(remediationJobs.id, jobIds), inArray(remediationJobs.status, OPEN)));
}

/**
 * Cancels the open jobs of the tasks; returns, per task, the devices whose jobs had a
 * command (their CVE states were `remediating`) and those commands.
 */
export async function cancelOpenJobs(
  tx: Tx,
  taskIds: number[],
  at: Date,
): Promise<{ taskId: number; deviceId: number; commandId: number | null }[]> {
  if (!taskIds.length) return [];
  return tx
    .update(remediationJobs)
    .set({ status: 'canceled', finishedAt: at })
    .where(and(inArray(remediationJobs.taskId, taskIds), inArray(remediationJobs.status, OPEN)))
    .returning({
      taskId: remediationJobs.taskId,
      deviceId: remediationJobs.deviceId,
      commandId: remediationJobs.commandId,
    });
}

/** The commands of the tasks' open jobs (deleting a task cancels them). */
export async function findOpenJobCommands(
  tx: Tx,
  taskIds: number[],
): Promise<{ taskId: number; deviceId: number; commandId: number }[]> {
  if (!taskIds.length) return [];
  const rows = await tx
    .select({
      taskId: remediationJobs.taskId,
      deviceId: remediationJobs.deviceId,
      commandId: remediationJobs.commandId,
    })
    .from(remediationJobs)
    .where(
      and(
        inArray(remediationJobs.taskId, taskIds),
        inArray(remediationJobs.status, OPEN),
        isNotNull(remediationJobs.commandId),
      ),
    );
  return rows.map((r) => ({ ...r, commandId: r.commandId! }));
}

/** A job that just finished, with what the CVE view needs. */
export type FinishedJob = {
  taskId: number;
  deviceId: number;
  organizationId: number;
  cves: string[];
  status: JobStatus;
};

/**
 * Writes a command's final result onto the open job it carries out; undefined when no open
 * job has this command (not a task's command, or the job was canceled or already finished).
 */
export async function finishJobOfCommand(
  db: Db,
  commandId: number,
  outcome: { status: JobStatus; exitCode: number | null; output: string | null; startedAt: Date | null; at: Date },
): Promise<FinishedJob | undefined> {
  const [row] = await queryRows<FinishedJob>(
    db,
    sql`with done as (
          update ${remediationJobs} set
            status = ${outcome.status},
            exit_code = ${outcome.exitCode},
            output = ${outcome.output},
            started_at = coalesce(started_at, ${outcome.startedAt ?? outcome.at}),
            finished_at = ${outcome.at}
          where command_id = ${commandId} and status in ('pending', 'in_progress')
          returning task_id, device_id, organization_id, status
        )
        select d.task_id as "taskId", d.device_id as "deviceId", d.organization_id as "organizationId",
               d.status, t.cves
          from done d join ${remediationTasks} t on t.id = d.task_id`,
  );
  return row;
}

/** Open jobs whose command a device took: they become `in_progress` (up to `limit`); returns how many. */
export async function syncStartedJobs(db: Db, limit: number): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update ${remediationJobs} j set status = 'in_progress', started_at = c.started_at
          from ${deviceCommands} c
         where c.id = j.command_id
           and j.id in (select j2.id from ${remediationJobs} j2 join ${deviceCommands} c2 on c2.id = j2.command_id
                         where j2.status = 'pending' and c2.status = 'in_progress'
                         limit ${limit} for update of j2 skip locked)
        returning j.id`,
  );
  return rows.length;
}

/**
 * Open jobs whose command has a final status (timed out by the sweep, or a result whose
 * direct feedback was lost) take it (up to `limit`); returns them.
 */
export async function syncFinishedJobs(db: Db, limit: number, dryRunNote: string): Promise<FinishedJob[]> {
  // A dry run (the agent without --allow-changes) says `simulated` in its data: it changed nothing.
  const dryRun = sql`(c.status = 'success' and c.data->>'simulated' = 'true')`;
  return queryRows<FinishedJob>(
    db,
    sql`with done as (
          update ${remediationJobs} j set
            status = case when ${dryRun} then 'error' else c.status end,
            exit_code = c.exit_code,
            output = right(concat_ws(E'\n', case when ${dryRun} then ${dryRunNote}::text end,
                                     nullif(c.stdout_tail, ''), nullif(c.stderr_tail, '')), 4000),
            started_at = coalesce(j.started_at, c.started_at),
            finished_at = coalesce(c.finished_at, c.created_at)
          from ${deviceCommands} c
          where c.id = j.command_id
            and j.id in (select j2.id from ${remediationJobs} j2 join ${deviceCommands} c2 on c2.id = j2.command_id
                          where j2.status in ('pending', 'in_progress')
                            and c2.status not in ('pending', 'in_progress')
                          limit ${limit} for update of j2 skip locked)
          returning j.task_id, j.device_id, j.organization_id, j.status
        )
        select d.task_id as "taskId", d.device_id as "deviceId", d.organization_id as "organizationId",
               d.status, t.cves
          from done d join ${remediationTasks} t on t.id = d.task_id`,
  );
}
