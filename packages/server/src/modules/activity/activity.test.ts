import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_RANGE_ERRORS } from '@patchwell/core/reports/date-range';
import { activityLog } from '../../db/activity.schema';
import { startTestApp, type TestApp } from '../../test/app';
import { agentCall, buildZoneWithKey, checkinAs, enrollDevice } from '../../test/agents';
import { call, clientFor, cookieFor } from '../../test/authz-helpers';
import { buildUser, buildZone, TEST_PASSWORD } from '../../test/factories';
import { logActivity, logActivityMany } from './activity.service';

let t: TestApp;
const NOW = '2026-03-02T09:00:00.000Z';

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

type Zone = Awaited<ReturnType<typeof buildZoneWithKey>>;

/** Writes an event through the real writer at `at` (the clock is put back afterwards). */
async function eventAt(zoneId: number, at: string, action: string, extra: { userId?: number; object?: string } = {}) {
  t.clock.set(at);
  await logActivity(
    t.ctx,
    { userId: extra.userId ?? null, via: 'system' },
    zoneId,
    action,
    { type: extra.object ?? 'thing', id: action, name: action },
    { changes: { name: { from: 'a', to: 'b' } } },
  );
  t.clock.set(NOW);
}

const actionsOf = (body: { data: { action: string }[] }) => body.data.map((e) => e.action);

describe('GET /api/events: date range presets', () => {
  let z: Zone;
  let list: (query: string) => ReturnType<ReturnType<typeof clientFor>['get']>;

  beforeAll(async () => {
    z = await buildZoneWithKey(t);
    list = (query) => z.admin.get(`/api/events?o=${z.zone.id}&action=test&${query}`);
    await eventAt(z.zone.id, '2025-11-22T10:00:00Z', 'test.days100');
    await eventAt(z.zone.id, '2026-01-21T10:00:00Z', 'test.days40');
    await eventAt(z.zone.id, '2026-02-10T10:00:00Z', 'test.days20');
    await eventAt(z.zone.id, '2026-02-24T00:00:00Z', 'test.days6');
    await eventAt(z.zone.id, '2026-02-23T23:59:59Z', 'test.days7');
    await eventAt(z.zone.id, '2026-03-01T12:00:00Z', 'test.yesterday');
    await eventAt(z.zone.id, '2026-03-02T00:00:00Z', 'test.midnight');
    await eventAt(z.zone.id, '2026-03-02T08:00:00Z', 'test.today');
  });

  it('lists the last 30 days by default, newest first', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(actionsOf(res.body)).toEqual([
      'test.today',
      'test.midnight',
      'test.yesterday',
      'test.days6',
      'test.days7',
      'test.days20',
    ]);
    expect(res.body.size).toBe(6);
  });

  it('today, yesterday and last7days are whole UTC days', async () => {
    expect(actionsOf((await list('preset=today')).body)).toEqual(['test.today', 'test.midnight']);
    expect(actionsOf((await list('preset=yesterday')).body)).toEqual(['test.yesterday']);
    expect(actionsOf((await list('preset=last7days')).body)).toEqual([
      'test.today',
      'test.midnight',
      'test.yesterday',
      'test.days6',
    ]);
  });

  it('a custom range runs from the start of its first day to the end of its last', async () => {
    const res = await list('preset=custom&startDate=2026-01-21&endDate=2026-02-23');
    expect(actionsOf(res.body)).toEqual(['test.days7', 'test.days20', 'test.days40']);
    // Dates alone mean custom.
    expect(actionsOf((await list('startDate=2026-03-01&endDate=2026-03-01')).body)).toEqual(['test.yesterday']);
  });

  it('refuses custom dates that are not real, in the future, over 90 days back or out of order', async () => {
    const cases: [string, string, string][] = [
      ['startDate=2026-02-30&endDate=2026-03-01', 'startDate', DATE_RANGE_ERRORS.invalid],
      ['startDate=2026-3-1&endDate=2026-03-01', 'startDate', DATE_RANGE_ERRORS.invalid],
      ['startDate=2026-03-01&endDate=2026-03-03', 'endDate', DATE_RANGE_ERRORS.future],
      ['startDate=2025-12-01&endDate=2026-03-01', 'startDate', DATE_RANGE_ERRORS.tooOld],
      ['startDate=2026-03-01&endDate=2026-02-01', 'endDate', DATE_RANGE_ERRORS.order],
      ['preset=custom&startDate=2026-03-01', 'endDate', DATE_RANGE_ERRORS.required],
      ['preset=today&startDate=2026-03-01', 'startDate', DATE_RANGE_ERRORS.onlyCustom],
      ['preset=lastyear', 'preset', ''],
    ];
    for (const [query, field, message] of cases) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors?.[field], query).toBeDefined();
      if (message) expect(res.body.errors[field], query).toContain(message);
    }
    // Exactly 90 days back and today are allowed.
    expect((await list('startDate=2025-12-02&endDate=2026-03-02')).status).toBe(200);
  });

  it('counts up to 10,000 matching events and says when there are more', async () => {
    const big = await buildZoneWithKey(t);
    const objects = Array.from({ length: 10_001 }, (_, i) => ({ type: 'thing', id: i }));
    await logActivityMany(t.ctx, { userId: null, via: 'system' }, big.zone.id, 'bulk.event', objects);
    const res = await big.admin.get(`/api/events?o=${big.zone.id}&limit=5&page=3`);
    expect(res.body).toMatchObject({ size: 10_000, size_capped: true });
    expect(res.body.data).toHaveLength(5);
    const one = await big.admin.get(`/api/events?o=${big.zone.id}&object_type=thing&object_id=7`);
    expect(one.body).toMatchObject({ size: 1, size_capped: false });
  });

  it('pages with page and limit', async () => {
    const first = await list('limit=2');
    const second = await list('limit=2&page=1');
    expect(actionsOf(first.body)).toEqual(['test.today', 'test.midnight']);
    expect(actionsOf(second.body)).toEqual(['test.yesterday', 'test.days6']);
    expect(second.body.size).toBe(6);
  });
});

