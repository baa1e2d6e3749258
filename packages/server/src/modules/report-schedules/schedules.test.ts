import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { REPORT_SCHEDULE_TEXTS, ZReportSchedule, ZReportScheduleSend } from '@patchwell/core/reports/schedules.schema';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildUser } from '../../test/factories';
import { buildPolicyZone, inventoriedDevice, patch, type TestZone } from '../../test/policy-fixtures';
import { startSmtpCapture, type SmtpCapture } from '../../test/smtp-capture';

/**
 * Scheduled reports over HTTP: the API's rules (validation, rights, other zones), the events
 * it writes, and "Send now" through a real SMTP server on loopback, whose attachment must be
 * the very CSV the report's download answers.
 */

let smtp: SmtpCapture;
let t: TestApp;
let z: TestZone;
let other: TestZone;
let reader: ReturnType<typeof clientFor>;

const body = (extra: Record<string, unknown> = {}) => ({
  name: 'Morning attention list',
  kind: 'needs_attention',
  frequency: 'daily',
  time: '08:00',
  timezone: 'Europe/Paris',
  recipients: ['ops@example.test', 'cto@example.test'],
  ...extra,
});

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await startTestApp({ env: { SMTP_URL: smtp.url } });
  z = await buildPolicyZone(t);
  other = await buildPolicyZone(t);
  // One device needing attention (a critical patch), one pending (a low one), one compliant.
  await inventoriedDevice(t, z, 'web-critical', { patches: [patch('openssl', 'critical')] });
  await inventoriedDevice(t, z, 'db-low', { patches: [patch('tzdata', 'low')] });
  await inventoriedDevice(t, z, 'mail-clean');
  const readOnly = await buildUser(t.db, { accountId: z.account.id, zones: { [z.o]: 2 } });
  reader = clientFor(t, { cookie: await cookieFor(t, readOnly) });
});

afterAll(async () => {
  await t.close();
  await smtp.close();
});

const q = (path: string, zone = z) => `${path}${path.includes('?') ? '&' : '?'}o=${zone.o}`;

describe('/api/reports/schedules', () => {
  it('creates, lists, changes and deletes a schedule, each change an event', async () => {
    const created = await z.admin.post(q('/api/reports/schedules'), body());
    expect(created.status).toBe(201);
    const schedule = ZReportSchedule.parse(created.body);
    // The test clock starts at 2026-03-02T09:00Z: 08:00 in Paris (UTC+1) is past, so tomorrow.
    expect(schedule).toMatchObject({
      kind: 'needs_attention',
      day_of_week: null,
      next_due_at: '2026-03-03T07:00:00.000Z',
      created_by: z.user.email,
      last_sent_at: null,
    });

    const list = await reader.get(q('/api/reports/schedules'));
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ size: 1, data: [{ id: schedule.id }] });

    const changed = await z.admin.put(q(`/api/reports/schedules/${schedule.id}`), {
      ...body(),
      frequency: 'monthly',
      day_of_month: 31,
      time: '18:30',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      frequency: 'monthly',
      day_of_month: 31,
      next_due_at: '2026-03-31T16:30:00.000Z',
    });

    const disabled = await z.admin.put(q(`/api/reports/schedules/${schedule.id}`), { ...body(), enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, next_due_at: null });

    expect((await z.admin.del(q(`/api/reports/schedules/${schedule.id}`))).status).toBe(204);
    expect((await z.admin.get(q(`/api/reports/schedules/${schedule.id}`))).status).toBe(404);

    const events = await z.admin.get(q('/api/events?action=report_schedule&preset=today'));
    expect(events.body.data.map((e: { action: string }) => e.action)).toEqual([
      'report_schedule.delete',
      'report_schedule.update',
      'report_schedule.update',
      'report_schedule.create',
    ]);
  });

  it('refuses bad schedules with 400 and the field’s message, and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ timezone: 'Mars/Olympus' }, REPORT_SCHEDULE_TEXTS.timezone],
      [{ time: '8am' }, REPORT_SCHEDULE_TEXTS.time],
      [{ frequency: 'weekly' }, REPORT_SCHEDULE_TEXTS.dayOfWeek],
      [{ frequency: 'monthly', day_of_month: 32 }, REPORT_SCHEDULE_TEXTS.dayOfMonth],
      [{ recipients: [] }, REPORT_SCHEDULE_TEXTS.recipientsRequired],
      [{ recipients: ['ops@example.test', 'nobody'] }, REPORT_SCHEDULE_TEXTS.recipientInvalid('nobody')],
      [{ recipients: Array.from({ length: 51 }, (_, i) => `r${i}@example.test`) }, REPORT_SCHEDULE_TEXTS.recipientsMax],
    ];
    for (const [extra, message] of cases) {
      const res = await z.admin.post(q('/api/reports/schedules'), body(extra));
      expect([extra, res.status]).toEqual([extra, 400]);
      expect(res.text).toContain(JSON.stringify(message).slice(1, -1));
    }
    expect((await z.admin.post(q('/api/reports/schedules'), body({ kind: 'overview' }))).status).toBe(400);
    expect((await z.admin.get(q('/api/reports/schedules'))).body.size).toBe(0);
  });

  it('lets a reader read, but only the zone’s administrators change or send (403)', async () => {
    const created = await z.admin.post(q('/api/reports/schedules'), body({ name: 'Reader can see' }));
    const id = created.body.id as number;
    expect((await reader.get(q(`/api/reports/schedules/${id}`))).status).toBe(200);
    expect((await reader.get(q(`/api/reports/schedules/${id}/sends`))).status).toBe(200);
    expect((await reader.post(q('/api/reports/schedules'), body())).status).toBe(403);
    expect((await reader.put(q(`/api/reports/schedules/${id}`), body())).status).toBe(403);
    expect((await reader.del(q(`/api/reports/schedules/${id}`))).status).toBe(403);
    expect((await reader.post(q(`/api/reports/schedules/${id}/send`))).status).toBe(403);
    await z.admin.del(q(`/api/reports/schedules/${id}`));
  });

  it('answers 404 for another zone’s schedule, whatever the call', async () => {
    const created = await other.admin.post(q('/api/reports/schedules', other), body({ name: 'Other zone' }));
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect((await z.admin.get(q(`/api/reports/schedules/${id}`))).status).toBe(404);
    expect((await z.admin.get(q(`/api/reports/schedules/${id}/sends`))).status).toBe(404);
    expect((await z.admin.put(q(`/api/reports/schedules/${id}`), body())).status).toBe(404);
    expect((await z.admin.post(q(`/api/reports/schedules/${id}/send`))).status).toBe(404);
    expect((await z.admin.del(q(`/api/reports/schedules/${id}`))).status).toBe(404);
    expect((await other.admin.get(q(`/api/reports/schedules/${id}`, other))).body.name).toBe('Other zone');
  });
});

