import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { Compliance } from '@patchwell/core/devices/devices.schema';
import { organizations, users } from './schema';
import { devices } from './devices.schema';

/**
 * Policies, their schedules, runs and results, approvals, clone jobs and the activity log
 * (issue 5). Generated into ../../drizzle together with schema.ts (drizzle.config.ts lists
 * both files). Times come from the service's clock, as in schema.ts.
 */

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tstz('created_at').notNull();

export const POLICY_TYPES = ['patch', 'custom', 'required_software'] as const;
export type PolicyType = (typeof POLICY_TYPES)[number];
export const POLICY_STATUSES = ['active', 'inactive'] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];
export const RUN_TRIGGERS = ['schedule', 'manual', 'catch_up'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];
export const RUN_STATUSES = ['created', 'queued', 'running', 'completed', 'error', 'timeout'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RESULT_STATUSES = ['success', 'in_progress', 'error', 'pending', 'timed_out', 'canceled'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export const CLONE_JOB_STATUSES = ['queued', 'running', 'completed', 'error'] as const;
export type CloneJobStatus = (typeof CLONE_JOB_STATUSES)[number];

/**
 * A policy of a zone, in the product family's shape (FIELD-NOTES §3.1): `configuration` is
 * the type's payload as validated by core; the schedule is three bitmasks (bit 1 = Monday,
 * week 1, January; bit 0 unused) and a time. Deleting a policy keeps the row
 * (`deleted_at`) so its runs and results stay readable in reports.
 */
export const policies = pgTable(
  'policies',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').$type<PolicyType>().notNull(),
    status: text('status').$type<PolicyStatus>().notNull().default('inactive'),
    configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull().default({}),
    scheduleDays: integer('schedule_days').notNull().default(0),
    scheduleWeeksOfMonth: integer('schedule_weeks_of_month').notNull().default(0),
    scheduleMonths: integer('schedule_months').notNull().default(0),
    /** `HH:mm`, 24-hour. */
    scheduleTime: text('schedule_time').notNull().default('00:00'),
    /** `UTC+0000`-style offset of the 38 options; used when `use_scheduled_timezone`. */
    scheduledTimezone: text('scheduled_timezone').notNull().default('UTC+0000'),
    /** true: the time is in `scheduled_timezone`; false: in each device's local time. */
    useScheduledTimezone: boolean('use_scheduled_timezone').notNull().default(true),
    serverGroups: integer('server_groups')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    notes: text('notes').notNull().default(''),
    communityWorkletId: integer('community_worklet_id'),
    /** Set on a clone until someone saves its configuration. */
    needsConfiguration: boolean('needs_configuration').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('policies_org_idx').on(t.organizationId, t.id),
    index('policies_org_name_idx').on(t.organizationId, sql`lower(${t.name})`),
  ],
);

/**
 * When a policy is next due, per timezone key: the policy's own offset (`UTC+0100`), or,
 * for policies in each device's local time, one slot per IANA zone its devices report. A
 * node claims due slots with `FOR UPDATE SKIP LOCKED`, creates the run and advances
 * `next_run_at` in one transaction, so each due instant becomes one run on any number of nodes.
 */
export const policyScheduleSlots = pgTable(
  'policy_schedule_slots',
  {
    id: serial('id').primaryKey(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    tzKey: text('tz_key').notNull(),
    /** Null: never due (unscheduled or inactive policy). */
    nextRunAt: tstz('next_run_at'),
  },
  (t) => [
    uniqueIndex('policy_schedule_slots_unique').on(t.policyId, t.tzKey),
    index('policy_schedule_slots_due_idx')
      .on(t.nextRunAt)
      .where(sql`${t.nextRunAt} is not null`),
  ],
);

/** One execution of a policy: by its schedule (one per slot and instant), on demand, or a catch-up. */
export const policyRuns = pgTable(
  'policy_runs',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    trigger: text('trigger').$type<RunTrigger>().notNull(),
    status: text('status').$type<RunStatus>().notNull().default('created'),
    /** The slot's timezone key (scheduled runs); local-time slots target only devices in it. */
    tzKey: text('tz_key'),
    /** The due instant of a scheduled run. */
    scheduledFor: tstz('scheduled_for'),
    /** Manual runs on chosen devices (`remediateServer`); null: every targeted device. */
    deviceIds: integer('device_ids').array(),
    deviceCount: integer('device_count').notNull().default(0),
    successCount: integer('success_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    pendingCount: integer('pending_count').notNull().default(0),
    errorMessage: text('error_message'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    queuedAt: tstz('queued_at'),
    finishedAt: tstz('finished_at'),
  },
  (t) => [
    // The second guard of exactly-once: even a slot read twice cannot make a second run.
    uniqueIndex('policy_runs_schedule_unique')
      .on(t.policyId, t.tzKey, t.scheduledFor)
      .where(sql`${t.scheduledFor} is not null`),
    index('policy_runs_policy_idx').on(t.policyId, t.createdAt),
    index('policy_runs_open_idx')
      .on(t.status)
      .where(sql`${t.status} in ('created', 'queued', 'running')`),
  ],
);

/** A run's outcome on one device, with the command that carried it. */
export const policyDeviceResults = pgTable(
  'policy_device_results',
  {
    id: serial('id').primaryKey(),
    // The run, its policy and zone (copied for filtering), without foreign keys: each key
    // costs an index probe and a row lock per row when a run over 100,000 devices inserts its
    // results (decisions 0024, 0031). Runs, policies, zones and devices are never deleted.
    runId: integer('run_id').notNull(),
    policyId: integer('policy_id').notNull(),
    organizationId: integer('organization_id').notNull(),
    deviceId: integer('device_id').notNull(),
    status: text('status').$type<ResultStatus>().notNull(),
    /** Null while the result waits for the device (offline at run time, catch-up at its next check-in). */
    commandId: integer('command_id'),
    commandType: text('command_type'),
    /**
     * What the command will do (update names, a package, a script), kept while the result
     * waits without one (offline device, deferral); once queued, the command holds them.
     */
    args: jsonb('args').$type<Record<string, unknown>>().notNull().default({}),
    /** The patches selected for this device (patch policies). */
    selectedPatches: text('selected_patches')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    exitCode: integer('exit_code'),
    /** The agent only simulated it (no --allow-changes): a dry run, which never makes the device up to date. */
    simulated: boolean('simulated').notNull().default(false),
    stdoutTail: text('stdout_tail'),
    stderrTail: text('stderr_tail'),
    /** Why the result is what it is when no command explains it (nothing to do, missed, superseded). */
    message: text('message'),
    createdAt: createdAt(),
    queuedAt: tstz('queued_at'),
    finishedAt: tstz('finished_at'),
    /** The user deferred the run: it waits (pending, no command) until then, and is queued at the next check-in after. */
    deferredUntil: tstz('deferred_until'),
    /** Deferrals the user has used on this device for this run (carried over from a superseded one). */
    deferralsUsed: integer('deferrals_used').notNull().default(0),
  },
  (t) => [
    uniqueIndex('policy_device_results_run_device_unique').on(t.runId, t.deviceId),
    index('policy_device_results_device_idx').on(t.deviceId, t.policyId, t.createdAt),
    // Open results by policy and device: a run looks up each device's open run of the policy
    // (run-targets.store.ts). Keyed on the status alone, PostgreSQL with stale statistics
    // intersected it with the device index for every device, reading every open result
    // 100,000 times; a status-only read scans this partial index whole, as before.
    index('policy_device_results_open_idx')
      .on(t.policyId, t.deviceId)
      .where(sql`${t.status} in ('pending', 'in_progress')`),
  ],
);

/**
 * Runs whose results changed since the scheduler last recounted them: every writer of a
 * result's status notes the result's run here in its own transaction (engine/results.store.ts
 * `noteRunsChanged`), and the scheduler's tick recounts only the runs noted, forgetting a note
 * only when no writer renewed it meanwhile (`version`, drawn anew by each note). Without it
 * the tick counted every open run's results every 15 s: 149–312 ms on PGlite with a
 * 100,000-device run open, as one stays for days while offline devices catch up.
 * No key to the run: runs are never deleted (decision 0031).
 */
export const policyRunChanges = pgTable('policy_run_changes', {
  runId: integer('run_id').primaryKey(),
  version: bigserial('version', { mode: 'number' }).notNull(),
});

/** A device's standing against a policy (the family's `policy_status`): the last result, the next patch time. */
export const devicePolicyStatus = pgTable(
  'device_policy_status',
  {
    // No foreign keys: a run writes a standing per device, and each key checked and locked its
    // device and policy rows per standing (decision 0024). Devices and policies are only ever
    // marked removed or deleted: their rows stay.
    deviceId: integer('device_id').notNull(),
    policyId: integer('policy_id').notNull(),
    // The zone, copied for filtering.
    organizationId: integer('organization_id').notNull(),
    status: text('status').$type<Compliance>().notNull(),
    lastResultId: integer('last_result_id'),
    lastResultStatus: text('last_result_status').$type<ResultStatus>(),
    /** Exit code of the last worklet evaluation (custom policies). */
    evaluationExitCode: integer('evaluation_exit_code'),
    lastRunAt: tstz('last_run_at'),
    nextPatchTime: tstz('next_patch_time'),
    updatedAt: tstz('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.policyId] }),
    index('device_policy_status_policy_idx').on(t.policyId, t.status),
  ],
);

/** A patch waiting for (or given) approval under a manual-approval patch policy. */
export const policyApprovals = pgTable(
  'policy_approvals',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    patchName: text('patch_name').notNull(),
    patchVersion: text('patch_version').notNull(),
    severity: text('severity'),
    osFamily: text('os_family').notNull().default('linux'),
    cves: text('cves')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: text('status').$type<ApprovalStatus>().notNull().default('pending'),
    /** Devices that needed it when last seen by a run. */
    deviceCount: integer('device_count').notNull().default(0),
    createdAt: createdAt(),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: tstz('decided_at'),
  },
  (t) => [
    uniqueIndex('policy_approvals_unique').on(t.policyId, t.patchName, t.patchVersion),
    index('policy_approvals_org_status_idx').on(t.organizationId, t.status),
  ],
);

/** A clone in progress or done: cloning copies files and may take minutes, so it is a job. */
export const policyCloneJobs = pgTable(
  'policy_clone_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    sourcePolicyId: integer('source_policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    policyName: text('policy_name').notNull(),
    policyType: text('policy_type').$type<PolicyType>().notNull(),
    /** Zones to copy into. */
    targetZoneIds: integer('target_zone_ids').array().notNull(),
    /** The copies made so far: `{ policy_id, zone_id (uuid), org_id }`. */
    copies: jsonb('copies').$type<{ policy_id: number; zone_id: string; org_id: number }[]>().notNull().default([]),
    status: text('status').$type<CloneJobStatus>().notNull().default('queued'),
    /** 0–100. */
    progress: integer('progress').notNull().default(0),
    error: text('error'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: tstz('finished_at'),
  },
  (t) => [index('policy_clone_jobs_org_idx').on(t.organizationId, t.createdAt)],
);

/** Which policy a worklet evaluation command evaluates (the command's result sets the device's standing). */
export const policyEvaluations = pgTable(
  'policy_evaluations',
  {
    commandId: integer('command_id').primaryKey(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('policy_evaluations_device_idx').on(t.deviceId, t.policyId)],
);

// The activity log moved to its own file (its module owns it); old imports keep working.
export { activityLog } from './activity.schema';
