import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { BANNER_TYPES } from '@patchwell/core/shell/banner.schema';
import { USER_STATUSES } from '@patchwell/core/auth/profile.schema';
import { ACCOUNT_ROLES } from '@patchwell/core/zones/roles';
import { PLANS } from '@patchwell/core/rules/tiers';
import type {
  AgentCommandArgs,
  AgentCommandType,
  InventorySystem,
  OsFamily,
  PatchSeverity,
} from '@patchwell/core/agent/agent-protocol.schema';
import type { CommandStatus, Compliance } from '@patchwell/core/devices/devices.schema';
import { SESSION_IDLE_DEFAULT_MINUTES, SESSION_LIFETIME_DEFAULT_MINUTES } from '@patchwell/core/constants';

/**
 * The database schema. Migrations in ../../drizzle are generated from this file with
 * `npm run db:new -- <name>`; they are forward-only. Times are `timestamptz`, written from
 * the service's clock (never the database's `now()`) so tests can move time.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull();
const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const planEnum = pgEnum('plan', PLANS);
export const accountRoleEnum = pgEnum('account_rbac_role', ACCOUNT_ROLES);
export const userStatusEnum = pgEnum('user_status', USER_STATUSES);
export const bannerTypeEnum = pgEnum('banner_type', BANNER_TYPES);
/** What a `login_failures` row counts; see that table. */
export const loginFailureKindEnum = pgEnum('login_failure_kind', ['ip', 'account', 'signup']);

/** A customer: owns zones and users. */
export const accounts = pgTable('accounts', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  name: text('name').notNull(),
  createdAt: createdAt(),
  /** Whether the account finished the quick start guide (the dashboard shows onboarding until then). */
  completedQsg: boolean('completed_qsg').notNull().default(false),
});

export type SamlSettings = { enabled: boolean; redirect: string | null };

/** Zones (the spec's organisations). A zone may have a parent zone of the same account. */
export const organizations = pgTable(
  'organizations',
  {
    id: serial('id').primaryKey(),
    /** The public zone id. */
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => organizations.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    plan: planEnum('plan').notNull().default('tier3'),
    trialEndTime: tstz('trial_end_time'),
    disabled: boolean('disabled').notNull().default(false),
    /** sha256 of the agents' enrolment key; the key itself is shown once. */
    accessKeyHash: text('access_key_hash'),
    /** The same key encrypted (AES-256-GCM, see modules/zones/access-key.ts) so admins can read it again. */
    accessKeyEncrypted: text('access_key_encrypted'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    saml: jsonb('saml').$type<SamlSettings>().notNull().default({ enabled: false, redirect: null }),
    /** Id of the zone in a system this one was imported from. */
    legacyId: integer('legacy_id'),
    sessionMaxLifetimeMinutes: integer('session_max_lifetime_minutes')
      .notNull()
      .default(SESSION_LIFETIME_DEFAULT_MINUTES),
    sessionIdleTimeoutMinutes: integer('session_idle_timeout_minutes').notNull().default(SESSION_IDLE_DEFAULT_MINUTES),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('organizations_account_name_unique').on(t.accountId, sql`lower(${t.name})`),
    index('organizations_parent_idx').on(t.parentId),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    /** Always stored lower-cased (sign-in lower-cases the username too). */
    email: text('email').notNull(),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull(),
    /** argon2id PHC string; null for invited users who have not chosen a password yet. */
    passwordHash: text('password_hash'),
    accountRbacRole: accountRoleEnum('account_rbac_role').notNull().default('no-global-access'),
    status: userStatusEnum('status').notNull().default('active'),
    /**
     * Set after too many consecutive failed sign-ins. The lock holds until `locked_until`,
     * an administrator's unlock, or the unlock link mailed to the user, whichever comes first.
     */
    locked: boolean('locked').notNull().default(false),
    /** End of the current lock; it grows with each further lock (see signin.service.ts). */
    lockedUntil: tstz('locked_until'),
    /** Locks since the last successful sign-in: each one doubles the next lock's length. */
    lockCount: integer('lock_count').notNull().default(0),
    /** sha256 of the single-use unlock link's token (the token exists only in the e-mail). */
    unlockTokenHash: text('unlock_token_hash'),
    unlockTokenExpiresAt: tstz('unlock_token_expires_at'),
    /** Failed sign-ins since the last successful one; reaching the limit sets `locked`. */
    failedSigninCount: integer('failed_signin_count').notNull().default(0),
    tfaEnabled: boolean('tfa_enabled').notNull().default(false),
    samlEnabled: boolean('saml_enabled').notNull().default(false),
    /** Per-user flags the console reads, such as `overviewReportRun`. */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    passwordChangedAt: tstz('password_changed_at'),
    lastSigninAt: tstz('last_signin_at'),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_unlock_token_unique')
      .on(t.unlockTokenHash)
      .where(sql`${t.unlockTokenHash} is not null`),
    index('users_account_idx').on(t.accountId),
    check('users_email_lowercase', sql`${t.email} = lower(${t.email})`),
  ],
);

/** The role a user holds in a zone (role ids of core/zones/roles.ts). */
export const userZoneRoles = pgTable(
  'user_zone_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.organizationId] }), index('user_zone_roles_org_idx').on(t.organizationId)],
);

/** Server-side sessions. The id is the sha256 of the cookie's token; the token itself is never stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: tstz('last_seen_at').notNull(),
    /** When the session ends if nothing else happens (earlier of the absolute and idle bounds), as of the last touch. */
    expiresAt: tstz('expires_at').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Attempts counted for rate limits, one row each: failed sign-ins per client address
 * (`ip`) and per e-mail tried (`account`), and sign-up attempts per client address
 * (`signup`). Rows older than the longest window are swept periodically.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: serial('id').primaryKey(),
    kind: loginFailureKindEnum('kind').notNull(),
    /** The client address (`ip`, `signup`) or the lower-cased e-mail tried (`account`). */
    key: text('key').notNull(),
    occurredAt: tstz('occurred_at').notNull(),
  },
  (t) => [
    index('login_failures_key_idx').on(t.kind, t.key, t.occurredAt),
    index('login_failures_time_idx').on(t.occurredAt),
  ],
);

