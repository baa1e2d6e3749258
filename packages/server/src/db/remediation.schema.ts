import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  BatchIssueType,
  BatchStatistics,
  BatchStatus,
  RemediationType,
  SolutionKind,
} from '@patchwell/core/remediation/batches.schema';
import type { CveDeviceStatus, CveExceptionKind } from '@patchwell/core/remediation/cves.schema';
import type { RemediationSeverity, ScannerSource } from '@patchwell/core/remediation/scanners.schema';
import type { JobStatus, TaskStatus } from '@patchwell/core/remediation/tasks.schema';
import { organizations, users } from './schema';
import { devices } from './devices.schema';

/**
 * Vulnerability remediation (issue 11): scanner batches and their findings and solutions
 * (written by modules/remediation/batches), tasks and their per-device jobs (written by
 * modules/remediation/tasks), and the zone's CVE states, history, exceptions and deadlines
 * (written by modules/remediation/cves). Times come from the service's clock.
 */

/*
 * Device references. Findings, jobs, CVE states and CVE events name a device without a
 * foreign key to `devices`; each keeps the one to its owner (batch, task, zone) that carries
 * the cascade when a zone is deleted. Devices are never deleted on their own (a removed
 * device keeps its row, `removed_at`), and every writer takes the ids from rows of the same
 * zone read in its transaction. On PGlite each foreign-key check is a query of its own: a
 * 20,000-row batch built, accepted and executed ran some 95,000 of them, about a second of the
 * embedded database's time, to guard against a deletion that does not happen.
 */

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tstz('created_at').notNull();