describe('GET /api/events: filters', () => {
  let z: Zone;
  let other: { id: number };

  beforeAll(async () => {
    z = await buildZoneWithKey(t);
    other = await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 1 } });
    await eventAt(z.zone.id, '2026-03-02T01:00:00Z', 'device.reboot', { userId: z.user.id, object: 'device' });
    await eventAt(z.zone.id, '2026-03-02T02:00:00Z', 'device.tag', { userId: other.id, object: 'device' });
    await eventAt(z.zone.id, '2026-03-02T03:00:00Z', 'devices.odd', { userId: other.id, object: 'device' });
    await eventAt(z.zone.id, '2026-03-02T04:00:00Z', 'policy.create', { userId: z.user.id, object: 'policy' });
  });

  const get = (query: string) => z.admin.get(`/api/events?o=${z.zone.id}&${query}`);

  it('by action or action family (device matches device.reboot, not devices.odd)', async () => {
    expect(actionsOf((await get('action=device')).body)).toEqual(['device.tag', 'device.reboot']);
    expect(actionsOf((await get('action=device.reboot')).body)).toEqual(['device.reboot']);
    expect(actionsOf((await get('action=device.re')).body)).toEqual([]);
    expect((await get('action=device%25')).status).toBe(400);
  });

  it('by user', async () => {
    expect(actionsOf((await get(`user_id=${other.id}`)).body)).toEqual(['devices.odd', 'device.tag']);
  });

  it('by object type and id', async () => {
    expect(actionsOf((await get('object_type=policy')).body)).toEqual(['policy.create']);
    expect(actionsOf((await get('object_type=device&object_id=device.tag')).body)).toEqual(['device.tag']);
    expect((await get('object_id=7')).status).toBe(400);
  });

  it('answers each event with who, what, the object, a summary and the address', async () => {
    const res = await get('action=policy');
    expect(res.body.data[0]).toMatchObject({
      organization_id: z.zone.id,
      actor: { type: 'user', user_id: z.user.id, name: z.user.email },
      action: 'policy.create',
      object: { type: 'policy', id: 'policy.create', name: 'policy.create' },
      summary: 'name: a → b',
      created_at: '2026-03-02T04:00:00.000Z',
    });
  });
});

