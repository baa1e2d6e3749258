import { dueAt } from '@patchwell/core/remediation/deadlines';
import { deadlinesFor } from '../cves/deadlines.service';
import type { SolutionKind } from '@patchwell/core/remediation/batches.schema';
import type { RemediationDeadlines } from '@patchwell/core/remediation/cves.schema';
import type { RemediationSeverity, ScannerSource } from '@patchwell/core/remediation/scanners.schema';
import type {
  JobStatus,
  RemediationStatus,
  Task,
  TaskJob,
  TaskJobList,
  TaskJobsQuery,
  TaskList,
  TaskListQuery,
  TaskOverallStatus,
  TaskStatus,
} from '@patchwell/core/remediation/tasks.schema';
import type { Action } from '@patchwell/core/zones/permissions';
import type { AppContext } from '../../../context';
import type { Authz } from '../../../domain/authz';
import { notFound } from '../../../domain/errors';
import type { ZoneRow } from '../../zones/zones.store';
import { requireZone } from '../../zones/zone-access.service';
import { countJobs, findJobs, findJobsAfter, type JobCounts, type JobWithDevice } from './jobs.store';
import {
  findTask,
  findTasks,
  insertJobs,
  insertTasks,
  type Exec,
  type TaskSort,
  type TaskSortField,
  type TaskWithUsers,
} from './tasks.store';

/**
 * Remediation tasks: one per solution of an accepted batch, each with a pending job per
 * device it covers. This file creates and reads them; task-actions.service.ts executes,
 * cancels and deletes them, task-results.service.ts takes their commands' results.
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
  /** A fix's exact patches by device id (each device's job installs its own). */
  devicePatches: Record<string, string[]>;
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
        patchNames: input.solutions[i]!.devicePatches[String(deviceId)] ?? null,
      })),
    ),
  );
  return tasks.map((t) => t.id);
}

/** When a task of this severity created at `createdAt` is due under `deadlines`; null when none applies. */
export const taskDueAt = dueAt;

/** The zone's remediation deadlines (the cves module owns them). */
const zoneDeadlines = (ctx: Pick<AppContext, 'db'>, zoneId: number) => deadlinesFor(ctx, zoneId);

/** The overall status the console shows, from the task's status and its jobs (spec B section 4). */
export function overallStatusOf(
  status: TaskStatus,
  counts: Pick<JobCounts, 'success' | 'failed' | 'open'>,
): TaskOverallStatus {
  if (status === 'canceled') return 'canceled';
  if (status === 'pending') return 'unknown';
  if (counts.open > 0) return 'in_progress';
  if (counts.failed > 0) return 'partially_executed';
  return counts.success > 0 ? 'executed' : 'unknown';
}

/** A job's per-device remediation status (the task CSV's); null when it did not run. */
export function remediationStatusOf(job: { status: JobStatus; commandId: number | null }): RemediationStatus | null {
  if (job.status === 'success') return 'remediated';
  if (job.status === 'error' || job.status === 'timed_out') return 'remediation_failed';
  if ((job.status === 'pending' || job.status === 'in_progress') && job.commandId !== null) return 'remediating';
  return null;
}

const NO_JOBS: Omit<JobCounts, 'taskId'> = { devices: 0, success: 0, running: 0, failed: 0, notRun: 0, open: 0 };

function toTask(
  row: TaskWithUsers,
  counts: Omit<JobCounts, 'taskId'>,
  deadlines: RemediationDeadlines,
  now: Date,
): Task {
  const overall = overallStatusOf(row.status, counts);
  const due = taskDueAt(row.createdAt, row.severity, deadlines);
  return {
    id: row.id,
    organization_id: row.organizationId,
    type: row.type,
    kind: row.kind,
    title: row.title,
    patch_name: row.patchName,
    worklet_id: row.workletId,
    cves: row.cves,
    severity: row.severity,
    source: row.source,
    batch_id: row.batchId,
    status: row.status,
    overall_status: overall,
    counts: {
      devices: counts.devices,
      remediated: counts.success,
      remediating: counts.running,
      remediation_failed: counts.failed,
      not_run: counts.notRun,
    },
    created_by_user: { id: row.createdBy, email: row.createdByEmail },
    executed_by_user: row.executedBy === null ? null : { id: row.executedBy, email: row.executedByEmail },
    created_at: row.createdAt.toISOString(),
    executed_at: row.executedAt?.toISOString() ?? null,
    due_at: due?.toISOString() ?? null,
    // Still owed: not done, not canceled, or done with devices that failed.
    overdue: due !== null && now > due && !['executed', 'canceled'].includes(overall),
  };
}

