import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../db/client';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { createTestClock } from '../../test/clock';
import { createTestDb } from '../../test/db';
import { buildPolicyZone, inventoriedDevice, patch, type TestZone } from '../../test/policy-fixtures';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';
import { createMailer } from '../mail/mail.transport';
import { eq } from 'drizzle-orm';
import { reportScheduleSends } from '../../db/report-schedules.schema';
import {
  claimDueSchedules,
  deliverSends,
  runReportSchedules,
  SEND_MAX_ATTEMPTS,
  SEND_STALE_MS,
} from './schedules.worker';

/**
 * The scheduled reports' worker on a shared database: two app instances (two nodes) tick at
 * the same moments and each due time is mailed once; due times follow Paris across the DST
 * change and a monthly 31st clamps to short months (the test clock walks through them);
 * a failing relay is retried a bounded number of times with its error shown; a disabled or
 * deleted schedule sends nothing.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let handle: DbHandle;
let smtp: SmtpCapture;
const clock = createTestClock('2026-03-26T12:00:00.000Z');
let a: TestApp;
let b: TestApp;
let z: TestZone;

beforeAll(async () => {
  handle = await createTestDb();
  smtp = await startSmtpCapture();
  a = await startTestApp({ db: handle, clock, env: { SMTP_URL: smtp.url } });
  b = await startTestApp({ db: handle, clock, env: { SMTP_URL: smtp.url } });
  z = await buildPolicyZone(a);
  await inventoriedDevice(a, z, 'web-critical', { patches: [patch('openssl', 'critical')] });
});

// Each test's schedules go with it, so the next one's walk ticks through its own only.
afterEach(async () => {
  const client = await admin();
  const list = await client.get(q('/api/reports/schedules?limit=700'));
  for (const s of list.body.data as { id: number }[]) await client.del(q(`/api/reports/schedules/${s.id}`));
});

afterAll(async () => {
  await a.close();
  await b.close();
  await handle.close();
  await smtp.close();
});

/** A fresh session each call: the clock walks past any session's lifetime. */
const admin = async () => clientFor(a, { cookie: await cookieFor(a, z.user) });
const q = (path: string) => `${path}${path.includes('?') ? '&' : '?'}o=${z.o}`;