/** Feature flag overrides: per account (`organization_id` null) or per zone. */
export const featureFlags = pgTable(
  'feature_flags',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull(),
  },
  (t) => [uniqueIndex('feature_flags_scope_unique').on(t.accountId, sql`coalesce(${t.organizationId}, 0)`, t.name)],
);

/**
 * Answers of run-starting POSTs sent with an `Idempotency-Key`, per user and zone, so a
 * retried request returns the first answer instead of starting a second run. A row without
 * `status_code` is a request still in progress. Rows past `expires_at` are replaced.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The zone asked for (`o`), 0 when the request named none. */
    organizationId: integer('organization_id').notNull(),
    key: text('key').notNull(),
    /** `POST /api/policies/7/action`: the same key on another request is refused. */
    request: text('request').notNull(),
    statusCode: integer('status_code'),
    body: jsonb('body'),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.organizationId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);

/** Server alert banners shown to every signed-in user while active. */
export const banners = pgTable('banners', {
  id: serial('id').primaryKey(),
  message: text('message').notNull(),
  messagetype: bannerTypeEnum('messagetype').notNull(),
  startsAt: tstz('starts_at').notNull(),
  endsAt: tstz('ends_at'),
});

export const userPrefs = pgTable(
  'user_prefs',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    prefName: text('pref_name').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.prefName] })],
);

/** Zone preferences (`GET/POST /api/orgs/self/prefs`). */
export const orgPrefs = pgTable(
  'org_prefs',
  {
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    prefName: text('pref_name').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.prefName] })],
);

/**
 * An invitation to join a zone with a role. The e-mailed link carries a random token; only
 * its sha256 is stored. Single use (`accepted_at`), expiring, revocable.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').notNull(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: tstz('expires_at').notNull(),
    acceptedAt: tstz('accepted_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [
    uniqueIndex('invitations_token_unique').on(t.tokenHash),
    index('invitations_org_idx').on(t.organizationId),
    index('invitations_user_idx').on(t.userId),
  ],
);

/**
 * Personal API keys (Settings › Keys), sent as `Authorization: Bearer`. Only the sha256 of
 * the key is stored; `prefix` (its first characters) lets people tell keys apart. A key
 * acts with its owner's current permissions in `organization_id`, or in every zone of the
 * account when null (global administrators only).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: tstz('last_used_at'),
    expiresAt: tstz('expires_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_unique').on(t.keyHash), index('api_keys_user_idx').on(t.userId)],
);

/**
 * Outgoing mail. Every message is recorded; with SMTP configured it is sent and `sent_at`
 * set, otherwise it waits here for a global administrator to read (`/api/accounts/{id}/outbox`).
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: createdAt(),
    sentAt: tstz('sent_at'),
    error: text('error'),
  },
  (t) => [index('outbox_account_idx').on(t.accountId, t.createdAt)],
);

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
  (t) => [index('device_patches_device_idx').on(t.deviceId, t.name), index('device_patches_name_idx').on(t.name)],
);

/**
 * Commands queued for devices. `pending` until a check-in hands it out (`in_progress`),
 * then final with the agent's result, or `timed_out` by the sweep once `deadline_at` passed.
 */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    // The device's zone, copied for filtering; the device's key already cascades, and a run
    // over 100,000 devices would pay an index probe per command for a key of its own.
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
