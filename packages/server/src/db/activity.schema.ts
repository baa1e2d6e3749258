import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { ActivityDetails, ActivityVia } from '@patchwell/core/activity/activity.schema';
import { accounts, organizations, users } from './schema';

/**
 * The activity log (the audit trail, issue 12): one row per change a person, an API key,
 * an agent or the server itself made. Written only by `modules/activity`; never updated or
 * deleted through the API. Rows outlive what they name: the actor's address, the key, the
 * device and the object's name are captured when the event is written, and the key and
 * device ids carry no foreign key so deleting those keeps their history.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The account the event belongs to; set for zone events too, so account views need no join. */
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    /** The zone; null for account-level events (sign-in, account users, account flags). */
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    /** The acting user (the key's owner for API keys; the targeted user of a failed sign-in). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    apiKeyId: integer('api_key_id'),
    /** The acting device, for outcomes the agent reported. */
    deviceId: integer('device_id'),
    /** Who, in words, when the event was written (the user's e-mail, the device's name). */
    actorName: text('actor_name'),
    via: text('via').$type<ActivityVia>().notNull(),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id'),
    objectName: text('object_name'),
    /** Changed fields (`changes: { field: { from, to } }`) and facts about the action; never secrets. */
    details: jsonb('details').$type<ActivityDetails>().notNull().default({}),
    /** The request's address (as `TRUST_PROXY` reads it); null for agent and system events. */
    clientAddress: text('client_address'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    // The log's pages: a zone's events, newest first, with a unique tie-break for keyset paging.
    index('activity_log_zone_time_idx').on(t.organizationId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // One user's events (the log's "who" filter) without walking the zone's whole range.
    index('activity_log_zone_user_time_idx').on(
      t.organizationId,
      t.userId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // Account-level events (sign-ins) listed next to a zone's.
    index('activity_log_account_time_idx')
      .on(t.accountId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.organizationId} is null`),
    index('activity_log_object_idx').on(t.organizationId, t.objectType, t.objectId),
  ],
);
