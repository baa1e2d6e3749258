import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
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
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type {
  AgentCommandArgs,
  AgentCommandType,
  InventorySystem,
  OsFamily,
  PatchSeverity,
} from '@patchwell/core/agent/agent-protocol.schema';
import type { CommandStatus, Compliance } from '@patchwell/core/devices/devices.schema';
import { organizations, users } from './schema';

/**
 * Device groups, enrolled devices, their presence, inventory (details, software, patches)
 * and the commands queued for them. Generated into ../../drizzle together with schema.ts
 * (drizzle.config.ts lists every schema file). Times come from the service's clock, as in
 * schema.ts.
 */

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tstz('created_at').notNull();

/**
 * Device groups (the family's server groups). Each zone has exactly one default group
 * (`is_default`), created lazily by the devices module; it cannot be deleted.
 */
export const serverGroups = pgTable(
  'server_groups',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => serverGroups.id, { onDelete: 'set null' }),
    /** Inventory refresh interval, minutes. */
    refreshInterval: integer('refresh_interval').notNull().default(1440),
    /** Agent check-in interval, seconds (copied onto the group's devices). */
    checkinIntervalS: integer('checkin_interval_s').notNull().default(60),
    notes: text('notes').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('server_groups_org_name_unique').on(t.organizationId, sql`lower(${t.name})`),
    uniqueIndex('server_groups_org_default_unique')
      .on(t.organizationId)
      .where(sql`${t.isDefault}`),
  ],
);

/**
 * Enrolled devices. The agent's token is stored as its SHA-256 (`token_hash`); a
 * re-enrolment of the same `machine_id` in the zone replaces it. `removed_at` marks a
 * device removed from the console: its agent is told to stop (410).
 */
export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => serverGroups.id),
    machineId: text('machine_id').notNull(),
    hostname: text('hostname').notNull(),
    customName: text('custom_name'),
    osFamily: text('os_family').$type<OsFamily>().notNull(),
    osName: text('os_name').notNull(),
    osVersion: text('os_version').notNull(),
    arch: text('arch').notNull().default(''),
    agentVersion: text('agent_version').notNull(),
    tokenHash: text('token_hash').notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    notes: text('notes').notNull().default(''),
    ipAddrs: text('ip_addrs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    ipAddrsPrivate: text('ip_addrs_private')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Seconds between check-ins (the group's), told to the agent at each check-in. */
    checkinIntervalS: integer('checkin_interval_s').notNull().default(60),
    needsReboot: boolean('needs_reboot').notNull().default(false),
    inventoryHash: text('inventory_hash'),
    lastInventoryAt: tstz('last_inventory_at'),
    /** IANA timezone the device reported (local-time policies run in it); null until its first inventory. */
    timezone: text('timezone'),
    /** The signed-in user, from the last check-in that changed it. */
    loggedInUser: text('logged_in_user'),
    removedAt: tstz('removed_at'),
    /** Overall compliance (core's deviceCompliance), rewritten whenever a policy status or the patches change. */
    compliance: text('compliance').$type<Compliance>().notNull().default('compliant'),
    /** Why, one sentence; empty until the rule first ran for the device. */
    complianceReason: text('compliance_reason').notNull().default(''),
    /** When the reason's words change by themselves (the patches it names age into the next bucket); the engine's tick rewords it then. */
    complianceReasonChangesAt: tstz('compliance_reason_changes_at'),
    pendingPatches: integer('pending_patches').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('devices_org_machine_unique').on(t.organizationId, t.machineId),
    uniqueIndex('devices_token_hash_unique').on(t.tokenHash),
    // The list's orders over live devices, with the id that breaks ties. The migration adds
    // INCLUDE (custom_name, hostname) by hand (drizzle cannot say it), so a page deep in the
    // list is read from the index alone: check-ins no longer write these rows (see
    // device_presence), so their pages stay all-visible and the heap is not visited.
    index('devices_org_name_idx')
      .on(t.organizationId, sql`lower(coalesce(${t.customName}, ${t.hostname}))`, t.id)
      .where(sql`${t.removedAt} is null`),
    index('devices_org_hostname_idx')
      .on(t.organizationId, sql`lower(${t.hostname})`, t.id)
      .where(sql`${t.removedAt} is null`),
    index('devices_org_created_idx')
      .on(t.organizationId, t.createdAt, t.id)
      .where(sql`${t.removedAt} is null`),
    // The filtered list's index: with the columns it filters and sorts by included (by hand
    // in the migration: group_id, compliance, needs_reboot, pending_patches, created_at,
    // custom_name, hostname), a list filtered by them, its count, and the ids to join with
    // presence are read from this index alone, a tenth of the table's size.
    index('devices_org_os_idx')
      .on(t.organizationId, t.osFamily, t.id)
      .where(sql`${t.removedAt} is null`),
    // The prepatch report's table: a zone's devices with pending patches, most first, and
    // their count, without reading the table (the report counts their patches page by page).
    index('devices_org_pending_idx')
      .on(t.organizationId, sql`${t.pendingPatches} desc`, t.id)
      .where(sql`${t.removedAt} is null and ${t.pendingPatches} > 0`),
    index('devices_group_idx').on(t.groupId),
    index('devices_tags_idx').using('gin', t.tags),
    // Only the few rows each finds: devices the compliance rule has not run on yet (the
    // start's backfill, ~nothing after the first start), and reasons due to be reworded.
    index('devices_compliance_unset_idx')
      .on(t.id)
      .where(sql`${t.complianceReason} = '' and ${t.removedAt} is null`),
    index('devices_reason_changes_idx')
      .on(t.complianceReasonChangesAt)
      .where(sql`${t.complianceReasonChangesAt} is not null and ${t.removedAt} is null`),
  ],
);

