import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_TEXTS } from '@patchwell/core/webhooks/webhooks.schema';
import { webhookDeliveries } from '../../db/webhooks.schema';
import { startTestApp, type JsonBody, type TestApp } from '../../test/app';
import { buildZoneWithKey } from '../../test/agents';
import { call, cookieFor } from '../../test/authz-helpers';
import { clientAcrossDays } from '../../test/cve-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { verifySignature } from './signature';
import { isAllowedAddress } from './target';
import { enqueueWebhookEvent, WEBHOOK_RETRY_WINDOW_MS } from './webhooks.service';
import { deleteOldDeliveries } from './webhooks.store';
import { BACKOFF_BASE_MS, runWebhookDeliveries } from './webhooks.worker';

/**
 * Outgoing webhooks end to end: the API over HTTP, deliveries sent by the worker to a
 * loopback receiver that checks each signature, retries driven by the test clock.
 */

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
let other: Awaited<ReturnType<typeof buildZoneWithKey>>;
let receiver: WebhookReceiver;
/** The zone administrator, signed in afresh for each call (the tests move the clock by days). */
let admin: ReturnType<typeof clientAcrossDays>;

beforeAll(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: '1' } });
  z = await buildZoneWithKey(t);
  other = await buildZoneWithKey(t);
  admin = clientAcrossDays(t, z.user);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const patch = async (path: string, body: unknown) =>
  call(t, { cookie: await cookieFor(t, z.user) }, 'PATCH', path, body);
const q = (path: string, o = z.zone.id) => `${path}${path.includes('?') ? '&' : '?'}o=${o}`;

async function createHook(eventTypes: string[] = ['patch.failed'], url = receiver.url) {
  const res = await admin.post(q('/api/webhooks'), { url, event_types: eventTypes });
  expect(res.status).toBe(201);
  return res.body as { id: number; secret: string; url: string; event_types: string[] };
}

async function deliveriesOf(webhookId: number, filter = '') {
  const res = await admin.get(q(`/api/webhooks/${webhookId}/deliveries?limit=100${filter}`));
  expect(res.status).toBe(200);
  return res.body as { data: Record<string, JsonBody>[]; size: number };
}

function deliveryHeader(r: { headers: Record<string, unknown> }) {
  return String(r.headers['patchwell-delivery']);
}

