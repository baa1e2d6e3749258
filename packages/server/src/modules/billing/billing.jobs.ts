import { invoiceLines, type MeteredDay } from '@patchwell/core/billing/pricing';
import type { AppContext } from '../../context';
import { startPeriodic, type PeriodicTask } from '../../periodic';
import { findZone } from '../zones/zones.store';
import {
  findBillingAccount,
  findMeterDays,
  findUninvoicedPeriods,
  insertInvoice,
  meterEndedDays,
} from './billing.store';
import { addDays, dayOf, periodOf } from './periods';

/**
 * Billing's daily work, on every node (serve.ts starts it): meter the days that ended, then
 * invoice the periods that ended. Both are safe on any number of nodes and after any outage:
 * a day is metered once (primary key per zone and day) and a period invoiced once (unique per
 * zone and period), so a node that was down for a week catches up on its first tick.
 */

/** How often each node looks for ended days and periods. */
export const BILLING_POLL_MS = 10 * 60_000;
/** How far back a zone's first metering reaches (its creation day at the earliest). */
export const METER_BACKFILL_DAYS = 400;
/** Periods invoiced per round. */
const INVOICE_BATCH = 100;

/** Meters every ended day not metered yet; returns the rows written. */
export async function meterDays(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  return meterEndedDays(ctx.db, addDays(dayOf(now), -1), now, METER_BACKFILL_DAYS);
}

/** Issues the invoice of one zone's ended period from its metering; null when another run issued it. */
async function issueInvoice(ctx: AppContext, zoneId: number, periodStart: string): Promise<number | null> {
  const { start, end } = periodOf(periodStart);
  const days = await findMeterDays(ctx.db, zoneId, start, end);
  const metered: MeteredDay[] = days.map((d) => ({ devices: d.devices, plan: d.plan, interval: d.interval }));
  const lines = invoiceLines(metered, ctx.config.billingRates);
  const account = await findBillingAccount(ctx.db, zoneId);
  const id = await insertInvoice(
    ctx.db,
    {
      organizationId: zoneId,
      number: `PW-${zoneId}-${start.slice(0, 4)}${start.slice(5, 7)}`,
      periodStart: start,
      periodEnd: end,
      issuedAt: ctx.clock.now(),
      totalCents: lines.reduce((sum, l) => sum + l.amountCents, 0),
      deviceDays: lines.reduce((sum, l) => sum + l.quantity, 0),
      paymentOption: account?.info?.payment_option ?? null,
      billTo: account?.info ?? null,
    },
    lines,
  );
  return id;
}

/** Invoices every period that ended with billed days and no invoice; returns the invoices issued. */
export async function issueInvoices(ctx: AppContext): Promise<number> {
  const before = periodOf(ctx.clock.now()).start;
  let issued = 0;
  for (;;) {
    const due = await findUninvoicedPeriods(ctx.db, before, INVOICE_BATCH);
    let round = 0;
    for (const { organizationId, periodStart } of due) {
      if (!(await findZone(ctx.db, organizationId))) continue;
      if ((await issueInvoice(ctx, organizationId, periodStart)) !== null) round += 1;
    }
    issued += round;
    // A round that issued nothing (another node got there first) leaves the rest to the next tick.
    if (due.length < INVOICE_BATCH || round === 0) return issued;
  }
}

/** One round: meter, then invoice. */
export async function runBilling(ctx: AppContext): Promise<{ metered: number; invoiced: number }> {
  const metered = await meterDays(ctx);
  const invoiced = await issueInvoices(ctx);
  return { metered, invoiced };
}

/** The billing job on this node (serve.ts starts it, shutdown stops it); runs at once, then every {@link BILLING_POLL_MS}. */
export function startBillingJobs(ctx: AppContext): PeriodicTask {
  const round = async () => {
    const { metered, invoiced } = await runBilling(ctx);
    if (metered || invoiced) ctx.logger.info({ metered, invoiced }, 'billing: days metered, invoices issued');
  };
  let first: Promise<void> | undefined = round().catch((err: unknown) =>
    ctx.logger.warn({ err }, 'billing job failed'),
  );
  const task = startPeriodic(ctx.logger, BILLING_POLL_MS, round, 'billing job failed');
  return {
    async stop() {
      await task.stop();
      await first;
      first = undefined;
    },
  };
}