describe('POST /api/reports/schedules/{scheduleId}/send', () => {
  it.each([
    ['needs_attention', '/api/reports/needs-attention/csv', 2],
    ['prepatch', '/api/reports/prepatch/csv', 2],
  ] as const)('mails the %s CSV, equal to its download, with a summary', async (kind, download, rows) => {
    const to = `${kind}-now@example.test`;
    const created = await z.admin.post(q('/api/reports/schedules'), body({ kind, recipients: [to] }));
    const since = smtp.messages.length;
    const sent = await z.admin.post(q(`/api/reports/schedules/${created.body.id}/send`));
    expect(sent.status).toBe(200);
    expect(ZReportScheduleSend.parse(sent.body)).toMatchObject({
      status: 'sent',
      manual: true,
      row_count: rows,
      error: null,
    });

    const mail = await smtp.waitFor(to, since);
    expect(mail.attachments).toHaveLength(1);
    const [attachment] = mail.attachments;
    expect(attachment!.filename).toBe(`${kind.replace('_', '-')}-2026-03-02.csv`);
    const expected = await z.admin.get(q(download));
    expect(attachment!.content).toBe(expected.text);
    const parsed = parse(attachment!.content, { columns: true }) as Record<string, string>[];
    expect(parsed.map((r) => r.Hostname).sort()).toEqual(['db-low', 'web-critical']);
    expect(mail.text).toContain('Compliance: 33% (1 of 3 devices compliant)');
    expect(mail.text).toContain('Devices needing attention: 1');
    expect(mail.text).toContain(`Devices in the attached CSV: ${rows}`);

    const schedule = await z.admin.get(q(`/api/reports/schedules/${created.body.id}`));
    expect(schedule.body).toMatchObject({ last_sent_at: sent.body.sent_at, last_error: null });
    expect(sent.body.sent_at).toBe(t.clock.now().toISOString());
    const sends = await reader.get(q(`/api/reports/schedules/${created.body.id}/sends`));
    expect(sends.body).toMatchObject({ size: 1, data: [{ id: sent.body.id, status: 'sent' }] });
    t.clock.advance(1000);
  });

  it('mails the activity log of the period, with the events in it', async () => {
    const to = 'activity-now@example.test';
    const created = await z.admin.post(q('/api/reports/schedules'), body({ kind: 'activity_log', recipients: [to] }));
    t.clock.advance(1000);
    const since = smtp.messages.length;
    const sent = await z.admin.post(q(`/api/reports/schedules/${created.body.id}/send`));
    expect(sent.body.status).toBe('sent');
    const mail = await smtp.waitFor(to, since);
    const parsed = parse(mail.attachments[0]!.content, { columns: true }) as Record<string, string>[];
    const creation = parsed.find(
      (r) => r.Action === 'report_schedule.create' && r['Object ID'] === String(created.body.id),
    );
    expect(creation?.Who).toBeTruthy();
    // From the wall time a day before (08:00 in Paris) to the moment it was sent.
    expect(mail.text).toContain(
      `Events from 2026-03-01T07:00:00.000Z to ${t.clock.now().toISOString()}: ${parsed.length}`,
    );
  });
});
