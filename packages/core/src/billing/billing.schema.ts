import { z } from 'zod';
import { ID_MAX } from '../constants';
import { ZPaging } from '../paging.schema';
import { PLANS } from '../rules/tiers';
import { TEXTS } from '../texts';
import { BILLING_INTERVALS, RATE_KEYS, type RateKey, type RateTable } from './pricing';

/**
 * Billing (spec B sections 2, 3, 5 and 9): the zone's plan and interval, its billing
 * information, the daily metering of billable devices and the invoices issued from it.
 */

/** The product's texts for billing: spec B section 5's validation texts first. */
export const BILLING_TEXTS = {
  address1Max: 'The first address line cannot exceed 100 characters.',
  address2Max: 'The second address line cannot exceed 100 characters.',
  cityMax: 'The city cannot exceed 100 characters.',
  companyMax: 'The company name cannot exceed 45 characters.',
  zipMax: 'The zip code cannot exceed 20 characters.',
  stateMax: 'The state cannot exceed 100 characters.',
  countryMax: 'The country cannot exceed 100 characters.',
  poMax: 'The purchase order number cannot exceed 50 characters.',
  paymentOption: 'Please provide a payment option.',
  selectPlan: 'You must select a plan.',
  required: TEXTS.validation.required,
} as const;

/**
 * How a self-hosted customer pays: an invoice settled by bank transfer, or against a purchase
 * order. No card is taken (see the server's payment-processor.ts: an interface only).
 */
export const PAYMENT_OPTIONS = ['invoice', 'purchase_order'] as const;
export const ZPaymentOption = z.enum(PAYMENT_OPTIONS);
export type PaymentOption = z.infer<typeof ZPaymentOption>;
export const PAYMENT_OPTION_LABELS: Record<PaymentOption, string> = {
  invoice: 'Invoice (bank transfer)',
  purchase_order: 'Purchase order',
};

export const ZBillingInterval = z.enum(BILLING_INTERVALS);
export const ZPlan = z.enum(PLANS);

const required = (max: number, maxText: string) =>
  z.string({ error: BILLING_TEXTS.required }).trim().min(1, BILLING_TEXTS.required).max(max, maxText);

/** `PUT /api/billing/info`: the billing information form (spec B section 5). */
export const ZBillingInfoBody = z.object({
  address_line1: required(100, BILLING_TEXTS.address1Max),
  /** Optional second line; empty when none. */
  address_line2: z.string().trim().max(100, BILLING_TEXTS.address2Max).default(''),
  city: required(100, BILLING_TEXTS.cityMax),
  company_name: required(45, BILLING_TEXTS.companyMax),
  zip_code: required(20, BILLING_TEXTS.zipMax),
  state: required(100, BILLING_TEXTS.stateMax),
  country: required(100, BILLING_TEXTS.countryMax),
  payment_option: z.enum(PAYMENT_OPTIONS, { error: BILLING_TEXTS.paymentOption }),
  /** The purchase order's number, printed on invoices (purchase order only; empty when none). */
  po_number: z.string().trim().max(50, BILLING_TEXTS.poMax).default(''),
});
export type BillingInfoBody = z.input<typeof ZBillingInfoBody>;
export type BillingInfo = z.output<typeof ZBillingInfoBody>;

/** `PUT /api/billing/plan`: the plan and interval chosen on the plans' cards. */
export const ZChangePlanBody = z.object({
  plan: z.enum(PLANS, { error: BILLING_TEXTS.selectPlan }),
  interval: ZBillingInterval,
});
export type ChangePlanBody = z.infer<typeof ZChangePlanBody>;

/** `GET /api/billing`: what the billing tab shows of the zone. */
/** A monthly rate: whole cents per device per month, at most $10,000. */
const ZRateCents = z.number().int().min(0).max(1_000_000);
const ZRates = z
  .object(Object.fromEntries(RATE_KEYS.map((k) => [k, ZRateCents])) as Record<RateKey, typeof ZRateCents>)
  .strict();
/**
 * A price list (`BILLING_RATES`, and the overview's `rates`): for each interval, cents per
 * device per month of each rate (`full_annual_base_rate` is Complete's, `patch` Basic's,
 * `manage` Standard's).
 */
export const ZRateTable: z.ZodType<RateTable> = z
  .object(
    Object.fromEntries(BILLING_INTERVALS.map((i) => [i, ZRates])) as Record<
      (typeof BILLING_INTERVALS)[number],
      typeof ZRates
    >,
  )
  .strict();

