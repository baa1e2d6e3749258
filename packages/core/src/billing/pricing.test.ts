import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZBillingInfoBody, ZChangePlanBody, BILLING_TEXTS } from './billing.schema';
import {
  billSummary,
  deviceDayPrice,
  formatCents,
  formatUnitPrice,
  invoiceLines,
  lineAmount,
  splitByTier,
  type MeteredDay,
} from './pricing';

describe('billSummary', () => {
  it('prices devices per month at the plan’s rate with no discount up to 500 devices', () => {
    const s = billSummary(500, 'tier3', 'monthly');
    expect(s.lines).toHaveLength(1);
    expect(s.monthlyCents).toBe(500 * 500);
    expect(s.yearlyCents).toBe(500 * 500 * 12);
    expect(s.discountCents).toBe(0);
  });

  it('gives 10% off devices 501–1000 and 20% off beyond, graduated', () => {
    // Standard yearly: 300 cents. 500 × 300 + 500 × 270 + 200 × 240.
    const s = billSummary(1200, 'manage', 'yearly');
    expect(s.lines.map((l) => [l.label, l.devices, l.discountPct])).toEqual([
      ['Devices 1–500', 500, 0],
      ['Devices 501–1000', 500, 10],
      ['Devices above 1000', 200, 20],
    ]);
    expect(s.monthlyCents).toBe(150_000 + 135_000 + 48_000);
    expect(s.discountCents).toBe(1200 * 300 - s.monthlyCents);
  });

  it('never costs more per device with more devices', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), (n) => {
        const a = billSummary(n, 'patch', 'monthly').monthlyCents;
        const b = billSummary(n + 1, 'patch', 'monthly').monthlyCents;
        expect(b).toBeGreaterThanOrEqual(a);
        expect(b / (n + 1)).toBeLessThanOrEqual(a / n + 1e-9);
      }),
    );
  });
});

describe('invoiceLines', () => {
  it('splits each day’s devices into tiers and prices device-days', () => {
    const days: MeteredDay[] = [
      { devices: 600, plan: 'tier3', interval: 'monthly' },
      { devices: 3, plan: 'tier3', interval: 'monthly' },
      { devices: 40, plan: null, interval: 'monthly' },
      { devices: 2, plan: 'patch', interval: 'yearly' },
    ];
    const lines = invoiceLines(days);
    expect(lines.map((l) => [l.lineNo, l.plan, l.quantity, l.discountPct])).toEqual([
      [1, 'patch', 2, 0],
      [2, 'tier3', 503, 0],
      [3, 'tier3', 100, 10],
    ]);
    // 500 cents a month is 500 × 12 / 365 = 16.438… cents a device-day.
    expect(lines[1]!.unitPrice).toBe(1644);
    expect(lines[2]!.unitPrice).toBe(deviceDayPrice(500, 10));
    for (const l of lines) expect(l.amountCents).toBe(Math.round((l.quantity * l.unitPrice) / 100));
  });

  it('bills nothing for days without a plan (trial)', () => {
    expect(invoiceLines([{ devices: 10, plan: null, interval: 'monthly' }])).toEqual([]);
  });

  it('keeps the sum of the tiers equal to the device-days', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 31 }), (counts) => {
        const lines = invoiceLines(counts.map((devices) => ({ devices, plan: 'manage', interval: 'monthly' })));
        const total = counts.reduce((a, b) => a + b, 0);
        expect(lines.reduce((s, l) => s + l.quantity, 0)).toBe(total);
        expect(splitByTier(counts[0] ?? 0).reduce((a, b) => a + b, 0)).toBe(counts[0] ?? 0);
      }),
    );
  });
});

describe('money formats', () => {
  it('writes cents and device-day prices', () => {
    expect(formatCents(123456)).toBe('$1,234.56');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatUnitPrice(1644)).toBe('$0.1644');
    expect(lineAmount(31, 1644)).toBe(510);
  });
});

describe('billing forms', () => {
  const valid = {
    address_line1: '1 Main Street',
    city: 'Springfield',
    company_name: 'Acme',
    zip_code: '12345',
    state: 'IL',
    country: 'US',
    payment_option: 'invoice',
  };
  const errors = (body: unknown) => ZBillingInfoBody.safeParse(body).error?.flatten().fieldErrors ?? {};

  it('accepts a complete form', () => {
    expect(ZBillingInfoBody.parse(valid)).toMatchObject({ address_line2: '', po_number: '' });
  });

  it('says the spec’s texts', () => {
    expect(errors({ ...valid, address_line1: 'x'.repeat(101) }).address_line1).toEqual([BILLING_TEXTS.address1Max]);
    expect(BILLING_TEXTS.address1Max).toBe('The first address line cannot exceed 100 characters.');
    expect(errors({ ...valid, payment_option: undefined }).payment_option).toEqual([
      'Please provide a payment option.',
    ]);
    expect(errors({ ...valid, company_name: 'x'.repeat(46) }).company_name).toEqual([BILLING_TEXTS.companyMax]);
    const empty = errors({});
    for (const f of ['address_line1', 'city', 'company_name', 'zip_code', 'state', 'country'] as const)
      expect(empty[f]).toEqual(['This field is required.']);
    expect(ZChangePlanBody.safeParse({ interval: 'monthly' }).error?.flatten().fieldErrors.plan).toEqual([
      'You must select a plan.',
    ]);
  });
});
