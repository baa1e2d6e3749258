import { createHash, randomBytes } from 'node:crypto';
import { eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLog } from '../../db/activity.schema';
import { policyApprovals } from '../../db/policies.schema';
import { remediationBatches, remediationTasks } from '../../db/remediation.schema';
import { users } from '../../db/schema';
import { startTestApp, type TestApp } from '../../test/app';
import { buildZoneWithKey, enrollDevice } from '../../test/agents';
import { buildCveObjects } from '../../test/cve-fixtures';
import { call, clientFor, cookieFor, type Answer } from '../../test/authz-helpers';
import { buildUser, TEST_PASSWORD } from '../../test/factories';
import { ACTIVITY_EXCLUDED_ROUTES } from './activity-coverage';

/**
 * The activity log covers every change: this test walks the mutating routes (POST, PUT,
 * PATCH, DELETE under /api) of the app's own OpenAPI document, calls each one validly as a
 * real client would, and checks that an event with the expected action was written, in
 * the expected zone (or at account level), with the client's address. A route added later
 * fails here until it writes an event or joins the documented exclusions.
 */

type Doc = { paths: Record<string, Record<string, unknown>> };
type Case = {
  /** Calls the route; must answer 2xx. */
  run: () => Promise<Answer>;
  action: string;
  /** The zone the event belongs to; null for an account-level event. */
  zone: () => number | null;
};

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
let o: number;
let accountId: number;
const ids: Record<string, number> = {};
const strings: Record<string, string> = {};

const admin = () => z.admin;
const q = (path: string) => `${path}${path.includes('?') ? '&' : '?'}o=${o}`;