/** An uploaded scanner export. Deleting the zone deletes its batches. */
export const remediationBatches = pgTable(
  'remediation_batches',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    type: text('type').$type<RemediationType>().notNull().default('patch'),
    source: text('source').$type<ScannerSource>().notNull(),
    fileName: text('file_name').notNull(),
    status: text('status').$type<BatchStatus>().notNull().default('building'),
    error: text('error'),
    rowCount: integer('row_count').notNull().default(0),
    impactedDeviceCount: integer('impacted_device_count').notNull().default(0),
    /** Null while building. */
    statistics: jsonb('statistics').$type<BatchStatistics>(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Who accepted or rejected it. */
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: tstz('decided_at'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull(),
  },
  (t) => [
    index('remediation_batches_org_idx').on(t.organizationId, t.createdAt),
    index('remediation_batches_building_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'building'`),
  ],
);

/**
 * A building batch's findings as the file was read, until its build writes them to
 * `remediation_findings` with what matching made of each (then this row is deleted). One
 * value per batch: an upload writes it in a statement, and a node that dies before building
 * leaves it for the next one. Written only by modules/remediation/batches.
 */
export const remediationBatchUploads = pgTable('remediation_batch_uploads', {
  batchId: integer('batch_id')
    .primaryKey()
    .references(() => remediationBatches.id, { onDelete: 'cascade' }),
  /**
   * The parsed findings in file order (`NewFinding[]` of batches/batch-findings.store.ts), as
   * gzipped JSON in base64, or plain JSON: a 20,000-row file is 7 MB of JSON that PostgreSQL
   * would parse (jsonb) or compress (text) on the upload's time, against ~1 MB zipped by Node.
   */
  findings: text('findings').notNull(),
});

/**
 * One host × CVE of a batch's file, with what matching made of it: the device it names
 * (`device_id`, `matched_by`), the solution that fixes it there (`solution_id`) or the
 * potential issue it is (`issue`).
 */
export const remediationFindings = pgTable(
  'remediation_findings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => remediationBatches.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').notNull(),
    /** The file's line the row ends on (header = line 1, after any preamble). */
    line: integer('line').notNull(),
    /** The host as the scanner wrote it (name, FQDN or IP). */
    hostname: text('hostname').notNull(),
    fqdn: text('fqdn'),
    ipAddrs: text('ip_addrs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    os: text('os'),
    cve: text('cve').notNull(),
    severity: text('severity').$type<RemediationSeverity>().notNull(),
    severityRaw: text('severity_raw').notNull().default(''),
    cvss: real('cvss'),
    title: text('title').notNull().default(''),
    solutionText: text('solution_text'),
    /** No foreign key: see "Device references" above. */
    deviceId: integer('device_id'),
    matchedBy: text('matched_by').$type<'hostname' | 'fqdn' | 'ip'>(),
    issue: text('issue').$type<BatchIssueType>(),
    solutionId: integer('solution_id'),
  },
  (t) => [
    index('remediation_findings_batch_idx').on(t.batchId, t.id),
    index('remediation_findings_issue_idx')
      .on(t.batchId, t.issue, t.id)
      .where(sql`${t.issue} is not null`),
    index('remediation_findings_device_cve_idx').on(t.organizationId, t.cve, t.deviceId),
  ],
);

/** One remediation of a batch: a patch to install now, or a worklet to run, over its devices. */
export const remediationSolutions = pgTable(
  'remediation_solutions',
  {
    id: serial('id').primaryKey(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => remediationBatches.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').notNull(),
    kind: text('kind').$type<SolutionKind>().notNull(),
    patchName: text('patch_name'),
    workletId: text('worklet_id'),
    title: text('title').notNull(),
    severity: text('severity').$type<RemediationSeverity>().notNull(),
    cves: text('cves')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    deviceIds: integer('device_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    /** A fix's exact patches to install, by device id: each device reports its own versions (KBs, builds). */
    devicePatches: jsonb('device_patches').$type<Record<string, string[]>>().notNull().default({}),
  },
  (t) => [index('remediation_solutions_batch_idx').on(t.batchId)],
);

/** A task made from a solution when its batch was accepted. */
export const remediationTasks = pgTable(
  'remediation_tasks',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    batchId: integer('batch_id').references(() => remediationBatches.id, { onDelete: 'set null' }),
    solutionId: integer('solution_id'),
    type: text('type').$type<RemediationType>().notNull().default('patch'),
    kind: text('kind').$type<SolutionKind>().notNull(),
    title: text('title').notNull(),
    patchName: text('patch_name'),
    workletId: text('worklet_id'),
    cves: text('cves')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    severity: text('severity').$type<RemediationSeverity>().notNull(),
    source: text('source').$type<ScannerSource>().notNull(),
    status: text('status').$type<TaskStatus>().notNull().default('pending'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    executedBy: integer('executed_by').references(() => users.id, { onDelete: 'set null' }),
    executedAt: tstz('executed_at'),
    canceledAt: tstz('canceled_at'),
    createdAt: createdAt(),
    updatedAt: tstz('updated_at').notNull(),
  },
  (t) => [
    index('remediation_tasks_org_idx').on(t.organizationId, t.id),
    index('remediation_tasks_batch_idx').on(t.batchId),
  ],
);

/** One device of a task: the command that carries it out and its result. */
export const remediationJobs = pgTable(
  'remediation_jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    taskId: integer('task_id')
      .notNull()
      .references(() => remediationTasks.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').notNull(),
    /** No foreign key: see "Device references" above. */
    deviceId: integer('device_id').notNull(),
    /** The device command (modules/commands), once executed; no FK, as policy results. */
    commandId: integer('command_id'),
    /** The patches this device's job installs (a fix's versions differ per device); null for a worklet. */
    patchNames: text('patch_names').array(),
    status: text('status').$type<JobStatus>().notNull().default('pending'),
    exitCode: integer('exit_code'),
    output: text('output'),
    startedAt: tstz('started_at'),
    finishedAt: tstz('finished_at'),
  },
  (t) => [
    uniqueIndex('remediation_jobs_task_device_unique').on(t.taskId, t.deviceId),
    index('remediation_jobs_command_idx')
      .on(t.commandId)
      .where(sql`${t.commandId} is not null`),
    index('remediation_jobs_device_idx').on(t.deviceId),
  ],
);

/**
 * Where each device of a zone stands on each CVE scanners reported for it: the CVE view's
 * rows, kept current as batches are accepted, jobs finish and exceptions change.
 */
export const cveDeviceStates = pgTable(
  'cve_device_states',
  {
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    cve: text('cve').notNull(),
    /** No foreign key: see "Device references" above. */
    deviceId: integer('device_id').notNull(),
    status: text('status').$type<CveDeviceStatus>().notNull(),
    severity: text('severity').$type<RemediationSeverity>().notNull(),
    cvss: real('cvss'),
    title: text('title').notNull().default(''),
    firstSeenAt: tstz('first_seen_at').notNull(),
    lastSeenAt: tstz('last_seen_at').notNull(),
    remediatedAt: tstz('remediated_at'),
    updatedAt: tstz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('cve_device_states_pk').on(t.organizationId, t.cve, t.deviceId),
    index('cve_device_states_device_idx').on(t.deviceId),
  ],
);

/** Every change of a device's status on a CVE, for the fix status over time. */
export const cveEvents = pgTable(
  'cve_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    cve: text('cve').notNull(),
    /** No foreign key: see "Device references" above. */
    deviceId: integer('device_id'),
    status: text('status').$type<CveDeviceStatus>().notNull(),
    /** What caused it: `batch:12`, `task:7`, `exception:3`. */
    cause: text('cause').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    at: tstz('at').notNull(),
  },
  (t) => [index('cve_events_org_cve_idx').on(t.organizationId, t.cve, t.at)],
);

/** A decision that takes a CVE out of the counts for one device or the whole zone, until it expires. */
export const cveExceptions = pgTable(
  'cve_exceptions',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    cve: text('cve').notNull(),
    /** Null: every device of the zone. */
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<CveExceptionKind>().notNull(),
    reason: text('reason').notNull(),
    expiresAt: tstz('expires_at'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    revokedBy: integer('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [index('cve_exceptions_org_cve_idx').on(t.organizationId, t.cve)],
);

/** A zone's days to remediate by severity; a zone without a row uses the defaults. */
export const remediationDeadlines = pgTable('remediation_deadlines', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  criticalDays: integer('critical_days'),
  highDays: integer('high_days'),
  mediumDays: integer('medium_days'),
  lowDays: integer('low_days'),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: tstz('updated_at').notNull(),
});