function toJob(row: JobWithDevice): TaskJob {
  return {
    id: row.id,
    device_id: row.deviceId,
    hostname: row.hostname,
    ip_addrs_private: row.ipAddrsPrivate,
    patch_names: row.patchNames,
    status: row.status,
    remediation_status: remediationStatusOf(row),
    exit_code: row.exitCode,
    output: row.output,
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The path's zone once the caller may do `action` on tasks in it; `o`, when given, must name
 * the same zone (a mismatch reveals nothing: 404).
 */
export async function requireTaskZone(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  action: Action,
): Promise<ZoneRow> {
  const zone = await requireZone(ctx, authz, orgId, 'Task', action);
  if (o !== undefined && o !== orgId) throw notFound();
  return zone;
}

/** The task as the API shows it (no permission check: callers made theirs); 404 when not the zone's. */
export async function taskView(ctx: AppContext, zoneId: number, taskId: number, exec: Exec = ctx.db): Promise<Task> {
  const row = await findTask(exec, zoneId, taskId);
  if (!row) throw notFound();
  const [counts] = await countJobs(ctx.db, [taskId]);
  return toTask(row, counts ?? NO_JOBS, await zoneDeadlines(ctx, zoneId), ctx.clock.now());
}

function sortOf(sort: string | undefined): TaskSort {
  if (!sort) return { field: 'id', dir: 'desc' };
  const [field, dir] = sort.split(':') as [TaskSortField, 'asc' | 'desc'];
  return { field, dir };
}

/** `GET /api/orgs/{orgId}/tasks` (Task.read): the zone's tasks, newest first unless sorted. */
export async function listTasks(ctx: AppContext, authz: Authz, orgId: number, query: TaskListQuery): Promise<TaskList> {
  const zone = await requireTaskZone(ctx, authz, orgId, query.o, 'read');
  const { rows, size } = await findTasks(
    ctx.db,
    zone.id,
    {
      status: query['status:equals'],
      severity: query['severity:equals'],
      source: query['source:equals'],
      batchId: query.batch_id,
    },
    sortOf(query.sort),
    { offset: query.page * query.limit, limit: query.limit },
  );
  const counts = new Map(
    (
      await countJobs(
        ctx.db,
        rows.map((r) => r.id),
      )
    ).map((c) => [c.taskId, c]),
  );
  const deadlines = await zoneDeadlines(ctx, zone.id);
  const now = ctx.clock.now();
  return { data: rows.map((r) => toTask(r, counts.get(r.id) ?? NO_JOBS, deadlines, now)), size };
}

/** `GET /api/orgs/{orgId}/tasks/{taskId}` (Task.read). */
export async function getTask(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  taskId: number,
): Promise<Task> {
  const zone = await requireTaskZone(ctx, authz, orgId, o, 'read');
  return taskView(ctx, zone.id, taskId);
}

/** `GET /api/orgs/{orgId}/tasks/{taskId}/jobs` (Task.read): its devices' jobs, by host name. */
export async function listTaskJobs(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  taskId: number,
  query: TaskJobsQuery,
): Promise<TaskJobList> {
  const zone = await requireTaskZone(ctx, authz, orgId, query.o, 'read');
  if (!(await findTask(ctx.db, zone.id, taskId))) throw notFound();
  const { rows, size } = await findJobs(ctx.db, taskId, {
    status: query.status,
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return { data: rows.map(toJob), size };
}

/** One line of the task CSV. */
export type TaskCsvRow = { hostname: string; privateIps: string[]; status: RemediationStatus | 'pending' | 'canceled' };

/**
 * `GET /api/orgs/{orgId}/tasks/{taskId}/csv` (Task.read): each device's remediation status,
 * read in pages so a 10,000-device task streams. Jobs that never ran say `pending` or `canceled`.
 */
export async function exportTaskCsv(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  taskId: number,
): Promise<{ fileName: string; pages: AsyncGenerator<TaskCsvRow[], void, void> }> {
  const zone = await requireTaskZone(ctx, authz, orgId, o, 'read');
  if (!(await findTask(ctx.db, zone.id, taskId))) throw notFound();
  async function* pages(): AsyncGenerator<TaskCsvRow[], void, void> {
    for (let after = 0; ;) {
      const rows = await findJobsAfter(ctx.db, taskId, after, 1000);
      if (!rows.length) return;
      after = rows[rows.length - 1]!.id;
      yield rows.map((r) => ({
        hostname: r.hostname,
        privateIps: r.ipAddrsPrivate,
        status: remediationStatusOf(r) ?? (r.status === 'canceled' ? 'canceled' : 'pending'),
      }));
    }
  }
  return { fileName: `task-${taskId}-remediation.csv`, pages: pages() };
}