describe('GET /api/events: zones and accounts', () => {
  it('never lists another zone’s events, and another account’s zone answers 404', async () => {
    const z = await buildZoneWithKey(t);
    const sibling = await buildZone(t.db, { accountId: z.account.id });
    const foreign = await buildZoneWithKey(t);
    await eventAt(z.zone.id, NOW, 'own.event');
    await eventAt(sibling.id, NOW, 'sibling.event');
    await eventAt(foreign.zone.id, NOW, 'foreign.event');
    const zoneAdmin = await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 1 } });
    const asZoneAdmin = clientFor(t, { cookie: await cookieFor(t, zoneAdmin) });

    for (const client of [z.admin, asZoneAdmin]) {
      const res = await client.get(`/api/events?o=${z.zone.id}`);
      expect(actionsOf(res.body)).toEqual(['own.event']);
      expect((await client.get(`/api/events?o=${foreign.zone.id}`)).status).toBe(404);
      expect((await client.get(`/api/events/csv?o=${foreign.zone.id}`)).status).toBe(404);
    }
    // The zone administrator is no member of the sibling zone.
    expect((await asZoneAdmin.get(`/api/events?o=${sibling.id}`)).status).toBe(404);
  });

  it('shows sign-ins (account-level) of the zone’s members to its readers, and all of them to global administrators', async () => {
    const z = await buildZoneWithKey(t);
    const sibling = await buildZone(t.db, { accountId: z.account.id });
    const member = await buildUser(t.db, { accountId: z.account.id, zones: { [z.zone.id]: 2 } });
    const outsider = await buildUser(t.db, { accountId: z.account.id, zones: { [sibling.id]: 2 } });
    expect((await t.signIn(member.email, TEST_PASSWORD)).res.status).toBe(200);
    expect((await t.signIn(outsider.email, TEST_PASSWORD)).res.status).toBe(200);
    expect((await t.signIn(outsider.email, 'wrong-password-123456')).res.status).toBe(401);

    const memberView = clientFor(t, { cookie: await cookieFor(t, member) });
    const seen = (await memberView.get(`/api/events?o=${z.zone.id}&action=auth`)).body.data;
    expect(seen.map((e: { actor: { user_id: number } }) => e.actor.user_id)).toEqual([member.id]);
    expect(seen[0]).toMatchObject({ organization_id: null, action: 'auth.signin', object: { name: member.email } });

    const all = (await z.admin.get(`/api/events?o=${z.zone.id}&action=auth`)).body.data;
    expect(all.map((e: { action: string; actor: { user_id: number } }) => [e.action, e.actor.user_id])).toEqual([
      ['auth.signin_failed', outsider.id],
      ['auth.signin', outsider.id],
      ['auth.signin', member.id],
    ]);
    expect(all[0].details).toMatchObject({ reason: 'wrong password' });
  });
});

describe('the activity log keeps secrets out', () => {
  it('stores no password, API key or token, however they were used', async () => {
    const z = await buildZoneWithKey(t);
    const o = z.zone.id;
    const newPassword = 'another-long-enough-password-77';
    await t.signIn(z.user.email, TEST_PASSWORD);
    await t.signIn(z.user.email, 'a-wrong-password-for-the-log');
    const key = await z.admin.post(`/api/users/self/api_keys?o=${o}`, { name: 'secret check' });
    expect(key.status).toBe(201);
    const viaKey = clientFor(t, { bearer: key.body.key });
    expect((await viaKey.put(`/api/orgs/${o}?o=${o}`, { name: 'Renamed by key' })).status).toBe(200);
    const changed = await z.admin.put(`/api/users/${z.user.id}?o=${o}`, {
      password: TEST_PASSWORD,
      password1: newPassword,
      password2: newPassword,
    });
    expect(changed.status).toBe(200);
    const access = await z.admin.post(`/api/orgs/${o}/access-key/rotate?o=${o}`);

    const rows = await t.db.select().from(activityLog);
    const stored = JSON.stringify(rows);
    for (const secret of [
      TEST_PASSWORD,
      newPassword,
      'a-wrong-password-for-the-log',
      key.body.key,
      access.body.access_key,
    ]) {
      expect(stored).not.toContain(secret);
    }
    const mine = rows.filter((r) => r.organizationId === o || r.userId === z.user.id);
    expect(mine.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        'auth.signin',
        'auth.signin_failed',
        'api_key.create',
        'zone.update',
        'user.update_self',
      ]),
    );
    // The key's own event names the key, and the change it made is the key's.
    const byKey = rows.find((r) => r.action === 'zone.update' && r.organizationId === o)!;
    expect(byKey).toMatchObject({ via: 'api_key', apiKeyId: key.body.id, userId: z.user.id });
    expect(rows.find((r) => r.action === 'user.update_self' && r.userId === z.user.id)?.details).toMatchObject({
      credential_changed: 'password',
    });
  });
});

