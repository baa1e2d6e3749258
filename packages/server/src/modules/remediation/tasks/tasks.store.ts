import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { RemediationSeverity, ScannerSource } from '@patchwell/core/remediation/scanners.schema';
import type { TaskStatus } from '@patchwell/core/remediation/tasks.schema';
import type { Db } from '../../../db/client';
import { arrays } from '../../../db/raw';
import { remediationJobs, remediationTasks } from '../../../db/remediation.schema';
import { users } from '../../../db/schema';

/**
 * The only SQL that writes `remediation_tasks` (jobs are in jobs.store.ts). Other stores
 * may read both tables in joins (the CVE view reads jobs' outcomes).
 */

export type TaskRow = typeof remediationTasks.$inferSelect;
export type NewTask = typeof remediationTasks.$inferInsert;
export type JobRow = typeof remediationJobs.$inferSelect;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A connection or a transaction: accepting a batch creates its tasks in the batch's transaction. */
export type Exec = Db | Tx;

/** A task with the e-mails of who created and executed it. */
export type TaskWithUsers = TaskRow & { createdByEmail: string | null; executedByEmail: string | null };

export type TaskFilter = {
  status?: TaskStatus;
  severity?: RemediationSeverity;
  source?: ScannerSource;
  batchId?: number;
};
export type TaskSortField = 'id' | 'status' | 'severity' | 'source' | 'created_at' | 'title';
export type TaskSort = { field: TaskSortField; dir: 'asc' | 'desc' };

/** Inserts tasks in the given order; returns their rows in the same order. */
export async function insertTasks(exec: Exec, tasks: NewTask[]): Promise<TaskRow[]> {
  // Chunked: a statement holds at most 65,535 parameters, and a 20,000-row scan can make
  // 6,500 tasks of 17 columns each.
  const rows: TaskRow[] = [];
  for (let i = 0; i < tasks.length; i += 2000) {
    rows.push(
      ...(await exec
        .insert(remediationTasks)
        .values(tasks.slice(i, i + 2000))
        .returning()),
    );
  }
  return rows;
}

/**
 * One pending job per (task, device). Each column travels as one array (a job's patch names
 * as one text[] literal), so a statement carries four parameters whatever its jobs.
 */
export async function insertJobs(
  exec: Exec,
  jobs: Array<{ taskId: number; organizationId: number; deviceId: number; patchNames: string[] | null }>,
): Promise<void> {
  for (let i = 0; i < jobs.length; i += 10_000) {
    const chunk = jobs.slice(i, i + 10_000);
    await exec.execute(sql`
      insert into ${remediationJobs} (task_id, organization_id, device_id, patch_names)
      select task_id, organization_id, device_id, patch_names::text[]
        from unnest(${sql.param(chunk.map((j) => j.taskId))}::int[], ${sql.param(chunk.map((j) => j.organizationId))}::int[],
          ${sql.param(chunk.map((j) => j.deviceId))}::int[],
          ${sql.param(chunk.map((j) => (j.patchNames ? arrays.text(j.patchNames) : null)))}::text[])
          as j(task_id, organization_id, device_id, patch_names)`);
  }
}

// Ranks for sorting: a task's life from pending to canceled, and severity from worst.
const STATUS_RANK = sql`case ${remediationTasks.status} when 'pending' then 0 when 'in_progress' then 1 when 'executed' then 2 else 3 end`;
const SEVERITY_RANK = sql`case ${remediationTasks.severity} when 'critical' then 4 when 'high' then 3 when 'medium' then 2 when 'low' then 1 else 0 end`;

function orderOf(sort: TaskSort): SQL[] {
  const by = sort.dir === 'asc' ? asc : desc;
  const tail = [desc(remediationTasks.id)];
  switch (sort.field) {
    case 'status':
      // The spec: sorting by status also sorts by severity, worst first.
      return [by(STATUS_RANK), desc(SEVERITY_RANK), ...tail];
    case 'severity':
      return [by(SEVERITY_RANK), ...tail];
    case 'source':
      return [by(remediationTasks.source), ...tail];
    case 'title':
      return [by(sql`lower(${remediationTasks.title})`), ...tail];
    case 'created_at':
      return [by(remediationTasks.createdAt), ...tail];
    case 'id':
      return [by(remediationTasks.id)];
  }
}

const creator = alias(users, 'creator');
const executor = alias(users, 'executor');

function selectWithUsers(db: Exec) {
  return db
    .select({ task: remediationTasks, createdByEmail: creator.email, executedByEmail: executor.email })
    .from(remediationTasks)
    .leftJoin(creator, eq(creator.id, remediationTasks.createdBy))
    .leftJoin(executor, eq(executor.id, remediationTasks.executedBy));
}

const withUsers = (r: { task: TaskRow; createdByEmail: string | null; executedByEmail: string | null }) => ({
  ...r.task,
  createdByEmail: r.createdByEmail,
  executedByEmail: r.executedByEmail,
});

/** A page of the zone's tasks, filtered and sorted. */
export async function findTasks(
  db: Db,
  zoneId: number,
  filter: TaskFilter,
  sort: TaskSort,
  page: { offset: number; limit: number },
): Promise<{ rows: TaskWithUsers[]; size: number }> {
  const where = and(
    eq(remediationTasks.organizationId, zoneId),
    filter.status ? eq(remediationTasks.status, filter.status) : undefined,
    filter.severity ? eq(remediationTasks.severity, filter.severity) : undefined,
    filter.source ? eq(remediationTasks.source, filter.source) : undefined,
    filter.batchId !== undefined ? eq(remediationTasks.batchId, filter.batchId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    selectWithUsers(db)
      .where(where)
      .orderBy(...orderOf(sort))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(remediationTasks)
      .where(where),
  ]);
  return { rows: rows.map(withUsers), size: total?.n ?? 0 };
}

