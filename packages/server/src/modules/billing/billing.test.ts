import { inflateSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_TEXTS } from '@patchwell/core/billing/billing.schema';
import { deviceDayPrice, lineAmount, RATES, type RateTable } from '@patchwell/core/billing/pricing';
import { startTestApp, type JsonBody, type TestApp } from '../../test/app';
import { buildZoneWithKey, checkinAs, enrollDevice, flushLastSeen, type EnrolledDevice } from '../../test/agents';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildUser } from '../../test/factories';
import { queryRows } from '../../db/raw';
import { runBilling } from './billing.jobs';

/**
 * Billing end to end over HTTP: devices check in through the agent API on chosen days, the
 * daily job meters those days and invoices the month once it ended, and the invoice's totals
 * are the metered device-days times the plan's rates (with the volume discount above 500).
 */

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
let other: Awaited<ReturnType<typeof buildZoneWithKey>>;
let volume: Awaited<ReturnType<typeof buildZoneWithKey>>;
let devices: EnrolledDevice[];

const q = (path: string, o: number) => `${path}${path.includes('?') ? '&' : '?'}o=${o}`;
/** A fresh session for each call: the tests move the clock by days, past any idle timeout. */
async function as(user: Parameters<typeof cookieFor>[1]) {
  return clientFor(t, { cookie: await cookieFor(t, user) });
}
const admin = () => as(z.user);

const INFO = {
  address_line1: '1 Main Street',
  address_line2: '',
  city: 'Springfield',
  company_name: 'Acme Corp',
  zip_code: '62701',
  state: 'IL',
  country: 'United States',
  payment_option: 'purchase_order',
  po_number: 'PO-7781',
};

async function checkIn(list: EnrolledDevice[]) {
  for (const d of list) expect((await checkinAs(t, d.token)).status).toBe(200);
  await flushLastSeen(t);
}

/** This server's price list (BILLING_RATES), not core's default: invoices and the overview use it. */
const PRICES: RateTable = {
  monthly: { patch: 210, manage: 360, full_annual_base_rate: 480 },
  yearly: { patch: 180, manage: 312, full_annual_base_rate: 408 },
};

beforeAll(async () => {
  t = await startTestApp({ env: { BILLING_RATES: JSON.stringify(PRICES) } });
  z = await buildZoneWithKey(t);
  other = await buildZoneWithKey(t);
  volume = await buildZoneWithKey(t);
  devices = [];
  for (const hostname of ['a', 'b', 'c']) devices.push(await enrollDevice(t, z.accessKey, { hostname }));
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('permissions', () => {
  it('lets a Billing Administrator read and change billing, and refuses roles without Billing', async () => {
    const billing = await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 3 } });
    const readOnly = await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 2 } });
    const patchOp = await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 4 } });

    const asBilling = await as(billing);
    const overview = await asBilling.get(q('/api/billing', z.zone.id));
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({ plan: 'tier3', interval: 'monthly', info: null, can_modify: true });
    expect((await asBilling.put(q('/api/billing/info', z.zone.id), INFO)).status).toBe(200);

    for (const user of [readOnly, patchOp]) {
      const c = await as(user);
      expect((await c.get(q('/api/billing', z.zone.id))).status).toBe(403);
      expect((await c.get(q('/api/billing/invoices', z.zone.id))).status).toBe(403);
      expect((await c.put(q('/api/billing/info', z.zone.id), INFO)).status).toBe(403);
      expect((await c.put(q('/api/billing/plan', z.zone.id), { plan: 'patch', interval: 'monthly' })).status).toBe(403);
    }
    // Another account's zone is not even there.
    expect((await (await as(other.user)).get(q('/api/billing', z.zone.id))).status).toBe(404);
  });

  it('answers the spec’s validation texts', async () => {
    const c = await admin();
    const res = await c.put(q('/api/billing/info', z.zone.id), {
      ...INFO,
      address_line1: 'x'.repeat(101),
      payment_option: undefined,
      city: '',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.address_line1).toEqual([BILLING_TEXTS.address1Max]);
    expect(res.body.errors.payment_option).toEqual(['Please provide a payment option.']);
    expect(res.body.errors.city).toEqual(['This field is required.']);
    // A card is not a payment option of this product.
    expect((await c.put(q('/api/billing/info', z.zone.id), { ...INFO, payment_option: 'card' })).status).toBe(400);
    const plan = await c.put(q('/api/billing/plan', z.zone.id), { interval: 'monthly' });
    expect(plan.status).toBe(400);
    expect(plan.body.errors.plan).toEqual(['You must select a plan.']);
  });
});