describe('webhooks API', () => {
  it('creates a webhook, shows its secret once, and lists, edits and deletes it', async () => {
    const hook = await createHook(['patch.failed', 'run.finished', 'patch.failed']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(hook.event_types).toEqual(['patch.failed', 'run.finished']);
    const list = await admin.get(q('/api/webhooks'));
    const listed = list.body.data.find((w: { id: number }) => w.id === hook.id);
    expect(listed).toMatchObject({ url: receiver.url, enabled: true, created_by: z.user.email });
    expect(JSON.stringify(list.body)).not.toContain(hook.secret);
    // Stored encrypted: the secret is nowhere in the table's text.
    const stored = await t.db.execute(sql`select secret_sealed from webhooks where id = ${hook.id}`);
    expect(JSON.stringify(stored)).not.toContain(hook.secret.slice(6));

    const edited = await patch(q(`/api/webhooks/${hook.id}`), { enabled: false, event_types: ['task.executed'] });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ enabled: false, event_types: ['task.executed'] });

    const rotated = await admin.post(q(`/api/webhooks/${hook.id}/rotate-secret`));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(hook.secret);

    expect((await admin.del(q(`/api/webhooks/${hook.id}`))).status).toBe(204);
    expect((await admin.get(q(`/api/webhooks/${hook.id}`))).status).toBe(404);
  });

  it('refuses URLs that are not https or point at private addresses (SSRF), and empty event lists', async () => {
    const strict = await startTestApp({ config: { webhooksAllowLoopback: false } });
    try {
      const zz = await buildZoneWithKey(strict);
      const refuse = async (url: string, text: string) => {
        const res = await zz.admin.post(`/api/webhooks?o=${zz.zone.id}`, { url, event_types: ['run.finished'] });
        expect(res.status, url).toBe(400);
        expect(res.text, url).toContain(text);
      };
      await refuse('http://127.0.0.1:9/x', WEBHOOK_TEXTS.urlHttps);
      await refuse('ftp://example.test/x', WEBHOOK_TEXTS.urlHttps);
      await refuse('https://user:pw@example.test/x', WEBHOOK_TEXTS.urlCredentials);
      for (const url of [
        'https://127.0.0.1/x',
        'https://localhost/x',
        'https://[::1]/x',
        'https://10.1.2.3/x',
        'https://192.168.0.10/x',
        'https://169.254.169.254/latest/meta-data',
        'https://[fe80::1]/x',
        'https://[::ffff:10.0.0.1]/x',
      ]) {
        await refuse(url, WEBHOOK_TEXTS.privateTarget);
      }
      const none = await zz.admin.post(`/api/webhooks?o=${zz.zone.id}`, {
        url: 'https://203.0.114.7/x',
        event_types: [],
      });
      expect(none.status).toBe(400);
      expect(none.text).toContain(WEBHOOK_TEXTS.eventsRequired);
    } finally {
      await strict.close();
    }
    // With the loopback flag only loopback is admitted, not the private ranges.
    const res = await admin.post(q('/api/webhooks'), { url: 'https://10.0.0.1/x', event_types: ['run.finished'] });
    expect(res.status).toBe(400);
    expect(isAllowedAddress('8.8.8.8', false)).toBe(true);
    expect(isAllowedAddress('2606:4700:4700::1111', false)).toBe(true);
    for (const a of ['10.0.0.1', '100.64.1.1', '172.20.0.1', '0.0.0.0', '224.0.0.1', 'fc00::1', '::ffff:127.0.0.1']) {
      expect(isAllowedAddress(a, false), a).toBe(false);
    }
  });

  it('answers 404 for another zone’s webhook and its deliveries', async () => {
    const hook = await createHook(['run.finished']);
    const theirs = other.admin;
    const o = other.zone.id;
    expect((await theirs.get(`/api/webhooks/${hook.id}?o=${o}`)).status).toBe(404);
    expect((await theirs.get(`/api/webhooks/${hook.id}/deliveries?o=${o}`)).status).toBe(404);
    expect((await theirs.post(`/api/webhooks/${hook.id}/ping?o=${o}`)).status).toBe(404);
    expect((await theirs.post(`/api/webhooks/${hook.id}/rotate-secret?o=${o}`)).status).toBe(404);
    expect((await theirs.del(`/api/webhooks/${hook.id}?o=${o}`)).status).toBe(404);
    // Naming our zone does not help: they are not a member.
    expect((await theirs.get(`/api/webhooks/${hook.id}?o=${z.zone.id}`)).status).toBe(404);
    expect((await theirs.get(`/api/webhooks?o=${o}`)).body.data).toEqual([]);
  });
});