async function multipart(path: string, filename: string, content: string): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([new TextEncoder().encode(content)], { type: 'text/csv' }), filename);
  const res = await t.request(path, { method: 'POST', headers: { cookie: z.cookie }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

function policyBody(name: string) {
  return {
    name,
    policy_type_name: 'patch',
    server_groups: [ids.group!],
    schedule_days: 0,
    schedule_time: '02:00',
    use_scheduled_timezone: true,
    configuration: { auto_patch: true, notify_user: false, auto_reboot: false, patch_rule: 'all' },
    notes: '',
  };
}

const inZone = () => o;
const atAccount = () => null;

/** One valid call per mutating route, in an order where each finds what it needs. */
const CASES: Record<string, Case> = {
  'POST /api/orgs': {
    run: async () => {
      const res = await admin().post(q('/api/orgs'), { name: `Second ${randomBytes(3).toString('hex')}` });
      ids.zone2 = res.body?.id;
      return res;
    },
    action: 'zone.create',
    zone: () => ids.zone2!,
  },
  'POST /api/orgs/self/prefs': {
    run: () => admin().post(q('/api/orgs/self/prefs'), { prefs: [{ pref_name: 'theme', value: 'dark' }] }),
    action: 'zone.prefs',
    zone: inZone,
  },
  'PUT /api/orgs/{id}': {
    run: () => admin().put(q(`/api/orgs/${o}`), { name: 'Renamed zone' }),
    action: 'zone.update',
    zone: inZone,
  },
  'POST /api/orgs/{id}/disable': {
    run: () => admin().post(q(`/api/orgs/${ids.zone2}/disable`)),
    action: 'zone.disable',
    zone: () => ids.zone2!,
  },
  'POST /api/orgs/{id}/enable': {
    run: () => admin().post(q(`/api/orgs/${ids.zone2}/enable`)),
    action: 'zone.enable',
    zone: () => ids.zone2!,
  },
  'POST /api/orgs/{id}/access-key/rotate': {
    run: () => admin().post(q(`/api/orgs/${ids.zone2}/access-key/rotate`)),
    action: 'zone.access_key_rotate',
    zone: () => ids.zone2!,
  },
  'PUT /api/orgs/{id}/session-settings': {
    run: () =>
      admin().put(q(`/api/orgs/${o}/session-settings`), { max_lifetime_minutes: 600, idle_timeout_minutes: 60 }),
    action: 'zone.session_settings',
    zone: inZone,
  },
  'POST /api/accounts/{accountId}/zones': {
    run: async () => {
      const res = await admin().post(`/api/accounts/${accountId}/zones`, { name: 'Third zone' });
      ids.zone3 = res.body?.id;
      return res;
    },
    action: 'zone.create',
    zone: () => ids.zone3!,
  },
  'PUT /api/accounts/{accountId}/zones/{zoneId}': {
    run: () => admin().put(`/api/accounts/${accountId}/zones/${ids.zone3}`, { name: 'Third zone renamed' }),
    action: 'zone.update',
    zone: () => ids.zone3!,
  },
  'PUT /api/accounts/{accountId}/session-settings': {
    run: () =>
      admin().put(`/api/accounts/${accountId}/session-settings`, {
        max_lifetime_minutes: 720,
        idle_timeout_minutes: 30,
      }),
    action: 'account.session_settings',
    zone: atAccount,
  },
  'POST /api/users/self/api_keys': {
    run: async () => {
      const res = await admin().post(q('/api/users/self/api_keys'), { name: 'coverage key' });
      ids.key = res.body?.id;
      strings.key = res.body?.key;
      return res;
    },
    action: 'api_key.create',
    zone: inZone,
  },
  'DELETE /api/users/self/api_keys/{id}': {
    run: () => admin().del(q(`/api/users/self/api_keys/${ids.key}`)),
    action: 'api_key.revoke',
    zone: inZone,
  },
  'PUT /api/users/{id}': {
    run: () => admin().put(q(`/api/users/${ids.member}`), { role_id: 2 }),
    action: 'user.update',
    zone: inZone,
  },
  'POST /api/users/unlockaccount': {
    run: () => admin().post(q('/api/users/unlockaccount'), { userid: ids.member }),
    action: 'user.unlock',
    zone: inZone,
  },
  'DELETE /api/users/{id}': {
    run: () => admin().del(q(`/api/users/${ids.member}`)),
    action: 'user.remove',
    zone: inZone,
  },
  'POST /api/accounts/{accountId}/users': {
    run: async () => {
      const res = await admin().post(`/api/accounts/${accountId}/users`, {
        email: `account-user-${randomBytes(3).toString('hex')}@example.test`,
        firstname: 'Acc',
        lastname: 'User',
        account_rbac_role: 'no-global-access',
        zones: [{ zone_id: o, role_id: 2 }],
      });
      ids.accountUser = res.body?.id;
      return res;
    },
    action: 'user.create',
    zone: atAccount,
  },
  'PUT /api/accounts/{accountId}/users/{userId}': {
    run: () => admin().put(`/api/accounts/${accountId}/users/${ids.accountUser}`, { firstname: 'Renamed' }),
    action: 'user.update',
    zone: atAccount,
  },
  'POST /api/inviteUser': {
    run: async () => {
      const res = await admin().post(q('/api/inviteUser'), {
        email: `invitee-${randomBytes(3).toString('hex')}@example.test`,
        role_id: 2,
      });
      ids.invitation = res.body?.invitation_id;
      ids.invitee = res.body?.user_id;
      strings.acceptLink = res.body?.accept_link;
      return res;
    },
    action: 'invitation.create',
    zone: inZone,
  },
  'POST /api/users/{userId}/resend-invitation': {
    run: async () => {
      const res = await admin().post(q(`/api/users/${ids.invitee}/resend-invitation`));
      ids.invitation = res.body?.invitation_id;
      strings.acceptLink = res.body?.accept_link;
      return res;
    },
    action: 'invitation.resend',
    zone: inZone,
  },
  'POST /api/accounts/{accountId}/invitations/{id}/resend': {
    run: async () => {
      const res = await admin().post(`/api/accounts/${accountId}/invitations/${ids.invitation}/resend`);
      ids.invitation = res.body?.invitation_id;
      strings.acceptLink = res.body?.accept_link;
      return res;
    },
    action: 'invitation.resend',
    zone: inZone,
  },
  'POST /api/invitations/{token}/accept': {
    run: () => {
      const token = new URL(strings.acceptLink!).searchParams.get('token') ?? strings.acceptLink!.split('/').pop()!;
      return call(t, {}, 'POST', `/api/invitations/${encodeURIComponent(token)}/accept`, {
        firstname: 'In',
        lastname: 'Vitee',
        password: TEST_PASSWORD,
        password_confirmation: TEST_PASSWORD,
      });
    },
    action: 'invitation.accept',
    zone: inZone,
  },
  'DELETE /api/accounts/{accountId}/invitations/{id}': {
    run: async () => {
      const invited = await admin().post(q('/api/inviteUser'), { email: 'revoked@example.test', role_id: 2 });
      return admin().del(`/api/accounts/${accountId}/invitations/${invited.body?.invitation_id}`);
    },
    action: 'invitation.revoke',
    zone: inZone,
  },
  'DELETE /api/accounts/{accountId}/users/{userId}': {
    run: () => admin().del(`/api/accounts/${accountId}/users/${ids.accountUser}`),
    action: 'user.delete',
    zone: atAccount,
  },
  'PUT /api/accounts/{accountId}/flags': {
    run: () => admin().put(`/api/accounts/${accountId}/flags`, { policy_results_page: true }),
    action: 'account.flags',
    zone: atAccount,
  },
  'PUT /api/accounts/{accountId}/zones/{zoneId}/flags': {
    run: () => admin().put(`/api/accounts/${accountId}/zones/${o}/flags`, { policy_results_page: false }),
    action: 'zone.flags',
    zone: inZone,
  },
  'PUT /api/accounts/{accountId}/zones/{zoneId}/plan': {
    run: () => admin().put(`/api/accounts/${accountId}/zones/${ids.zone3}/plan`, { plan: 'manage' }),
    action: 'zone.plan',
    zone: () => ids.zone3!,
  },
  'POST /api/servergroups': {
    run: async () => {
      const res = await admin().post(q('/api/servergroups'), { name: 'Coverage group' });
      ids.group = res.body?.id;
      return res;
    },
    action: 'group.create',
    zone: inZone,
  },
  'PUT /api/servergroups/{id}': {
    run: () => admin().put(q(`/api/servergroups/${ids.group}`), { name: 'Coverage group 2', organization_id: o }),
    action: 'group.update',
    zone: inZone,
  },
  'POST /api/servergroups/{id}/servers': {
    run: () => admin().post(q(`/api/servergroups/${ids.group}/servers`), { ids: [ids.device] }),
    action: 'device.group',
    zone: inZone,
  },
  'POST /api/servers/batch': {
    run: () => admin().post(q('/api/servers/batch'), { action: 'tag', ids: [ids.device], tags: ['audited'] }),
    action: 'device.tag',
    zone: inZone,
  },
  'PUT /api/servers/{id}': {
    run: () => admin().put(q(`/api/servers/${ids.device}`), { notes: 'checked' }),
    action: 'device.update',
    zone: inZone,
  },
  'POST /api/servers/{id}/queues': {
    run: () => admin().post(q(`/api/servers/${ids.device}/queues`), { command_type_name: 'Reboot' }),
    action: 'device.reboot',
    zone: inZone,
  },
  'POST /api/servers/imports': {
    run: () => multipart(q('/api/servers/imports'), 'hosts.csv', 'hostname\nimported-host-1\n'),
    action: 'host_import.create',
    zone: inZone,
  },
  'DELETE /api/servers/imports/{id}': {
    run: async () => {
      const list = await admin().get(q('/api/servers/imports'));
      return admin().del(q(`/api/servers/imports/${list.body.data[0].id}`));
    },
    action: 'host_import.delete',
    zone: inZone,
  },
  'POST /api/policies': {
    run: async () => {
      const res = await admin().post(q('/api/policies'), policyBody('Coverage policy'));
      ids.policy = res.body?.id;
      return res;
    },
    action: 'policy.create',
    zone: inZone,
  },
  'PUT /api/policies/{id}': {
    run: () => admin().put(q(`/api/policies/${ids.policy}`), policyBody('Coverage policy renamed')),
    action: 'policy.update',
    zone: inZone,
  },
  'POST /api/policies/{id}/action': {
    run: () => admin().post(q(`/api/policies/${ids.policy}/action`), { action: 'remediateAll' }),
    action: 'policy.remediateAll',
    zone: inZone,
  },
  'POST /api/policies/{id}/clone': {
    run: () => admin().post(q(`/api/policies/${ids.policy}/clone`), {}),
    action: 'policy.clone',
    zone: inZone,
  },
  'PUT /api/approvals/{id}': {
    run: async () => {
      const [row] = await t.db
        .insert(policyApprovals)
        .values({
          organizationId: o,
          policyId: ids.policy!,
          patchName: 'openssl',
          patchVersion: '3.0.2',
          createdAt: t.clock.now(),
        })
        .returning();
      return admin().put(q(`/api/approvals/${row!.id}`), { manual_approval: true });
    },
    action: 'approval.approved',
    zone: inZone,
  },
  'DELETE /api/policies/{id}': {
    run: () => admin().del(q(`/api/policies/${ids.policy}`)),
    action: 'policy.delete',
    zone: inZone,
  },
  'PATCH /api/orgs/{orgId}/tasks/{taskId}': {
    run: () => call(t, { cookie: z.cookie }, 'PATCH', q(`/api/orgs/${o}/tasks/${ids.task}`), { action: 'cancel' }),
    action: 'task.cancel',
    zone: inZone,
  },
  'DELETE /api/orgs/{orgId}/tasks': {
    run: () => call(t, { cookie: z.cookie }, 'DELETE', q(`/api/orgs/${o}/tasks`), { ids: [ids.task] }),
    action: 'task.delete',
    zone: inZone,
  },
  'POST /api/orgs/{orgId}/tasks/{type}/batches/upload': {
    run: () =>
      multipart(
        q(`/api/orgs/${o}/tasks/patch/batches/upload?source=generic`),
        'scan.csv',
        'Hostname,IP,CVE ID,Severity\r\naudited-1,10.0.0.1,CVE-2024-3094,Critical\r\n',
      ),
    action: 'batch.upload',
    zone: inZone,
  },
  'POST /api/orgs/{orgId}/tasks/batches/{batchId}/accept': {
    run: () => admin().post(q(`/api/orgs/${o}/tasks/batches/${ids.readyBatch}/accept`), {}),
    action: 'batch.accept',
    zone: inZone,
  },
  'POST /api/orgs/{orgId}/tasks/batches/{batchId}/reject': {
    run: () => admin().post(q(`/api/orgs/${o}/tasks/batches/${ids.rejectBatch}/reject`), {}),
    action: 'batch.reject',
    zone: inZone,
  },
  'DELETE /api/orgs/{orgId}/cve-exceptions/{exceptionId}': {
    run: () => admin().del(q(`/api/orgs/${o}/cve-exceptions/${ids.cveException}`)),
    action: 'cve_exception.revoke',
    zone: inZone,
  },
  'POST /api/orgs/{orgId}/cves/{cve}/exceptions': {
    run: () =>
      admin().post(q(`/api/orgs/${o}/cves/${strings.cve}/exceptions`), {
        kind: 'false_positive',
        reason: 'The scanner misreads the backported fix.',
      }),
    action: 'cve_exception.create',
    zone: inZone,
  },
  'PUT /api/orgs/{orgId}/remediation-deadlines': {
    run: () =>
      admin().put(q(`/api/orgs/${o}/remediation-deadlines`), { critical: 10, high: 30, medium: 90, low: null }),
    action: 'remediation_deadlines.update',
    zone: inZone,
  },
  'POST /api/reports/data-extracts': {
    run: () => admin().post(q('/api/reports/data-extracts'), { kind: 'software', preset: 'last7days' }),
    action: 'data_extract.request',
    zone: inZone,
  },
  'POST /api/policies/installers': {
    run: async () => {
      const res = await multipart(q('/api/policies/installers'), 'setup.sh', '#!/bin/sh\necho installed\n');
      strings.installer = res.body?.id;
      return res;
    },
    action: 'installer.upload',
    zone: inZone,
  },
  'DELETE /api/policies/installers/{id}': {
    run: () => admin().del(q(`/api/policies/installers/${strings.installer}`)),
    action: 'installer.delete',
    zone: inZone,
  },
  'DELETE /api/servergroups/{id}': {
    run: () => admin().del(q(`/api/servergroups/${ids.group}`)),
    action: 'group.delete',
    zone: inZone,
  },
  'DELETE /api/servers/{id}': {
    run: () => admin().del(q(`/api/servers/${ids.device2}`)),
    action: 'device.remove',
    zone: inZone,
  },
  'POST /api/users/unlock': {
    run: async () => {
      const token = randomBytes(16).toString('hex');
      await t.db
        .update(users)
        .set({
          locked: true,
          lockedUntil: new Date(t.clock.now().getTime() + 3_600_000),
          unlockTokenHash: createHash('sha256').update(token).digest('hex'),
          unlockTokenExpiresAt: new Date(t.clock.now().getTime() + 3_600_000),
        })
        .where(eq(users.id, ids.lockedUser!));
      return call(t, {}, 'POST', '/api/users/unlock', { token });
    },
    action: 'user.unlock',
    zone: atAccount,
  },
  'POST /api/signup': {
    run: () =>
      call(t, {}, 'POST', '/api/signup', {
        firstname: 'New',
        lastname: 'Customer',
        company: `Signup ${randomBytes(3).toString('hex')}`,
        email: `signup-${randomBytes(3).toString('hex')}@example.test`,
        password: TEST_PASSWORD,
        password_confirmation: TEST_PASSWORD,
        endpoints: 10,
      }),
    action: 'account.signup',
    zone: atAccount,
  },
  'POST /api/logout': {
    run: async () => call(t, { cookie: await cookieFor(t, z.user) }, 'POST', '/api/logout'),
    action: 'auth.signout',
    zone: atAccount,
  },
};

beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
  o = z.zone.id;
  accountId = z.account.id;
  ids.device = (await enrollDevice(t, z.accessKey, { hostname: 'audited-1' })).id;
  ids.device2 = (await enrollDevice(t, z.accessKey, { hostname: 'audited-2' })).id;
  ids.member = (await buildUser(t.db, { accountId, zones: { [o]: 4 } })).id;
  ids.lockedUser = (await buildUser(t.db, { accountId, zones: { [o]: 2 } })).id;
  const [task] = await t.db
    .insert(remediationTasks)
    .values({
      organizationId: o,
      kind: 'patch-now',
      title: 'Coverage task',
      patchName: 'openssl',
      cves: ['CVE-2026-0001'],
      severity: 'high',
      source: 'qualys',
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    })
    .returning();
  ids.task = task!.id;
  // Two batches awaiting approval (built elsewhere: the upload's build is asynchronous).
  const ready = () => ({
    organizationId: o,
    source: 'generic' as const,
    fileName: 'scan.csv',
    status: 'ready' as const,
    createdAt: t.clock.now(),
    updatedAt: t.clock.now(),
  });
  const [accepted, rejected] = await t.db.insert(remediationBatches).values([ready(), ready()]).returning();
  ids.readyBatch = accepted!.id;
  ids.rejectBatch = rejected!.id;
  const cve = await buildCveObjects(t, o, 'coverage');
  strings.cve = cve.cve;
  ids.cveException = cve.exceptionId;
});