export const ZBillingOverview = z.object({
  plan: ZPlan,
  interval: ZBillingInterval,
  /** ISO 8601; null when the zone has no trial. */
  trial_end_time: z.string().nullable(),
  /** The trial has not ended: days are metered but not billed. */
  on_trial: z.boolean(),
  info: ZBillingInfoBody.extend({ updated_at: z.string() }).nullable(),
  /** The current billing period (a calendar month, UTC) as metered so far. */
  current_period: z.object({
    /** YYYY-MM-DD. */
    start: z.string(),
    /** YYYY-MM-DD, last day included. */
    end: z.string(),
    /** Billable device-days metered so far (days ended). */
    device_days: z.number().int(),
    /** Days of the period already metered. */
    days_metered: z.number().int(),
  }),
  /** Whether the caller may change the plan and the billing information (Billing.modify). */
  can_modify: z.boolean(),
  /** The price list in force on this server (the plan cards, the calculator and the invoices use it). */
  rates: ZRateTable,
});
export type BillingOverview = z.infer<typeof ZBillingOverview>;

export const ZInvoiceLine = z.object({
  line_no: z.number().int(),
  description: z.string(),
  plan: ZPlan,
  interval: ZBillingInterval,
  discount_pct: z.number().int(),
  /** Device-days. */
  quantity: z.number().int(),
  /** Ten-thousandths of a dollar per device-day. */
  unit_price: z.number().int(),
  amount_cents: z.number().int(),
});
export type InvoiceLine = z.infer<typeof ZInvoiceLine>;

export const ZInvoice = z.object({
  id: z.number().int(),
  /** PW-{zone id}-{YYYYMM}: one invoice per zone and period. */
  number: z.string(),
  /** YYYY-MM-DD, first day of the period. */
  period_start: z.string(),
  /** YYYY-MM-DD, last day of the period (included). */
  period_end: z.string(),
  issued_at: z.string(),
  currency: z.literal('USD'),
  total_cents: z.number().int(),
  /** Billable device-days of the period. */
  device_days: z.number().int(),
  payment_option: ZPaymentOption.nullable(),
});
export type Invoice = z.infer<typeof ZInvoice>;

export const ZInvoiceDetail = ZInvoice.extend({
  lines: z.array(ZInvoiceLine),
  /** The billing information as it was when the invoice was issued. */
  bill_to: ZBillingInfoBody.nullable(),
});
export type InvoiceDetail = z.infer<typeof ZInvoiceDetail>;

export const ZInvoiceList = z.object({ data: z.array(ZInvoice), size: z.number().int() });
export type InvoiceList = z.infer<typeof ZInvoiceList>;

const zoneParam = z.coerce.number().int().positive().max(ID_MAX).optional();

/** `GET /api/billing/invoices`: the zone (`o`, alias `org`) and a page. */
export const ZInvoiceListQuery = z
  .object({ o: zoneParam, org: zoneParam, ...ZPaging.shape })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));

export const ZInvoiceParams = z.object({ invoiceId: z.coerce.number().int().positive().max(ID_MAX) });

/** The billing FAQs the tab shows. */
export const BILLING_FAQS: readonly { question: string; answer: string }[] = [
  {
    question: 'Which devices are billed?',
    answer:
      'A device is billed for each day on which it checked in. Devices that stay offline all day, and removed ' +
      'devices, cost nothing for that day.',
  },
  {
    question: 'How is the price calculated?',
    answer:
      'Plans are priced per device per month. Each month’s invoice adds up the device-days metered that month, ' +
      'a device-month being 365/12 days.',
  },
  {
    question: 'What are the volume discounts?',
    answer: 'Above 500 devices, devices 501 to 1000 are 10% off and every device beyond 1000 is 20% off.',
  },
  {
    question: 'What is the difference between monthly and yearly billing?',
    answer:
      'Yearly billing is an annual commitment at a lower rate per device. Both are metered daily and invoiced at ' +
      'the end of each month.',
  },
  {
    question: 'How can I pay?',
    answer:
      'By bank transfer against the invoice, or against your purchase order. Card payments are not taken by this ' +
      'installation.',
  },
  {
    question: 'Am I billed during a trial?',
    answer: 'No. Days of an unexpired trial are metered but not billed.',
  },
  {
    question: 'I need a custom plan.',
    answer: 'A custom plan requires contacting sales.',
  },
];