describe('client address', () => {
  it('is the peer without TRUST_PROXY and the forwarded client behind a trusted proxy', async () => {
    const proxied = await startTestApp({ config: { trustProxy: true } });
    try {
      for (const [app, expected] of [
        [t, /^(::ffff:)?127\.0\.0\.1$/],
        [proxied, /^203\.0\.113\.9$/],
      ] as const) {
        const z = await buildZoneWithKey(app);
        const res = await call(
          app,
          { cookie: z.cookie },
          'PUT',
          `/api/orgs/${z.zone.id}?o=${z.zone.id}`,
          { name: 'Proxied' },
          {
            'x-forwarded-for': '203.0.113.9',
          },
        );
        expect(res.status).toBe(200);
        const events = (await z.admin.get(`/api/events?o=${z.zone.id}&action=zone.update`)).body.data;
        expect(events[0].client_address).toMatch(expected);
      }
    } finally {
      await proxied.close();
    }
  });
});

describe('agent-side outcomes', () => {
  it('logs one event per finished command with the device as actor, and one per policy run', async () => {
    const z = await buildZoneWithKey(t);
    const o = z.zone.id;
    const device = await enrollDevice(t, z.accessKey, { hostname: 'outcome-host' });
    const queued = await z.admin.post(`/api/servers/${device.id}/queues?o=${o}`, { command_type_name: 'Reboot' });
    expect(queued.status).toBe(201);
    const checkin = await checkinAs(t, device.token);
    const command = checkin.body.commands[0];
    const result = await agentCall(t, device.token, 'POST', `/commands/${command.id}/result`, {
      status: 'success',
      exit_code: 0,
    });
    expect(result.status).toBeLessThan(300);

    const events = (await z.admin.get(`/api/events?o=${o}&object_type=device&object_id=${device.id}`)).body.data;
    expect(events.map((e: { action: string }) => e.action)).toEqual(['agent.reboot', 'device.reboot', 'agent.enroll']);
    expect(events[0]).toMatchObject({
      via: 'agent',
      actor: { type: 'device', device_id: device.id, name: 'outcome-host', user_id: null },
      object: { type: 'device', id: String(device.id), name: 'outcome-host' },
      details: { command_id: command.id, status: 'success', exit_code: 0 },
      client_address: null,
    });

    // A policy run over several devices: one dispatch event, not one per device.
    for (const host of ['run-a', 'run-b', 'run-c']) await enrollDevice(t, z.accessKey, { hostname: host });
    const groups = await z.admin.get(`/api/servergroups?o=${o}`);
    const group = groups.body.find((g: { default: boolean }) => g.default);
    const policy = await z.admin.post(`/api/policies?o=${o}`, {
      name: 'Run once',
      policy_type_name: 'patch',
      server_groups: [group.id],
      schedule_days: 0,
      schedule_time: '02:00',
      use_scheduled_timezone: true,
      configuration: { auto_patch: true, notify_user: false, auto_reboot: false, patch_rule: 'all' },
      notes: '',
    });
    const run = await z.admin.post(`/api/policies/${policy.body.id}/action?o=${o}`, { action: 'remediateAll' });
    expect(run.status).toBe(202);
    const runEvents = (await z.admin.get(`/api/events?o=${o}&object_type=policy`)).body.data;
    expect(runEvents.map((e: { action: string }) => e.action)).toEqual([
      'policy.run_dispatched',
      'policy.remediateAll',
      'policy.create',
    ]);
    expect(runEvents[0]).toMatchObject({ via: 'system', actor: { type: 'system' }, details: { devices: 4 } });
  });
});

describe('GET /api/events/csv', () => {
  it('exports the filtered events with formula-like cells neutralised', async () => {
    const z = await buildZoneWithKey(t);
    const o = z.zone.id;
    expect((await z.admin.put(`/api/orgs/${o}?o=${o}`, { name: '=HYPERLINK("x")' })).status).toBe(200);
    await eventAt(o, NOW, 'other.event');
    const res = await t.request(`/api/events/csv?o=${o}&action=zone`, { headers: { cookie: z.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe('Time (UTC),Who,Via,Action,Object type,Object ID,Object,Summary,Client address');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('zone.update');
    expect(lines[1]).toContain(z.user.email);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(
      (
        await t.request(`/api/events/csv?o=${o}&startDate=2026-02-30&endDate=2026-03-01`, {
          headers: { cookie: z.cookie },
        })
      ).status,
    ).toBe(400);
  });
});
