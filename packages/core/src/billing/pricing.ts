import { FEATURES, FEATURE_RULES } from '../rules/entitlements';
import { PLAN_LABELS, tierRank, type Plan } from '../rules/tiers';

/**
 * Prices and the bill's arithmetic (spec B sections 3 and 9): billing is priced per device per
 * month, over a monthly or a yearly interval, with volume discounts above 500 devices. The
 * server's invoices and the console's bill summary calculator use these same functions.
 *
 * Money is kept in integers: whole cents for amounts and monthly rates, and ten-thousandths of
 * a dollar for the price of one device-day (a device-month is 365/12 days), so an invoice line
 * is exactly its quantity times its unit price, rounded once to the cent.
 */

export const BILLING_INTERVALS = ['monthly', 'yearly'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export const BILLING_INTERVAL_LABELS: Record<BillingInterval, string> = { monthly: 'Monthly', yearly: 'Yearly' };

/** The rate names of spec B section 3: Complete's rate is the full annual base rate. */
export const RATE_KEYS = ['full_annual_base_rate', 'patch', 'manage'] as const;
export type RateKey = (typeof RATE_KEYS)[number];

/** Which rate each plan is billed at. */
export const PLAN_RATE_KEY: Record<Plan, RateKey> = {
  patch: 'patch',
  manage: 'manage',
  tier3: 'full_annual_base_rate',
};

/** A price list: cents per device per month, by interval and rate. */
export type RateTable = Record<BillingInterval, Record<RateKey, number>>;

/**
 * The default price list (an operator sets their own with `BILLING_RATES`; the server serves
 * the one in force with the billing overview). The yearly interval is an annual commitment,
 * cheaper per device, still metered and invoiced month by month in arrears.
 */
export const RATES: RateTable = {
  monthly: { patch: 200, manage: 350, full_annual_base_rate: 500 },
  yearly: { patch: 170, manage: 300, full_annual_base_rate: 425 },
};

/** Volume tiers: devices 1–500 at the full rate, 501–1000 with 10% off, beyond 1000 with 20% off. */
export const VOLUME_TIERS: readonly { from: number; to: number | null; discountPct: number }[] = [
  { from: 1, to: 500, discountPct: 0 },
  { from: 501, to: 1000, discountPct: 10 },
  { from: 1001, to: null, discountPct: 20 },
];

/** Devices beyond which volume discounts apply. */
export const VOLUME_DISCOUNT_FROM = 500;

/**
 * What each plan's card lists, from the rules that gate the features (rules/entitlements.ts):
 * the features a plan brings, after "Everything in" the plan below it.
 */
const ownFeatures = (plan: Plan) =>
  FEATURES.filter((f) => FEATURE_RULES[f].tier === tierRank(plan)).map((f) => FEATURE_RULES[f].label);
export const PLAN_FEATURES: Record<Plan, readonly string[]> = {
  patch: ownFeatures('patch'),
  manage: [`Everything in ${PLAN_LABELS.patch}`, ...ownFeatures('manage')],
  tier3: [`Everything in ${PLAN_LABELS.manage}`, ...ownFeatures('tier3')],
};

export { PLAN_LABELS };

/** Cents per device per month of `plan` on `interval`, from the price list `rates`. */
export function monthlyRate(plan: Plan, interval: BillingInterval, rates: RateTable = RATES): number {
  return rates[interval][PLAN_RATE_KEY[plan]];
}

/** Ten-thousandths of a dollar per device-day for a monthly rate in cents, after `discountPct`. */
export function deviceDayPrice(monthlyCents: number, discountPct: number): number {
  return Math.round((monthlyCents * 100 * 12 * (100 - discountPct)) / (365 * 100));
}

/** Cents for `quantity` device-days at `unitPrice` (ten-thousandths of a dollar). */
export function lineAmount(quantity: number, unitPrice: number): number {
  return Math.round((quantity * unitPrice) / 100);
}

/** How many of `devices` fall in each volume tier. */
export function splitByTier(devices: number): number[] {
  return VOLUME_TIERS.map((tier) => {
    const top = tier.to ?? Number.POSITIVE_INFINITY;
    return Math.max(0, Math.min(devices, top) - (tier.from - 1));
  });
}

export type BillSummaryLine = {
  /** "Devices 1–500" and so on. */
  label: string;
  devices: number;
  discountPct: number;
  /** Cents per device per month after the discount. */
  unitMonthlyCents: number;
  /** Cents per month for these devices. */
  monthlyCents: number;
};

export type BillSummary = {
  lines: BillSummaryLine[];
  /** Cents per month. */
  monthlyCents: number;
  /** Cents per year (12 months). */
  yearlyCents: number;
  /** Cents saved per month by the volume discounts. */
  discountCents: number;
};

export function tierLabel(index: number): string {
  const tier = VOLUME_TIERS[index]!;
  return tier.to === null ? `Devices above ${tier.from - 1}` : `Devices ${tier.from}–${tier.to}`;
}

/**
 * The bill summary calculator: `devices` on `plan` over `interval`, priced per device per
 * month with the volume discount on the devices above 500 (graduated, like tax brackets).
 */
export function billSummary(
  devices: number,
  plan: Plan,
  interval: BillingInterval,
  rates: RateTable = RATES,
): BillSummary {
  const rate = monthlyRate(plan, interval, rates);
  const count = Math.max(0, Math.floor(devices));
  const lines = splitByTier(count)
    .map((n, i) => {
      const { discountPct } = VOLUME_TIERS[i]!;
      const unit = (rate * (100 - discountPct)) / 100;
      return {
        label: tierLabel(i),
        devices: n,
        discountPct,
        unitMonthlyCents: unit,
        monthlyCents: Math.round(n * unit),
      };
    })
    .filter((line, i) => line.devices > 0 || i === 0);
  const monthlyCents = lines.reduce((sum, l) => sum + l.monthlyCents, 0);
  return {
    lines,
    monthlyCents,
    yearlyCents: monthlyCents * 12,
    discountCents: count * rate - monthlyCents,
  };
}

/** One metered day of a zone: its billable devices and the plan it was billed on (null: not billed, e.g. on trial). */
export type MeteredDay = { devices: number; plan: Plan | null; interval: BillingInterval };

export type InvoiceLineDraft = {
  /** 1-based, in order. */
  lineNo: number;
  description: string;
  plan: Plan;
  interval: BillingInterval;
  discountPct: number;
  /** Device-days in the line's volume tier. */
  quantity: number;
  /** Ten-thousandths of a dollar per device-day. */
  unitPrice: number;
  amountCents: number;
};

/**
 * An invoice's lines from its period's metering: per plan and interval billed, the device-days
 * of each volume tier (each day's devices split into tiers) at that tier's device-day price.
 * A plan billed with no devices still gets its first line, at zero.
 */
export function invoiceLines(days: readonly MeteredDay[], rates: RateTable = RATES): InvoiceLineDraft[] {
  const groups = new Map<string, { plan: Plan; interval: BillingInterval; perTier: number[] }>();
  for (const day of days) {
    if (!day.plan) continue;
    const key = `${day.plan}:${day.interval}`;
    const group = groups.get(key) ?? { plan: day.plan, interval: day.interval, perTier: VOLUME_TIERS.map(() => 0) };
    splitByTier(day.devices).forEach((n, i) => {
      group.perTier[i]! += n;
    });
    groups.set(key, group);
  }
  const lines: InvoiceLineDraft[] = [];
  const order = (g: { plan: Plan; interval: BillingInterval }) =>
    `${['patch', 'manage', 'tier3'].indexOf(g.plan)}${g.interval}`;
  for (const group of [...groups.values()].sort((a, b) => order(a).localeCompare(order(b)))) {
    const rate = monthlyRate(group.plan, group.interval, rates);
    group.perTier.forEach((quantity, i) => {
      if (quantity === 0 && i > 0) return;
      const { discountPct } = VOLUME_TIERS[i]!;
      const unitPrice = deviceDayPrice(rate, discountPct);
      lines.push({
        lineNo: lines.length + 1,
        description:
          `${PLAN_LABELS[group.plan]} plan (${BILLING_INTERVAL_LABELS[group.interval].toLowerCase()}), ` +
          `${tierLabel(i).toLowerCase()}${discountPct ? `, ${discountPct}% volume discount` : ''}`,
        plan: group.plan,
        interval: group.interval,
        discountPct,
        quantity,
        unitPrice,
        amountCents: lineAmount(quantity, unitPrice),
      });
    });
  }
  return lines;
}

/** "$1,234.56" for cents. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** "$0.1644" for a device-day price in ten-thousandths of a dollar. */
export function formatUnitPrice(unit: number): string {
  return `$${Math.floor(unit / 10000)}.${String(unit % 10000).padStart(4, '0')}`;
}