describe('deliveries', () => {
  it('POSTs a signed ping to the receiver, which verifies the HMAC and the timestamp', async () => {
    const hook = await createHook(['run.finished']);
    const before = receiver.received.length;
    const ping = await admin.post(q(`/api/webhooks/${hook.id}/ping`));
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({ event_type: 'ping', status: 'pending', attempts: 0 });

    const outcomes = await runWebhookDeliveries(t.ctx);
    expect(outcomes).toEqual([{ id: ping.body.id, status: 'delivered' }]);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    const r = got[0]!;
    expect(r.headers['patchwell-event']).toBe('ping');
    expect(deliveryHeader(r)).toBe(String(ping.body.id));
    expect(r.headers['content-type']).toBe('application/json');
    const signature = String(r.headers['patchwell-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(hook.secret, signature, r.body, t.clock.now())).toBe(true);
    // A wrong secret, an altered body and a replay ten minutes later all fail.
    expect(verifySignature('whsec_other', signature, r.body, t.clock.now())).toBe(false);
    expect(verifySignature(hook.secret, signature, r.body.replace('ping', 'pong'), t.clock.now())).toBe(false);
    expect(verifySignature(hook.secret, signature, r.body, new Date(t.clock.now().getTime() + 600_000))).toBe(false);
    expect(JSON.parse(r.body)).toMatchObject({ id: ping.body.id, type: 'ping', zone_id: z.zone.id });

    const log = await deliveriesOf(hook.id, '&status=delivered');
    expect(log.data[0]).toMatchObject({ id: ping.body.id, status: 'delivered', attempts: 1, last_status_code: 200 });
    expect(log.data[0]!.response_excerpt).toBe('ok');
  });

  it('retries after 500s with a doubling backoff, then delivers; redeliver sends it again', async () => {
    const hook = await createHook(['run.finished']);
    receiver.answer(500);
    const ping = (await admin.post(q(`/api/webhooks/${hook.id}/ping`))).body;
    const start = t.clock.now().getTime();
    expect(await runWebhookDeliveries(t.ctx)).toEqual([{ id: ping.id, status: 'pending' }]);
    let d = (await deliveriesOf(hook.id)).data[0]!;
    expect(d).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
    expect(d.last_error).toContain('500');
    expect(d.response_excerpt).toBe('receiver says 500');
    const wait = new Date(d.next_attempt_at).getTime() - start;
    expect(wait).toBeGreaterThanOrEqual(BACKOFF_BASE_MS * 0.8);
    expect(wait).toBeLessThanOrEqual(BACKOFF_BASE_MS * 1.2);
    // Not due yet: nothing is sent.
    expect(await runWebhookDeliveries(t.ctx)).toEqual([]);

    t.clock.set(d.next_attempt_at);
    expect(await runWebhookDeliveries(t.ctx)).toEqual([{ id: ping.id, status: 'pending' }]);
    d = (await deliveriesOf(hook.id)).data[0]!;
    const secondWait = new Date(d.next_attempt_at).getTime() - t.clock.now().getTime();
    expect(secondWait).toBeGreaterThanOrEqual(BACKOFF_BASE_MS * 2 * 0.8);

    receiver.answer(200);
    t.clock.set(d.next_attempt_at);
    expect(await runWebhookDeliveries(t.ctx)).toEqual([{ id: ping.id, status: 'delivered' }]);
    d = (await deliveriesOf(hook.id)).data[0]!;
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200, next_attempt_at: null });

    const before = receiver.received.length;
    const again = await admin.post(q(`/api/webhooks/${hook.id}/deliveries/${ping.id}/redeliver`));
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: ping.id, status: 'pending', attempts: 0 });
    await runWebhookDeliveries(t.ctx);
    expect(receiver.received.slice(before).map(deliveryHeader)).toEqual([String(ping.id)]);
  });

  it('gives up after a day of retries and marks the delivery failed', async () => {
    const hook = await createHook(['run.finished']);
    receiver.answer(503);
    const ping = (await admin.post(q(`/api/webhooks/${hook.id}/ping`))).body;
    const created = new Date(ping.created_at).getTime();
    const stamps: number[] = [];
    const before = receiver.received.length;
    for (let i = 0; i < 100; i++) {
      await runWebhookDeliveries(t.ctx);
      const d = (await deliveriesOf(hook.id)).data.find((x) => x.id === ping.id)!;
      if (d.status !== 'pending') break;
      t.clock.set(d.next_attempt_at);
    }
    const d = (await deliveriesOf(hook.id, '&status=failed')).data.find((x) => x.id === ping.id)!;
    expect(d.status).toBe('failed');
    expect(d.next_attempt_at).toBeNull();
    expect(new Date(d.retry_until).getTime()).toBe(created + WEBHOOK_RETRY_WINDOW_MS);
    expect(new Date(d.last_attempt_at).getTime()).toBeLessThanOrEqual(created + WEBHOOK_RETRY_WINDOW_MS);
    // The last attempt came within the final hour of the day (the backoff's cap).
    expect(new Date(d.last_attempt_at).getTime()).toBeGreaterThan(created + WEBHOOK_RETRY_WINDOW_MS - 2 * 3_600_000);
    for (const r of receiver.received.slice(before)) {
      stamps.push(Number(/t=(\d+)/.exec(String(r.headers['patchwell-signature']))![1]));
    }
    expect(stamps.length).toBe(d.attempts);
    expect(d.attempts).toBeGreaterThan(20);
    expect(d.attempts).toBeLessThan(40);
    const gaps = stamps.slice(1).map((s, i) => s - stamps[i]!);
    // Doubling (within the ±20 % jitter) for the first attempts, capped at about an hour.
    for (let i = 1; i < 5; i++) expect(gaps[i]!).toBeGreaterThan(gaps[i - 1]! * 1.3);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(3600 * 1.2 + 1);
    receiver.answer(200);
  });

  it('checks the target again at send time and sends nothing to an address it may not reach', async () => {
    const hook = await createHook(['run.finished']);
    const ping = (await admin.post(q(`/api/webhooks/${hook.id}/ping`))).body;
    const before = receiver.received.length;
    t.ctx.config.webhooksAllowLoopback = false;
    try {
      expect(await runWebhookDeliveries(t.ctx)).toEqual([{ id: ping.id, status: 'pending' }]);
    } finally {
      t.ctx.config.webhooksAllowLoopback = true;
    }
    expect(receiver.received.length).toBe(before);
    const d = (await deliveriesOf(hook.id)).data[0]!;
    // Without the flag the loopback http URL fails the check before any connection.
    expect(d).toMatchObject({
      id: ping.id,
      status: 'pending',
      last_status_code: null,
      last_error: WEBHOOK_TEXTS.urlHttps,
    });
  });

  it('enqueues nothing for a change that rolls back, nor for events no enabled webhook subscribes to', async () => {
    const hook = await createHook(['task.executed']);
    const count = async () =>
      (await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id))).length;
    await expect(
      t.db.transaction(async (tx) => {
        expect(await enqueueWebhookEvent(tx, z.zone.id, 'task.executed', { task: { id: 1 } }, t.clock.now())).toBe(1);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count()).toBe(0);
    expect(await enqueueWebhookEvent(t.db, z.zone.id, 'device.offline', {}, t.clock.now())).toBe(0);
    expect(await enqueueWebhookEvent(t.db, other.zone.id, 'task.executed', {}, t.clock.now())).toBe(0);
    await patch(q(`/api/webhooks/${hook.id}`), { enabled: false });
    expect(await enqueueWebhookEvent(t.db, z.zone.id, 'task.executed', {}, t.clock.now())).toBe(0);
    await patch(q(`/api/webhooks/${hook.id}`), { enabled: true });
    await t.db.transaction(async (tx) => {
      await enqueueWebhookEvent(tx, z.zone.id, 'task.executed', { task: { id: 2 } }, t.clock.now());
    });
    expect(await count()).toBe(1);
  });

  it('never delivers one delivery twice when two workers run at once', async () => {
    const hook = await createHook(['vulnerability.critical']);
    await runWebhookDeliveries(t.ctx); // leftovers of earlier tests
    for (let i = 0; i < 30; i++) {
      await enqueueWebhookEvent(
        t.db,
        z.zone.id,
        'vulnerability.critical',
        { cve: `CVE-2026-${9000 + i}` },
        t.clock.now(),
      );
    }
    const before = receiver.received.length;
    const [a, b] = await Promise.all([runWebhookDeliveries(t.ctx), runWebhookDeliveries(t.ctx)]);
    const all = [...a!, ...b!];
    expect(all.filter((o) => o.status === 'delivered')).toHaveLength(30);
    const ids = receiver.received.slice(before).map(deliveryHeader);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect((await deliveriesOf(hook.id, '&status=delivered')).size).toBe(30);
  });
  it('sweeps finished deliveries older than the cutoff, batch by batch, and keeps pending and recent ones', async () => {
    const hook = await createHook(['run.finished']);
    const now = t.clock.now();
    const cutoff = new Date(now.getTime() - 30 * 86_400_000);
    const old = new Date(cutoff.getTime() - 60_000);
    const rows = (['delivered', 'delivered', 'failed', 'delivered', 'pending'] as const).map((status, i) => ({
      webhookId: hook.id,
      organizationId: z.zone.id,
      eventType: 'run.finished' as const,
      payload: { n: i },
      status,
      retryUntil: old,
      createdAt: old,
    }));
    rows.push({ ...rows[0]!, payload: { n: 5 }, createdAt: now });
    await t.db.insert(webhookDeliveries).values(rows);

    // Batches of two: three statements delete the four old finished ones.
    expect(await deleteOldDeliveries(t.db, cutoff, 2)).toBe(4);
    const left = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id));
    expect(left.map((r) => [r.status, (r.payload as { n: number }).n]).sort()).toEqual([
      ['delivered', 5],
      ['pending', 4],
    ]);
    expect(await deleteOldDeliveries(t.db, cutoff, 2)).toBe(0);
  });
});
