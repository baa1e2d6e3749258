import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type {
  WebhookDeliveryEventType,
  WebhookDeliveryStatus,
  WebhookEventType,
} from '@patchwell/core/webhooks/webhooks.schema';
import { organizations, users } from './schema';

/**
 * Outgoing webhooks (issue 12), written only by `modules/webhooks`. Times come from the
 * service's clock, as in schema.ts.
 */

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A zone's subscription of a URL to event types. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    eventTypes: text('event_types').array().$type<WebhookEventType[]>().notNull(),
    /** The signing secret, AES-256-GCM under the server's secret key (zones/access-key.ts `encryptSecret`). */
    secretSealed: text('secret_sealed').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull(),
    updatedAt: tstz('updated_at').notNull(),
  },
  (t) => [index('webhooks_org_idx').on(t.organizationId)],
);

/**
 * One event for one webhook (the outbox): inserted in the transaction of the change that
 * caused it, sent by whichever node's worker claims it (`FOR UPDATE SKIP LOCKED`; the claim
 * moves `next_attempt_at` past the attempt's timeout so no other node takes it meanwhile).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').notNull(),
    eventType: text('event_type').$type<WebhookDeliveryEventType>().notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at'),
    /** Retries stop here (a day after the event, or after a redelivery). */
    retryUntil: tstz('retry_until').notNull(),
    lastAttemptAt: tstz('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    /** At most 500 characters of the last answer's body. */
    responseExcerpt: text('response_excerpt'),
    durationMs: integer('duration_ms'),
    deliveredAt: tstz('delivered_at'),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`status = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.id),
  ],
);

/**
 * How far the offline watch has looked (one row): devices whose presence ran out after
 * `scanned_until` and before the scan's time went offline in that window.
 */
export const webhookOfflineScan = pgTable('webhook_offline_scan', {
  id: integer('id').primaryKey(),
  scannedUntil: tstz('scanned_until').notNull(),
});
