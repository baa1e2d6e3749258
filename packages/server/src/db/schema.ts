import { sql } from 'drizzle-orm';
import {
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
import { SESSION_IDLE_DEFAULT_MINUTES, SESSION_LIFETIME_DEFAULT_MINUTES } from '@patchwell/core/constants';

/**
 * The database schema's core tables: accounts, zones, users, sessions, flags, keys and the
 * outbox. Each area's tables live in their own `*.schema.ts` next to this file (devices in
 * devices.schema.ts); drizzle.config.ts lists them all. Migrations in ../../drizzle are
 * generated from them with `npm run db:new -- <name>`; they are forward-only. Times are
 * `timestamptz`, written from the service's clock (never the database's `now()`) so tests
 * can move time.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull();
const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const planEnum = pgEnum('plan', PLANS);
export const accountRoleEnum = pgEnum('account_rbac_role', ACCOUNT_ROLES);
export const userStatusEnum = pgEnum('user_status', USER_STATUSES);
export const bannerTypeEnum = pgEnum('banner_type', BANNER_TYPES);
/** What a `login_failures` row counts; see that table. */
// `link_ip` and `link_email`: requests for a mailed link (password reset, verification resend).
export const loginFailureKindEnum = pgEnum('login_failure_kind', ['ip', 'account', 'signup', 'link_ip', 'link_email']);

/** A customer: owns zones and users. */
export const accounts = pgTable('accounts', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom().unique(),
  name: text('name').notNull(),
  createdAt: createdAt(),
  /** Whether the account finished the quick start guide (the dashboard shows onboarding until then). */
  completedQsg: boolean('completed_qsg').notNull().default(false),
  /** Every user of the account must sign in with a second factor (modules/mfa). */
  requireMfa: boolean('require_mfa').notNull().default(false),
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
    /** Set once, by the trial-end job, when the trial ran out and its consequences were applied (modules/zones/trial-end). */
    trialExpired: boolean('trial_expired').notNull().default(false),
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
    /** The zone's users must sign in with a second factor (modules/mfa); `saml.enabled` is the SSO twin. */
    requireMfa: boolean('require_mfa').notNull().default(false),
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
    /**
     * Whether the user proved the e-mail address. Only self-service sign-up starts unverified
     * (modules/auth/verification.service.ts); invitations prove the address, and users who
     * existed before verification counted as verified (hence the default).
     */
    emailVerified: boolean('email_verified').notNull().default(true),
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
    /** Files attached to the message (names and sizes; the sender keeps the contents). */
    attachments: jsonb('attachments').$type<{ filename: string; content_type: string; size: number }[]>(),
    createdAt: createdAt(),
    sentAt: tstz('sent_at'),
    error: text('error'),
  },
  (t) => [index('outbox_account_idx').on(t.accountId, t.createdAt)],
);
