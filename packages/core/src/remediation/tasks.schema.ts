import { z } from 'zod';
import { ID_MAX } from '../constants';
import { ZPaging } from '../paging.schema';
import { ZRemediationType, ZSolutionKind } from './batches.schema';
import { ZRemediationSeverity, ZScannerSource } from './scanners.schema';

/**
 * Remediation tasks (spec B sections 3, 4, 6 and 7): accepting a batch makes one task per
 * solution (a patch to install now, or a worklet to run) over the devices it covers. A task
 * is `pending` until executed; executing it queues one device command per device (a job),
 * run once, now, without user notifications; cancelling it cancels the jobs not yet done.
 */

export const TASK_STATUSES = ['pending', 'in_progress', 'executed', 'canceled'] as const;
export const ZTaskStatus = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof ZTaskStatus>;

/** The overall status derived from the jobs (spec B section 4 "Remediation overall status"). */
export const TASK_OVERALL_STATUSES = ['in_progress', 'executed', 'partially_executed', 'canceled', 'unknown'] as const;
export const ZTaskOverallStatus = z.enum(TASK_OVERALL_STATUSES);
export type TaskOverallStatus = z.infer<typeof ZTaskOverallStatus>;

/** A job's result (spec B section 4 "Job result"). */
export const JOB_STATUSES = ['success', 'in_progress', 'error', 'pending', 'timed_out', 'canceled'] as const;
export const ZJobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof ZJobStatus>;

/** Per-device remediation status of the task CSV (spec B section 4). */
export const REMEDIATION_STATUSES = ['remediated', 'remediating', 'remediation_failed'] as const;
export const ZRemediationStatus = z.enum(REMEDIATION_STATUSES);
export type RemediationStatus = z.infer<typeof ZRemediationStatus>;

export const TASK_ACTIONS = ['cancel', 'execute'] as const;
export const ZTaskActionBody = z.object({ action: z.enum(TASK_ACTIONS) }).strict();
export type TaskActionBody = z.infer<typeof ZTaskActionBody>;

const id = z.coerce.number().int().positive().max(ID_MAX);
export const ZTaskParams = z.object({ orgId: id, taskId: id });

export const ZTaskCounts = z.object({
  devices: z.number().int(),
  remediated: z.number().int(),
  remediating: z.number().int(),
  remediation_failed: z.number().int(),
  /** Jobs not started (task pending) or canceled. */
  not_run: z.number().int(),
});
export type TaskCounts = z.infer<typeof ZTaskCounts>;

export const ZTask = z.object({
  id: z.number().int(),
  organization_id: z.number().int(),
  type: ZRemediationType,
  kind: ZSolutionKind,
  title: z.string(),
  patch_name: z.string().nullable(),
  worklet_id: z.string().nullable(),
  cves: z.array(z.string()),
  severity: ZRemediationSeverity,
  /** The scanner the batch came from. */
  source: ZScannerSource,
  batch_id: z.number().int().nullable(),
  status: ZTaskStatus,
  overall_status: ZTaskOverallStatus,
  counts: ZTaskCounts,
  created_by_user: z.object({ id: z.number().int().nullable(), email: z.string().nullable() }),
  executed_by_user: z.object({ id: z.number().int().nullable(), email: z.string().nullable() }).nullable(),
  created_at: z.string(),
  executed_at: z.string().nullable(),
  /** When the zone's deadline for this severity falls (null when none is set). */
  due_at: z.string().nullable(),
  overdue: z.boolean(),
});
export type Task = z.infer<typeof ZTask>;

export const TASK_SORT_FIELDS = ['id', 'status', 'severity', 'source', 'created_at', 'title'] as const;

/** `GET /api/orgs/{orgId}/tasks?limit&page&sort&status:equals&severity:equals&source:equals`. */
export const ZTaskListQuery = z
  .object({
    o: id.optional(),
    org: id.optional(),
    ...ZPaging.shape,
    /** `field:asc|desc`; sorting by status also sorts by severity descending. Default `id:desc`. */
    sort: z
      .string()
      .regex(new RegExp(`^(${TASK_SORT_FIELDS.join('|')}):(asc|desc)$`), 'Sort must be field:asc or field:desc.')
      .optional(),
    'status:equals': ZTaskStatus.optional(),
    'severity:equals': ZRemediationSeverity.optional(),
    'source:equals': ZScannerSource.optional(),
    batch_id: id.optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type TaskListQuery = z.infer<typeof ZTaskListQuery>;

export const ZTaskList = z.object({ data: z.array(ZTask), size: z.number().int() });
export type TaskList = z.infer<typeof ZTaskList>;

/** One device's job of a task. */
export const ZTaskJob = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  hostname: z.string(),
  ip_addrs_private: z.array(z.string()),
  /** The patches the job installs on this device (its own versions of the task's fix); null for a worklet. */
  patch_names: z.array(z.string()).nullable(),
  status: ZJobStatus,
  remediation_status: ZRemediationStatus.nullable(),
  exit_code: z.number().int().nullable(),
  /** The end of the command's output, for a failed job. */
  output: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type TaskJob = z.infer<typeof ZTaskJob>;

export const ZTaskJobsQuery = z
  .object({ o: id.optional(), org: id.optional(), ...ZPaging.shape, status: ZJobStatus.optional() })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type TaskJobsQuery = z.infer<typeof ZTaskJobsQuery>;

export const ZTaskJobList = z.object({ data: z.array(ZTaskJob), size: z.number().int() });
export type TaskJobList = z.infer<typeof ZTaskJobList>;

/**
 * `POST /api/orgs/{orgId}/tasks/execute` body: the tasks to execute at once, by id, or every
 * pending task of an accepted batch.
 */
export const ZTaskExecuteBody = z.union([
  z.object({ ids: z.array(id).min(1).max(5000) }).strict(),
  z.object({ batch_id: id }).strict(),
]);
export type TaskExecuteBody = { ids: number[]; batch_id?: undefined } | { batch_id: number; ids?: undefined };

export const ZTaskExecuteResult = z.object({
  /** The tasks executed now (a batch's tasks already executed or canceled are not). */
  task_ids: z.array(z.number().int()),
  /** Devices that were given a command. */
  device_count: z.number().int(),
});
export type TaskExecuteResult = z.infer<typeof ZTaskExecuteResult>;

/** `DELETE /api/orgs/{orgId}/tasks` body. */
export const ZTaskDeleteBody = z.object({ ids: z.array(id).min(1).max(500) }).strict();
export type TaskDeleteBody = z.infer<typeof ZTaskDeleteBody>;
