import type {
  BillingInfo,
  BillingInfoBody,
  BillingOverview,
  ChangePlanBody,
  Invoice,
  InvoiceDetail,
  InvoiceList,
} from '@patchwell/core/billing/billing.schema';
import type { BillingInterval } from '@patchwell/core/billing/pricing';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { notFound } from '../../domain/errors';
import { changesOf, logActivity } from '../activity/activity.service';
import { requireZone } from '../zones/zone-access.service';
import { setZonePlan, type ZoneRow } from '../zones/zones.store';
import {
  findBillingAccount,
  findInvoice,
  findInvoices,
  findMeterDays,
  upsertInfo,
  upsertInterval,
  type InvoiceLineRow,
  type InvoiceRow,
} from './billing.store';
import { invoiceCsv, invoiceFileName, invoicePdf } from './invoice-documents';
import { periodOf } from './periods';

/**
 * The billing tab's API: read with Billing.read, changed with Billing.modify, in the zone
 * named by `o`. Metering and invoicing run in billing.jobs.ts.
 */

const DEFAULT_INTERVAL: BillingInterval = 'monthly';

function onTrial(zone: ZoneRow, now: Date): boolean {
  return !!zone.trialEndTime && zone.trialEndTime.getTime() > now.getTime();
}

/** `GET /api/billing` (Billing.read). */
export async function getBillingOverview(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
): Promise<BillingOverview> {
  const zone = await requireZone(ctx, authz, o, 'Billing', 'read');
  const now = ctx.clock.now();
  const account = await findBillingAccount(ctx.db, zone.id);
  const period = periodOf(now);
  const days = await findMeterDays(ctx.db, zone.id, period.start, period.end);
  return {
    plan: zone.plan,
    interval: account?.interval ?? DEFAULT_INTERVAL,
    trial_end_time: zone.trialEndTime?.toISOString() ?? null,
    on_trial: onTrial(zone, now),
    info:
      account?.info && account.infoUpdatedAt
        ? { ...account.info, updated_at: account.infoUpdatedAt.toISOString() }
        : null,
    current_period: {
      start: period.start,
      end: period.end,
      device_days: days.reduce((sum, d) => sum + (d.plan ? d.devices : 0), 0),
      days_metered: days.length,
    },
    can_modify: authz.may({ id: zone.id, accountId: zone.accountId }, 'Billing', 'modify'),
    rates: ctx.config.billingRates,
  };
}

/** `PUT /api/billing/plan` (Billing.modify): the zone's plan (zones module) and interval, logged. */
export async function changePlan(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  body: ChangePlanBody,
): Promise<BillingOverview> {
  const zone = await requireZone(ctx, authz, o, 'Billing', 'modify');
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const before = await setZonePlan(tx, zone.id, body.plan);
    if (before === undefined) throw notFound();
    const account = await findBillingAccount(tx, zone.id);
    await upsertInterval(tx, zone.id, body.interval, authz.userId, now);
    const changes = changesOf(
      { plan: before, interval: account?.interval ?? DEFAULT_INTERVAL },
      { plan: body.plan, interval: body.interval },
    );
    await logActivity(
      ctx,
      authz,
      zone.id,
      'billing.plan_change',
      { type: 'zone', id: zone.id, name: zone.name },
      { changes },
      tx,
    );
  });
  ctx.logger.info({ zoneId: zone.id, userId: authz.userId, plan: body.plan }, 'plan changed');
  return getBillingOverview(ctx, authz, zone.id);
}

/** `PUT /api/billing/info` (Billing.modify): the billing information form, logged. */
export async function saveBillingInfo(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  body: BillingInfo | BillingInfoBody,
): Promise<BillingOverview> {
  const zone = await requireZone(ctx, authz, o, 'Billing', 'modify');
  const info = body as BillingInfo;
  const before = (await findBillingAccount(ctx.db, zone.id))?.info ?? {};
  await ctx.db.transaction(async (tx) => {
    await upsertInfo(tx, zone.id, info, authz.userId, ctx.clock.now());
    await logActivity(
      ctx,
      authz,
      zone.id,
      'billing.info_update',
      { type: 'zone', id: zone.id, name: zone.name },
      { changes: changesOf<BillingInfo>(before, info) },
      tx,
    );
  });
  return getBillingOverview(ctx, authz, zone.id);
}

export function toInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: row.number,
    period_start: row.periodStart,
    period_end: row.periodEnd,
    issued_at: row.issuedAt.toISOString(),
    currency: row.currency,
    total_cents: row.totalCents,
    device_days: row.deviceDays,
    payment_option: row.paymentOption,
  };
}

function toDetail(invoice: InvoiceRow, lines: InvoiceLineRow[]): InvoiceDetail {
  return {
    ...toInvoice(invoice),
    bill_to: invoice.billTo,
    lines: lines.map((l) => ({
      line_no: l.lineNo,
      description: l.description,
      plan: l.plan,
      interval: l.interval,
      discount_pct: l.discountPct,
      quantity: l.quantity,
      unit_price: l.unitPrice,
      amount_cents: l.amountCents,
    })),
  };
}

/** `GET /api/billing/invoices` (Billing.read): newest period first. */
export async function listInvoices(
  ctx: AppContext,
  authz: Authz,
  query: { o: number | undefined; page: number; limit: number },
): Promise<InvoiceList> {
  const zone = await requireZone(ctx, authz, query.o, 'Billing', 'read');
  const { rows, size } = await findInvoices(ctx.db, zone.id, { offset: query.page * query.limit, limit: query.limit });
  return { data: rows.map(toInvoice), size };
}

async function requireInvoice(ctx: AppContext, authz: Authz, o: number | undefined, id: number) {
  const zone = await requireZone(ctx, authz, o, 'Billing', 'read');
  const found = await findInvoice(ctx.db, zone.id, id);
  if (!found) throw notFound();
  return { zone, detail: toDetail(found.invoice, found.lines) };
}

/** `GET /api/billing/invoices/{id}` (Billing.read); another zone's invoice: 404. */
export async function getInvoice(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
): Promise<InvoiceDetail> {
  return (await requireInvoice(ctx, authz, o, id)).detail;
}

/** The invoice as a download: `format` pdf or csv. */
export async function invoiceDownload(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
  format: 'pdf' | 'csv',
): Promise<{ fileName: string; contentType: string; body: Buffer | string }> {
  const { zone, detail } = await requireInvoice(ctx, authz, o, id);
  if (format === 'csv')
    return {
      fileName: invoiceFileName(detail, 'csv'),
      contentType: 'text/csv; charset=utf-8',
      body: invoiceCsv(detail),
    };
  return {
    fileName: invoiceFileName(detail, 'pdf'),
    contentType: 'application/pdf',
    body: await invoicePdf(detail, zone.name),
  };
}
