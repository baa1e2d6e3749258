import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type {
  RemoteConsent,
  RemoteSessionKind,
  RemoteSessionState,
} from '@patchwell/core/remote/remote-sessions.schema';
import { REMOTE_IDLE_MINUTES_DEFAULT } from '@patchwell/core/remote/remote-sessions.schema';
import { devices } from './devices.schema';
import { organizations, users } from './schema';

/**
 * Remote control and remote shell sessions (issue 14, decision 0016), written only by
 * `modules/remote-sessions`. Times come from the service's clock, as in schema.ts.
 */

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One session: who, which device, its single-use browser token (hashed), its relay and its counters. */
export const remoteSessions = pgTable(
  'remote_sessions',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<RemoteSessionKind>().notNull(),
    state: text('state').$type<RemoteSessionState>().notNull().default('pending'),
    consent: text('consent').$type<RemoteConsent>(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The `remote_session` command that told the agent. */
    commandId: integer('command_id'),
    /** sha256 of the browser's token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    /** Neither end may join after this. */
    joinBy: tstz('join_by').notNull(),
    /** Set once by the browser's upgrade that consumed the token. */
    browserJoinedAt: tstz('browser_joined_at'),
    /** Set once by the agent's upgrade. */
    agentJoinedAt: tstz('agent_joined_at'),
    /** The node relaying this session (decision 0016: the other end's node forwards to it). */
    relayNode: text('relay_node'),
    connectedAt: tstz('connected_at'),
    endedAt: tstz('ended_at'),
    endReason: text('end_reason'),
    bytesToDevice: integer('bytes_to_device').notNull().default(0),
    bytesFromDevice: integer('bytes_from_device').notNull().default(0),
    /** A shell session's output, at most REMOTE_TRANSCRIPT_MAX_BYTES. */
    transcript: text('transcript'),
    transcriptTruncated: boolean('transcript_truncated').notNull().default(false),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [
    index('remote_sessions_org_idx').on(t.organizationId, t.id),
    uniqueIndex('remote_sessions_token_idx').on(t.tokenHash),
    index('remote_sessions_device_idx').on(t.deviceId, t.state),
  ],
);

/** A zone's remote-access settings; a zone without a row has the defaults. */
export const remoteSettings = pgTable('remote_settings', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  shellEnabled: boolean('shell_enabled').notNull().default(false),
  unattended: boolean('unattended').notNull().default(false),
  /** Device groups whose devices start sessions without asking (besides the zone-wide `unattended`). */
  unattendedGroupIds: integer('unattended_group_ids')
    .array()
    .notNull()
    .default(sql`'{}'::integer[]`),
  idleTimeoutMinutes: integer('idle_timeout_minutes').notNull().default(REMOTE_IDLE_MINUTES_DEFAULT),
  updatedAt: tstz('updated_at').notNull(),
});