/** The zone's task, or undefined (another zone's answers alike). */
export async function findTask(db: Exec, zoneId: number, taskId: number): Promise<TaskWithUsers | undefined> {
  const [row] = await selectWithUsers(db)
    .where(and(eq(remediationTasks.organizationId, zoneId), eq(remediationTasks.id, taskId)))
    .limit(1);
  return row ? withUsers(row) : undefined;
}

/** Tasks by id, whatever their zone (the engine's pass over waiting jobs). */
export async function findTasksByIds(exec: Exec, ids: number[]): Promise<TaskRow[]> {
  if (!ids.length) return [];
  return exec.select().from(remediationTasks).where(inArray(remediationTasks.id, ids));
}

/**
 * Locks the zone's tasks among `ids` for the transaction (FOR UPDATE): two executes, or an
 * execute and a cancel, of one task run one after the other and the second sees the first's status.
 */
export async function lockTasks(tx: Tx, zoneId: number, ids: number[]): Promise<TaskRow[]> {
  if (!ids.length) return [];
  return tx
    .select()
    .from(remediationTasks)
    .where(and(eq(remediationTasks.organizationId, zoneId), inArray(remediationTasks.id, ids)))
    .orderBy(asc(remediationTasks.id))
    .for('update');
}

export async function setTasksInProgress(tx: Tx, taskIds: number[], userId: number, at: Date): Promise<void> {
  if (!taskIds.length) return;
  await tx
    .update(remediationTasks)
    .set({ status: 'in_progress', executedBy: userId, executedAt: at, updatedAt: at })
    .where(inArray(remediationTasks.id, taskIds));
}

/** The zone's tasks of batch `batchId`, locked for executing them, by id. */
export async function lockBatchTasks(tx: Tx, zoneId: number, batchId: number): Promise<TaskRow[]> {
  return tx
    .select()
    .from(remediationTasks)
    .where(and(eq(remediationTasks.organizationId, zoneId), eq(remediationTasks.batchId, batchId)))
    .orderBy(asc(remediationTasks.id))
    .for('update');
}

export async function setTaskCanceled(tx: Tx, taskId: number, at: Date): Promise<void> {
  await tx
    .update(remediationTasks)
    .set({ status: 'canceled', canceledAt: at, updatedAt: at })
    .where(eq(remediationTasks.id, taskId));
}

const NO_OPEN_JOB = sql`not exists (select 1 from ${remediationJobs} j
  where j.task_id = ${remediationTasks.id} and j.status in ('pending', 'in_progress'))`;

/** An in-progress task whose jobs are all finished becomes `executed`; returns whether it did. */
export async function closeTaskIfDone(exec: Exec, taskId: number, at: Date): Promise<ExecutedTask[]> {
  return exec
    .update(remediationTasks)
    .set({ status: 'executed', updatedAt: at })
    .where(and(eq(remediationTasks.id, taskId), eq(remediationTasks.status, 'in_progress'), NO_OPEN_JOB))
    .returning(EXECUTED_FIELDS);
}

const EXECUTED_FIELDS = {
  id: remediationTasks.id,
  organizationId: remediationTasks.organizationId,
  title: remediationTasks.title,
  kind: remediationTasks.kind,
  severity: remediationTasks.severity,
  cves: remediationTasks.cves,
  batchId: remediationTasks.batchId,
  executedAt: remediationTasks.executedAt,
};
/** A task that just became `executed`: what its `task.executed` webhook event says. */
export type ExecutedTask = {
  id: number;
  organizationId: number;
  title: string;
  kind: string;
  severity: string;
  cves: string[];
  batchId: number | null;
  executedAt: Date | null;
};

/** Jobs of each task by status. */
export async function countJobsOf(exec: Exec, taskIds: number[]): Promise<Map<number, Record<string, number>>> {
  const counts = new Map<number, Record<string, number>>();
  if (!taskIds.length) return counts;
  const rows = await exec
    .select({
      taskId: remediationJobs.taskId,
      status: remediationJobs.status,
      n: sql<number>`count(*)`.mapWith(Number),
    })
    .from(remediationJobs)
    .where(inArray(remediationJobs.taskId, taskIds))
    .groupBy(remediationJobs.taskId, remediationJobs.status);
  for (const r of rows) {
    const c = counts.get(r.taskId) ?? {};
    c[r.status] = r.n;
    counts.set(r.taskId, c);
  }
  return counts;
}

/** Every in-progress task with no open job left becomes `executed` (up to `limit`); returns how many. */
export async function closeDoneTasks(db: Exec, at: Date, limit: number): Promise<ExecutedTask[]> {
  const done = db
    .select({ id: remediationTasks.id })
    .from(remediationTasks)
    .where(and(eq(remediationTasks.status, 'in_progress'), NO_OPEN_JOB))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(remediationTasks)
    .set({ status: 'executed', updatedAt: at })
    .where(and(inArray(remediationTasks.id, done), eq(remediationTasks.status, 'in_progress')))
    .returning(EXECUTED_FIELDS);
  return rows;
}

/** Deletes the tasks (their jobs go with them). */
export async function deleteTaskRows(tx: Tx, zoneId: number, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const rows = await tx
    .delete(remediationTasks)
    .where(and(eq(remediationTasks.organizationId, zoneId), inArray(remediationTasks.id, ids)))
    .returning({ id: remediationTasks.id });
  return rows.length;
}