describe('metering and invoices', () => {
  let march: JsonBody;

  it('meters the devices that checked in each day and invoices the ended month', async () => {
    // Mon 2 March: a and b check in (a twice).
    t.clock.set('2026-03-02T09:00:00Z');
    await checkIn([devices[0]!, devices[1]!, devices[0]!]);
    // Tue 3 March: the job meters the 2nd (on Complete, monthly), then the plan changes.
    t.clock.set('2026-03-03T08:00:00Z');
    await runBilling(t.ctx);
    const changed = await (
      await admin()
    ).put(q('/api/billing/plan', z.zone.id), { plan: 'manage', interval: 'yearly' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ plan: 'manage', interval: 'yearly' });
    await checkIn([devices[0]!]);
    // Thu 5 March: all three at 23:59; c again two minutes later, which is the 6th.
    t.clock.set('2026-03-05T23:59:00Z');
    await checkIn(devices);
    t.clock.set('2026-03-06T00:01:00Z');
    await checkIn([devices[2]!]);

    // The volume zone: 620 devices present on the 10th and 1,100 on the 11th.
    await t.db.execute(sql`
      insert into device_presence_days (device_id, organization_id, day)
      select 50000000 + g, ${volume.zone.id}::int, '2026-03-10'::date from generate_series(1, 620) g
      union all
      select 50000000 + g, ${volume.zone.id}::int, '2026-03-11'::date from generate_series(1, 1100) g`);

    // 1 April, just after midnight: March is metered to its end and invoiced.
    t.clock.set('2026-04-01T00:30:00Z');
    await runBilling(t.ctx);

    const days = await queryRows<{ day: string; devices: number; plan: string | null; interval: string }>(
      t.db,
      sql`select to_char(day, 'YYYY-MM-DD') as day, devices, plan, interval from billing_meter_days
           where organization_id = ${z.zone.id} and devices > 0 order by day`,
    );
    expect(days).toEqual([
      { day: '2026-03-02', devices: 2, plan: 'tier3', interval: 'monthly' },
      { day: '2026-03-03', devices: 1, plan: 'manage', interval: 'yearly' },
      { day: '2026-03-05', devices: 3, plan: 'manage', interval: 'yearly' },
      { day: '2026-03-06', devices: 1, plan: 'manage', interval: 'yearly' },
    ]);
    const [{ n }] = (await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from billing_meter_days where organization_id = ${z.zone.id}
           and day between '2026-03-01' and '2026-03-31'`,
    )) as [{ n: number }];
    expect(n).toBe(31);

    const list = await (await admin()).get(q('/api/billing/invoices', z.zone.id));
    expect(list.status).toBe(200);
    march = list.body.data.find((i: JsonBody) => i.period_start === '2026-03-01');
    expect(march).toMatchObject({
      number: `PW-${z.zone.id}-202603`,
      period_end: '2026-03-31',
      device_days: 7,
      payment_option: 'purchase_order',
    });
  });

  it('totals the metered device-days times the rates, on numbered lines', async () => {
    const res = await (await admin()).get(q(`/api/billing/invoices/${march.id}`, z.zone.id));
    expect(res.status).toBe(200);
    const manageDay = deviceDayPrice(PRICES.yearly.manage, 0);
    const completeDay = deviceDayPrice(PRICES.monthly.full_annual_base_rate, 0);
    expect(res.body.lines).toEqual([
      expect.objectContaining({ line_no: 1, plan: 'manage', interval: 'yearly', quantity: 5, unit_price: manageDay }),
      expect.objectContaining({ line_no: 2, plan: 'tier3', interval: 'monthly', quantity: 2, unit_price: completeDay }),
    ]);
    // 312 cents a device-month on Standard yearly and 480 on Complete monthly, a month being 365/12 days.
    expect(manageDay).toBe(1026);
    expect(completeDay).toBe(1578);
    expect(res.body.total_cents).toBe(Math.round((5 * 1026) / 100) + Math.round((2 * 1578) / 100));
    expect(res.body.total_cents).toBe(83);
    expect(res.body.bill_to).toMatchObject({ company_name: 'Acme Corp', po_number: 'PO-7781' });
  });

  it('applies the volume discount to the devices above 500 each day', async () => {
    const c = await as(volume.user);
    const list = await c.get(q('/api/billing/invoices', volume.zone.id));
    const invoice = list.body.data.find((i: JsonBody) => i.period_start === '2026-03-01');
    const res = await c.get(q(`/api/billing/invoices/${invoice.id}`, volume.zone.id));
    // Per day: 620 = 500 + 120; 1,100 = 500 + 500 + 100.
    expect(res.body.lines.map((l: JsonBody) => [l.line_no, l.quantity, l.discount_pct])).toEqual([
      [1, 1000, 0],
      [2, 620, 10],
      [3, 100, 20],
    ]);
    const rate = PRICES.monthly.full_annual_base_rate;
    const expected =
      lineAmount(1000, deviceDayPrice(rate, 0)) +
      lineAmount(620, deviceDayPrice(rate, 10)) +
      lineAmount(100, deviceDayPrice(rate, 20));
    expect(expected).toBe(15780 + 8804 + 1262);
    expect(res.body.total_cents).toBe(expected);
    expect(res.body.device_days).toBe(1720);
  });

  it('issues each invoice once and never changes it', async () => {
    t.clock.set('2026-04-01T06:00:00Z');
    // A late row for March does not reach the issued invoice.
    await t.db.execute(
      sql`insert into device_presence_days (device_id, organization_id, day) values (${devices[2]!.id}, ${z.zone.id}, '2026-03-20') on conflict do nothing`,
    );
    expect(await runBilling(t.ctx)).toEqual({ metered: 0, invoiced: 0 });
    const c = await admin();
    const again = await c.get(q(`/api/billing/invoices/${march.id}`, z.zone.id));
    expect(again.body.total_cents).toBe(83);
    // No route changes or removes an invoice.
    expect((await c.put(q(`/api/billing/invoices/${march.id}`, z.zone.id), {})).status).toBe(404);
    expect((await c.del(q(`/api/billing/invoices/${march.id}`, z.zone.id))).status).toBe(404);
  });

  it('answers 404 for another zone’s invoice', async () => {
    const c = await as(other.user);
    for (const path of ['', '/pdf', '/csv']) {
      expect((await c.get(q(`/api/billing/invoices/${march.id}${path}`, other.zone.id))).status).toBe(404);
      expect((await c.get(q(`/api/billing/invoices/${march.id}${path}`, z.zone.id))).status).toBe(404);
    }
  });

  it('exports the invoice as CSV lines', async () => {
    const res = await t.request(q(`/api/billing/invoices/${march.id}/csv`, z.zone.id), {
      headers: { cookie: await cookieFor(t, z.user) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="PW-${z.zone.id}-202603.csv"`);
    const rows = parse(await res.text()) as string[][];
    expect(rows[0]).toEqual(['Line', 'Description', 'Device-days', 'Unit price (USD per device-day)', 'Amount (USD)']);
    expect(rows.slice(1).map((r) => [r[0], r[2], r[3], r[4]])).toEqual([
      ['1', '5', '0.1026', '0.51'],
      ['2', '2', '0.1578', '0.32'],
      ['', '7', '', '0.83'],
    ]);
    expect(rows[1]![1]).toBe('Standard plan (yearly), devices 1–500');
  });

  it('exports the invoice as a PDF that holds its number, lines and total', async () => {
    const res = await t.request(q(`/api/billing/invoices/${march.id}/pdf`, z.zone.id), {
      headers: { cookie: await cookieFor(t, z.user) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    expect(pdf.toString('latin1')).toMatch(/\/Type \/Page\b/);
    const text = pdfText(pdf);
    for (const expected of [
      `Invoice PW-${z.zone.id}-202603`,
      'Period: 2026-03-01 to 2026-03-31',
      'Acme Corp',
      'Purchase order: PO-7781',
      'Standard plan (yearly), devices 1–500',
      '$0.1026',
      '$0.83',
    ])
      expect(text).toContain(expected);
  });

  it('records plan changes and billing information in the activity log', async () => {
    const rows = await queryRows<{ action: string; details: JsonBody }>(
      t.db,
      sql`select action, details from activity_log where organization_id = ${z.zone.id}
           and action like 'billing.%' order by id`,
    );
    expect(rows.map((r) => r.action)).toEqual(['billing.info_update', 'billing.plan_change']);
    expect(rows[1]!.details.changes).toEqual({
      plan: { from: 'tier3', to: 'manage' },
      interval: { from: 'monthly', to: 'yearly' },
    });
  });

  it('shows the current period’s metering on the overview', async () => {
    t.clock.set('2026-04-03T12:00:00Z');
    await checkIn([devices[0]!]);
    t.clock.set('2026-04-04T01:00:00Z');
    await runBilling(t.ctx);
    const res = await (await admin()).get(q('/api/billing', z.zone.id));
    expect(res.body.current_period).toEqual({
      start: '2026-04-01',
      end: '2026-04-30',
      device_days: 1,
      days_metered: 3,
    });
    expect(res.body.rates).toEqual(PRICES);
    expect(res.body.rates).not.toEqual(RATES);
  });
});

/**
 * The text a PDF shows: its content streams inflated and the strings of their text operators
 * (`<hex> Tj` and `[<hex> kerning <hex>] TJ`, as pdfkit writes them) decoded as WinAnsi.
 */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  const streams = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = streams.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    let body: Buffer = pdf.subarray(start, end);
    try {
      body = inflateSync(body);
    } catch {
      // An uncompressed stream (or one that is not text): read as it is.
    }
    const content = body.toString('latin1');
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]+)>\s*Tj/g)) {
      const parts = op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]+)>/g)].map((p) => p[1]!) : [op[2]!];
      out.push(parts.map((hex) => winAnsi(Buffer.from(hex, 'hex'))).join(''));
    }
  }
  return out.join('\n');
}

function winAnsi(bytes: Buffer): string {
  return [...bytes].map((b) => (b === 0x96 ? '–' : b === 0x92 ? '’' : String.fromCharCode(b))).join('');
}
