import {
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
} from 'drizzle-orm/pg-core';
import type { BillingInfo, PaymentOption } from '@patchwell/core/billing/billing.schema';
import type { BillingInterval } from '@patchwell/core/billing/pricing';
import type { Plan } from '@patchwell/core/rules/tiers';
import { organizations, users } from './schema';

/**
 * Billing (issue 15), written only by `modules/billing`. The zone's plan itself stays on
 * `organizations` (the zones module writes it; billing calls it). Times come from the
 * service's clock.
 */

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A zone's billing interval and billing information (one row once either is set). */
export const billingAccounts = pgTable('billing_accounts', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  interval: text('interval').$type<BillingInterval>().notNull().default('monthly'),
  /** The billing information form; null until it is filled in. */
  info: jsonb('info').$type<BillingInfo>(),
  infoUpdatedAt: tstz('info_updated_at'),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: tstz('updated_at').notNull(),
});

/**
 * The metering: one row per zone and ended day (UTC), written once by the daily job
 * (primary key = the once-per-day guarantee). `plan` is the plan the day is billed on,
 * null when it is not billed (the zone's trial covered the whole day).
 */
export const billingMeterDays = pgTable(
  'billing_meter_days',
  {
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    /** Devices of the zone that checked in that day. */
    devices: integer('devices').notNull(),
    plan: text('plan').$type<Plan>(),
    interval: text('interval').$type<BillingInterval>().notNull(),
    meteredAt: tstz('metered_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

/**
 * An invoice, issued once per zone and period (unique) when the period has ended, from the
 * period's metering. Immutable: the billing store inserts and reads, never updates or deletes
 * (the zone's own deletion cascades).
 */
export const billingInvoices = pgTable(
  'billing_invoices',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    number: text('number').notNull().unique(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    issuedAt: tstz('issued_at').notNull(),
    currency: text('currency').$type<'USD'>().notNull().default('USD'),
    totalCents: integer('total_cents').notNull(),
    deviceDays: integer('device_days').notNull(),
    paymentOption: text('payment_option').$type<PaymentOption>(),
    /** The billing information when issued. */
    billTo: jsonb('bill_to').$type<BillingInfo>(),
  },
  (t) => [
    uniqueIndex('billing_invoices_org_period_unique').on(t.organizationId, t.periodStart),
    index('billing_invoices_org_idx').on(t.organizationId, t.issuedAt),
  ],
);

/** An invoice's numbered lines. */
export const billingInvoiceLines = pgTable(
  'billing_invoice_lines',
  {
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => billingInvoices.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    description: text('description').notNull(),
    plan: text('plan').$type<Plan>().notNull(),
    interval: text('interval').$type<BillingInterval>().notNull(),
    discountPct: integer('discount_pct').notNull(),
    quantity: integer('quantity').notNull(),
    /** Ten-thousandths of a dollar per device-day. */
    unitPrice: integer('unit_price').notNull(),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.lineNo] })],
);