/**
 * When each live device last checked in: the one row a check-in writes. Kept apart from
 * `devices` so that 100,000 devices checking in every minute rewrite 60-byte rows here
 * instead of their device rows, which then stay unchanged between inventories, and the
 * device list reads their indexes without visiting the table. A device's first check-in
 * writes its row; one that never checked in has none (offline, never seen). Readers join
 * `devices` for the zone's live devices: a removed device keeps its row.
 */
export const devicePresence = pgTable(
  'device_presence',
  {
    deviceId: integer('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').notNull(),
    lastSeenAt: tstz('last_seen_at').notNull(),
    /**
     * The check-in's time plus the interval that check-in's answer gave the agent plus the
     * grace period: the device is online until then. Stored, so the online filter is a
     * comparison; an interval changed later takes effect at the device's next check-in,
     * the one that tells it the new interval.
     */
    onlineUntil: tstz('online_until').notNull(),
    /** Seconds since boot, from the last check-in. */
    uptimeS: bigint('uptime_s', { mode: 'number' }),
  },
  // No index on the times: a check-in then changes no indexed column and is a HOT update.
  (t) => [index('device_presence_org_idx').on(t.organizationId)],
);

/**
 * The days (UTC) on which each device checked in: what billing meters (a device is billable on
 * a day it checked in). Written with the presence rows by the check-in batch, only on a
 * device's first check-in of a day (its previous `last_seen_at` fell on an earlier day), so
 * the steady state adds no write. No foreign key: a device removed or deleted later was still
 * present that day, and the metering of a day must not change after the fact.
 */
export const devicePresenceDays = pgTable(
  'device_presence_days',
  {
    deviceId: integer('device_id').notNull(),
    organizationId: integer('organization_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.day] }),
    index('device_presence_days_org_day_idx').on(t.organizationId, t.day),
  ],
);

/**
 * The inventory's system part (CPU, RAM, disks, NICs…), read only by the device's own page.
 * Kept out of `devices` so the rows every list, count and check-in touch stay narrow: with it
 * inline, counting a 100,000-device zone read 180 MB.
 */
export const deviceDetails = pgTable('device_details', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  detail: jsonb('detail').$type<Partial<InventorySystem>>().notNull(),
  updatedAt: tstz('updated_at').notNull(),
});

/** Installed software of a device, replaced whole with each inventory. */
export const deviceSoftware = pgTable(
  'device_software',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    version: text('version').notNull(),
    source: text('source'),
    arch: text('arch'),
  },
  (t) => [index('device_software_device_idx').on(t.deviceId, t.name), index('device_software_name_idx').on(t.name)],
);

/** Available patches of a device, replaced whole with each inventory. */
export const devicePatches = pgTable(
  'device_patches',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    currentVersion: text('current_version'),
    version: text('version').notNull(),
    severity: text('severity').$type<PatchSeverity>().notNull(),
    cves: text('cves')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    kb: text('kb'),
    source: text('source'),
    rebootRequired: boolean('reboot_required').notNull().default(false),
    publishedAt: tstz('published_at'),
  },
  (t) => [
    index('device_patches_device_idx').on(t.deviceId, t.name),
    index('device_patches_name_idx').on(t.name),
    // Which patches fix a CVE (a scan's CVEs no patch of its device fixes, the CVE views):
    // an overlap (`cves && array[…]`) reads the index, not the zone's whole inventory.
    index('device_patches_cves_idx').using('gin', t.cves),
  ],
);

/**
 * The names of a device's available patches, each once, in its inventory's order: written with
 * the inventory, so that a patch_all run (engine/run-targets.store.ts) reads one row per device
 * instead of grouping the device's `device_patches` rows by name on every run.
 */
export const devicePatchNames = pgTable('device_patch_names', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  names: text('names').array().notNull(),
});

/**
 * Commands queued for devices. `pending` until a check-in hands it out (`in_progress`),
 * then final with the agent's result, or `timed_out` by the sweep once `deadline_at` passed.
 */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: serial('id').primaryKey(),
    // No foreign keys to the device or its zone: a policy run queues a command per device, and
    // each key checked and locked its device row per command (decision 0024). Devices are
    // removed by marking them, never deleted, and every writer takes the id from a live device.
    deviceId: integer('device_id').notNull(),
    // The device's zone, copied for filtering.
    organizationId: integer('organization_id').notNull(),
    type: text('type').$type<AgentCommandType>().notNull(),
    args: jsonb('args').$type<AgentCommandArgs>().notNull().default({}),
    status: text('status').$type<CommandStatus>().notNull().default('pending'),
    exitCode: integer('exit_code'),
    stdoutTail: text('stdout_tail'),
    stderrTail: text('stderr_tail'),
    data: jsonb('data'),
    timeoutS: integer('timeout_s').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The policy result this command carries out (policies.schema.ts), if any; no FK to keep the files apart. */
    policyResultId: integer('policy_result_id'),
    createdAt: createdAt(),
    startedAt: tstz('started_at'),
    finishedAt: tstz('finished_at'),
    deadlineAt: tstz('deadline_at').notNull(),
  },
  (t) => [
    index('device_commands_device_idx').on(t.deviceId, t.createdAt),
    index('device_commands_pending_idx')
      .on(t.deviceId)
      .where(sql`${t.status} = 'pending'`),
    index('device_commands_open_deadline_idx')
      .on(t.deadlineAt)
      .where(sql`${t.status} in ('pending', 'in_progress')`),
    // The reports' patch history and daily figures: a zone's finished commands by time.
    index('device_commands_org_finished_idx')
      .on(t.organizationId, t.finishedAt, t.id)
      .where(sql`${t.finishedAt} is not null`),
  ],
);