async function schedule(extra: Record<string, unknown>) {
  const res = await (
    await admin()
  ).post(q('/api/reports/schedules'), {
    name: 'Scheduled',
    kind: 'needs_attention',
    frequency: 'daily',
    time: '08:00',
    timezone: 'Europe/Paris',
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body as { id: number; next_due_at: string };
}

/** Sends each node mailed, by send id: a send mailed by both nodes would show twice. */
const mailedBy: { a: number[]; b: number[] } = { a: [], b: [] };

/** Both nodes tick at once. */
async function tickBoth() {
  const [byA, byB] = await Promise.all([runReportSchedules(a.ctx), runReportSchedules(b.ctx)]);
  mailedBy.a.push(...byA.sent);
  mailedBy.b.push(...byB.sent);
}
const mailsTo = (to: string) => smtp.messages.filter((m) => m.recipients.includes(to));

async function sendsOf(id: number) {
  const res = await (await admin()).get(q(`/api/reports/schedules/${id}/sends?limit=100`));
  return (res.body.data as { due_at: string; status: string; attempts: number; error: string | null }[]).reverse();
}

/** Walks the shared clock to `until` in `step`s, both nodes ticking at every step. */
async function walk(until: string, step: number) {
  while (clock.now().getTime() < new Date(until).getTime()) {
    clock.advance(step);
    await tickBoth();
  }
}

describe('the scheduled reports worker', () => {
  it('sends each due time once with two nodes on one database, 08:00 Paris across the DST change', async () => {
    clock.set('2026-03-26T12:00:00.000Z');
    const to = 'paris-daily@example.test';
    const { id } = await schedule({ recipients: [to] });
    await walk('2026-03-31T12:00:00.000Z', HOUR);
    // Ticking again at the same moment claims nothing more.
    await tickBoth();
    const expected = [
      '2026-03-27T07:00:00.000Z',
      '2026-03-28T07:00:00.000Z',
      '2026-03-29T06:00:00.000Z', // summer time from 29 March: 08:00 is 06:00 UTC
      '2026-03-30T06:00:00.000Z',
      '2026-03-31T06:00:00.000Z',
    ];
    expect((await sendsOf(id)).map((s) => [s.due_at, s.status])).toEqual(expected.map((d) => [d, 'sent']));
    expect(mailsTo(to)).toHaveLength(expected.length);
    expect(new Set(mailsTo(to).map((m) => m.attachments[0]!.filename)).size).toBe(expected.length);
    // No send was mailed by both nodes.
    const all = [...mailedBy.a, ...mailedBy.b];
    expect(new Set(all).size).toBe(all.length);
  });

  it('sends monthly on the 31st, on the last day of shorter months', async () => {
    clock.set('2026-04-01T12:00:00.000Z');
    const to = 'monthly-31@example.test';
    const { id, next_due_at } = await schedule({
      frequency: 'monthly',
      day_of_month: 31,
      time: '07:30',
      recipients: [to],
    });
    expect(next_due_at).toBe('2026-04-30T05:30:00.000Z');
    await walk('2026-07-01T12:00:00.000Z', DAY);
    expect((await sendsOf(id)).map((s) => s.due_at)).toEqual([
      '2026-04-30T05:30:00.000Z',
      '2026-05-31T05:30:00.000Z',
      '2026-06-30T05:30:00.000Z',
    ]);
    expect(mailsTo(to)).toHaveLength(3);
  });

  it('owes one mail, not one per missed day, after the nodes were down', async () => {
    clock.set('2026-07-02T12:00:00.000Z');
    const to = 'catch-up@example.test';
    const { id } = await schedule({ recipients: [to] });
    clock.advance(5 * DAY);
    await tickBoth();
    await tickBoth();
    expect((await sendsOf(id)).map((s) => s.due_at)).toEqual(['2026-07-03T06:00:00.000Z']);
    const after = (await (await admin()).get(q(`/api/reports/schedules/${id}`))).body;
    expect(after.next_due_at).toBe('2026-07-08T06:00:00.000Z');
    expect(mailsTo(to)).toHaveLength(1);
  });

  it('sends nothing for a disabled or deleted schedule, even with a due time already claimed', async () => {
    clock.set('2026-08-01T12:00:00.000Z');
    const disabledTo = 'disabled@example.test';
    const deletedTo = 'deleted@example.test';
    const disabled = await schedule({ recipients: [disabledTo] });
    const deleted = await schedule({ recipients: [deletedTo] });
    clock.advance(DAY);
    // The due times are claimed, then the schedules change before any node mails them.
    expect(await claimDueSchedules(a.ctx)).toBeGreaterThanOrEqual(2);
    const put = await (
      await admin()
    ).put(q(`/api/reports/schedules/${disabled.id}`), {
      name: 'Scheduled',
      kind: 'needs_attention',
      frequency: 'daily',
      time: '08:00',
      timezone: 'Europe/Paris',
      recipients: [disabledTo],
      enabled: false,
    });
    expect(put.body.next_due_at).toBeNull();
    expect((await (await admin()).del(q(`/api/reports/schedules/${deleted.id}`))).status).toBe(204);
    await deliverSends(b.ctx);
    clock.advance(3 * DAY);
    await tickBoth();
    expect(mailsTo(disabledTo)).toHaveLength(0);
    expect(mailsTo(deletedTo)).toHaveLength(0);
    expect((await sendsOf(disabled.id)).map((s) => s.status)).toEqual(['pending']);
  });
});

describe('a node that stops while sending', () => {
  it('leaves its send to another node after a while, and a last attempt fails', async () => {
    clock.set('2026-11-01T12:00:00.000Z');
    const to = 'abandoned@example.test';
    const resumed = await schedule({ recipients: [to] });
    const lost = await schedule({ recipients: ['lost@example.test'] });
    clock.advance(DAY);
    await claimDueSchedules(a.ctx);
    // Node A claimed both sends and died: one on its first attempt, one on its last.
    const claimed = { status: 'sending' as const, claimedAt: clock.now() };
    await a.db
      .update(reportScheduleSends)
      .set({ ...claimed, attempts: 1 })
      .where(eq(reportScheduleSends.scheduleId, resumed.id));
    await a.db
      .update(reportScheduleSends)
      .set({ ...claimed, attempts: SEND_MAX_ATTEMPTS })
      .where(eq(reportScheduleSends.scheduleId, lost.id));
    await runReportSchedules(b.ctx);
    expect(mailsTo(to)).toHaveLength(0);
    clock.advance(SEND_STALE_MS + 1000);
    await runReportSchedules(b.ctx);
    expect((await sendsOf(resumed.id))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    expect(mailsTo(to)).toHaveLength(1);
    const [gone] = await sendsOf(lost.id);
    expect(gone).toMatchObject({ status: 'failed', attempts: SEND_MAX_ATTEMPTS });
    expect(gone!.error).toContain('stopped');
    expect(mailsTo('lost@example.test')).toHaveLength(0);
  });
});

describe('a failing SMTP relay', () => {
  it('is retried a bounded number of times, its error shown, and the retry attaches the same CSV', async () => {
    const refused = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const working = a.ctx.mailer;
    const broken = createMailer({ smtpUrl: `smtp://127.0.0.1:${refused}`, mailFrom: a.ctx.config.mailFrom });
    clock.set('2026-09-01T12:00:00.000Z');
    const to = 'retry@example.test';
    const { id } = await schedule({ recipients: [to] });
    try {
      a.ctx.mailer = broken;
      b.ctx.mailer = broken;
      clock.advance(DAY);
      await tickBoth();
      let [send] = await sendsOf(id);
      expect(send).toMatchObject({ status: 'failed', attempts: 1 });
      expect(send!.error).toMatch(/ECONNREFUSED|connect/i);
      const shown = (await (await admin()).get(q(`/api/reports/schedules/${id}`))).body;
      expect(shown.last_error).toBe(send!.error);

      // Not before its retry time; then once per retry, up to the bound.
      await tickBoth();
      expect((await sendsOf(id))[0]!.attempts).toBe(1);
      clock.advance(61_000);
      await tickBoth();
      expect((await sendsOf(id))[0]).toMatchObject({ status: 'failed', attempts: 2 });

      // The relay is back: the third attempt sends the CSV built for the first.
      a.ctx.mailer = working;
      b.ctx.mailer = working;
      // Meanwhile the fleet changed; the mail stays the report as of its due time.
      await inventoriedDevice(a, z, 'late-arrival', { patches: [patch('curl', 'critical')] });
      clock.advance(10 * 60_000 + 1000);
      await tickBoth();
      [send] = await sendsOf(id);
      expect(send).toMatchObject({ status: 'sent', attempts: 3, error: null });
      const [mail] = mailsTo(to);
      expect(mail!.attachments[0]!.content).toContain('web-critical');
      expect(mail!.attachments[0]!.content).not.toContain('late-arrival');
      expect(mailsTo(to)).toHaveLength(1);
      expect((await (await admin()).get(q(`/api/reports/schedules/${id}`))).body.last_error).toBeNull();
    } finally {
      a.ctx.mailer = working;
      b.ctx.mailer = working;
    }
  });

  it(`gives up after ${SEND_MAX_ATTEMPTS} attempts`, async () => {
    const broken = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', mailFrom: a.ctx.config.mailFrom });
    const working = a.ctx.mailer;
    clock.set('2026-10-01T12:00:00.000Z');
    const { id } = await schedule({ recipients: ['give-up@example.test'] });
    try {
      a.ctx.mailer = broken;
      b.ctx.mailer = broken;
      clock.advance(DAY);
      for (let i = 0; i < 6; i++) {
        await tickBoth();
        clock.advance(HOUR);
      }
      const sends = await sendsOf(id);
      expect(sends[0]).toMatchObject({ status: 'failed', attempts: SEND_MAX_ATTEMPTS });
    } finally {
      a.ctx.mailer = working;
      b.ctx.mailer = working;
    }
  });
});
