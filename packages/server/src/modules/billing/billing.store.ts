import { and, asc, count, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { BillingInfo } from '@patchwell/core/billing/billing.schema';
import type { BillingInterval, InvoiceLineDraft } from '@patchwell/core/billing/pricing';
import type { Db } from '../../db/client';
import { billingAccounts, billingInvoiceLines, billingInvoices, billingMeterDays } from '../../db/billing.schema';
import { devicePresenceDays } from '../../db/devices.schema';
import { organizations } from '../../db/schema';
import { queryRows } from '../../db/raw';

/**
 * SQL of billing's tables. Invoices and their lines are only inserted and read here: there is
 * no update or delete of an invoice, so an issued invoice stays what it was.
 */

export type BillingAccountRow = typeof billingAccounts.$inferSelect;
export type InvoiceRow = typeof billingInvoices.$inferSelect;
export type InvoiceLineRow = typeof billingInvoiceLines.$inferSelect;
export type MeterDayRow = typeof billingMeterDays.$inferSelect;

export async function findBillingAccount(db: Db, zoneId: number): Promise<BillingAccountRow | undefined> {
  const [row] = await db.select().from(billingAccounts).where(eq(billingAccounts.organizationId, zoneId));
  return row;
}

/** Sets the zone's billing interval (creating its row). */
export async function upsertInterval(
  db: Db,
  zoneId: number,
  interval: BillingInterval,
  userId: number,
  at: Date,
): Promise<void> {
  await db
    .insert(billingAccounts)
    .values({ organizationId: zoneId, interval, updatedBy: userId, updatedAt: at })
    .onConflictDoUpdate({
      target: billingAccounts.organizationId,
      set: { interval, updatedBy: userId, updatedAt: at },
    });
}

/** Stores the billing information form (creating the zone's row). */
export async function upsertInfo(db: Db, zoneId: number, info: BillingInfo, userId: number, at: Date): Promise<void> {
  await db
    .insert(billingAccounts)
    .values({ organizationId: zoneId, info, infoUpdatedAt: at, updatedBy: userId, updatedAt: at })
    .onConflictDoUpdate({
      target: billingAccounts.organizationId,
      set: { info, infoUpdatedAt: at, updatedBy: userId, updatedAt: at },
    });
}

/**
 * Meters every zone's ended days up to `through` (YYYY-MM-DD, included) that are not metered
 * yet, from the zone's creation day and at most `maxDays` back: per day, the zone's devices
 * that checked in that day, with the plan and interval the day is billed on (no plan while the
 * trial covered the whole day). The primary key makes each day metered once, whichever node
 * runs first. Returns the rows written.
 */
export async function meterEndedDays(db: Db, through: string, now: Date, maxDays: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with written as (
      insert into ${billingMeterDays} (organization_id, day, devices, plan, interval, metered_at)
      select o.id, d.day::date,
             (select count(*)::int from ${devicePresenceDays} p
               where p.organization_id = o.id and p.day = d.day::date),
             case when o.trial_end_time is not null
                   and o.trial_end_time >= ((d.day::date + 1)::timestamp at time zone 'UTC')
                  then null else o.plan::text end,
             coalesce(b.interval, 'monthly'),
             ${now.toISOString()}::timestamptz
        from ${organizations} o
        left join ${billingAccounts} b on b.organization_id = o.id
        cross join lateral generate_series(
          greatest((o.created_at at time zone 'UTC')::date,
                   (select max(m.day) + 1 from ${billingMeterDays} m where m.organization_id = o.id),
                   ${through}::date - ${maxDays}::int)::timestamp,
          ${through}::date::timestamp,
          interval '1 day') as d(day)
      on conflict do nothing
      returning 1)
    select count(*)::int as n from written`,
  );
  return rows[0]?.n ?? 0;
}

/** The metered days of a zone from `start` to `end` (YYYY-MM-DD, both included), oldest first. */
export async function findMeterDays(db: Db, zoneId: number, start: string, end: string): Promise<MeterDayRow[]> {
  return db
    .select()
    .from(billingMeterDays)
    .where(
      and(
        eq(billingMeterDays.organizationId, zoneId),
        gte(billingMeterDays.day, start),
        lte(billingMeterDays.day, end),
      ),
    )
    .orderBy(asc(billingMeterDays.day));
}

/**
 * Periods (calendar months, by their first day) that ended before `before` (YYYY-MM-DD), with
 * a billed metered day and no invoice yet: what the job invoices next.
 */
export async function findUninvoicedPeriods(
  db: Db,
  before: string,
  limit: number,
): Promise<{ organizationId: number; periodStart: string }[]> {
  return queryRows(
    db,
    sql`select m.organization_id as "organizationId",
               to_char(date_trunc('month', m.day), 'YYYY-MM-DD') as "periodStart"
          from ${billingMeterDays} m
         where m.day < ${before}::date and m.plan is not null
           and not exists (select 1 from ${billingInvoices} i
                            where i.organization_id = m.organization_id
                              and i.period_start = date_trunc('month', m.day)::date)
         group by 1, 2
         order by 2, 1
         limit ${limit}`,
  );
}

/**
 * Issues an invoice with its lines, once per zone and period: a second insert for the same
 * period (another node, a retry) writes nothing and answers null.
 */
export async function insertInvoice(
  db: Db,
  invoice: typeof billingInvoices.$inferInsert,
  lines: InvoiceLineDraft[],
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(billingInvoices)
      .values(invoice)
      .onConflictDoNothing({ target: [billingInvoices.organizationId, billingInvoices.periodStart] })
      .returning({ id: billingInvoices.id });
    if (!row) return null;
    if (lines.length)
      await tx.insert(billingInvoiceLines).values(
        lines.map((l) => ({
          invoiceId: row.id,
          lineNo: l.lineNo,
          description: l.description,
          plan: l.plan,
          interval: l.interval,
          discountPct: l.discountPct,
          quantity: l.quantity,
          unitPrice: l.unitPrice,
          amountCents: l.amountCents,
        })),
      );
    return row.id;
  });
}

/** A page of the zone's invoices, newest period first. */
export async function findInvoices(
  db: Db,
  zoneId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: InvoiceRow[]; size: number }> {
  const where = eq(billingInvoices.organizationId, zoneId);
  const rows = await db
    .select()
    .from(billingInvoices)
    .where(where)
    .orderBy(desc(billingInvoices.periodStart))
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await db.select({ n: count() }).from(billingInvoices).where(where);
  return { rows, size: total?.n ?? 0 };
}

/** One invoice of the zone with its lines in order, or undefined (another zone's too). */
export async function findInvoice(
  db: Db,
  zoneId: number,
  id: number,
): Promise<{ invoice: InvoiceRow; lines: InvoiceLineRow[] } | undefined> {
  const [invoice] = await db
    .select()
    .from(billingInvoices)
    .where(and(eq(billingInvoices.id, id), eq(billingInvoices.organizationId, zoneId)));
  if (!invoice) return undefined;
  const lines = await db
    .select()
    .from(billingInvoiceLines)
    .where(eq(billingInvoiceLines.invoiceId, id))
    .orderBy(asc(billingInvoiceLines.lineNo));
  return { invoice, lines };
}