afterAll(async () => {
  await t.close();
});

async function lastEventId(): Promise<number> {
  const [row] = await t.db.select({ id: sql<number>`coalesce(max(${activityLog.id}), 0)` }).from(activityLog);
  return Number(row?.id ?? 0);
}

describe('the activity log covers every mutating route', () => {
  it('writes an event with the expected action, zone and client address for each', { timeout: 120_000 }, async () => {
    const doc = t.app.swagger() as unknown as Doc;
    const mutating: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/')) continue;
      for (const method of Object.keys(methods)) {
        if (['post', 'put', 'patch', 'delete'].includes(method)) mutating.push(`${method.toUpperCase()} ${path}`);
      }
    }
    const excluded = new Set(Object.keys(ACTIVITY_EXCLUDED_ROUTES));
    const uncovered = mutating.filter((r) => !CASES[r] && !excluded.has(r));
    const stale = [...Object.keys(CASES), ...excluded].filter((r) => !mutating.includes(r));
    expect(uncovered, 'mutating routes without an activity test or a documented exclusion').toEqual([]);
    expect(stale, 'cases or exclusions naming routes that no longer exist').toEqual([]);

    const failures: string[] = [];
    for (const [route, c] of Object.entries(CASES)) {
      const before = await lastEventId();
      const answer = await c.run();
      if (answer.status >= 300) {
        failures.push(`${route} → ${answer.status} ${answer.text.slice(0, 200)}`);
        continue;
      }
      const events = await t.db.select().from(activityLog).where(gt(activityLog.id, before));
      const event = events.find((e) => e.action === c.action);
      if (!event) {
        failures.push(`${route}: no ${c.action} event (got ${events.map((e) => e.action).join(', ') || 'none'})`);
        continue;
      }
      const zone = c.zone();
      if (event.organizationId !== zone) failures.push(`${route}: zone ${event.organizationId}, expected ${zone}`);
      if (zone === null && event.accountId === null) failures.push(`${route}: an account-level event without account`);
      if (!event.clientAddress || !/127\.0\.0\.1|::1/.test(event.clientAddress)) {
        failures.push(`${route}: client address ${event.clientAddress}`);
      }
    }
    expect(failures).toEqual([]);
    // eslint-disable-next-line no-console -- the issue's figure: routes covered and excluded
    console.log(
      `activity coverage: ${mutating.length} mutating routes, ${Object.keys(CASES).length} write events, ` +
        `${excluded.size} excluded (${[...excluded].join(', ')})`,
    );
  });
});

describe('events cannot be changed through the API', () => {
  it('answers 404 or 405 to PUT, PATCH and DELETE on /api/events and /api/events/{id}', async () => {
    const client = clientFor(t, { cookie: z.cookie });
    const [event] = await t.db.select().from(activityLog).limit(1);
    for (const path of ['/api/events', `/api/events/${event?.id ?? 1}`, '/api/events/csv']) {
      for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
        const answer = await call(t, { cookie: z.cookie }, method, q(path), method === 'DELETE' ? undefined : {});
        expect([404, 405], `${method} ${path}`).toContain(answer.status);
      }
    }
    // And the event is still there, unchanged.
    const [again] = await t.db.select().from(activityLog).where(eq(activityLog.id, event!.id));
    expect(again).toEqual(event);
    expect((await client.get(q('/api/events'))).status).toBe(200);
  });
});
