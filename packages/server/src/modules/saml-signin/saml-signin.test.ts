import { inflateRawSync } from 'node:zlib';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLog } from '../../db/activity.schema';
import { samlRequests, samlUserLinks } from '../../db/sso.schema';
import { organizations, users, userZoneRoles } from '../../db/schema';
import { bodyOf, sessionCookieOf, startTestApp, type TestApp } from '../../test/app';
import { buildAccount, buildUser, buildZone } from '../../test/factories';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { createSamlConnection, samlSetup, verifyDomain, type SamlConnection } from '../../test/saml-setup';
import { IDP_ENTITY_ID, IDP_SSO_URL, samlHarness } from '../../test/saml-harness';
import { authnRequestIdOf, b64, makeKeyPair, type KeyPair } from '../../test/saml-idp';
import { SAML_REFUSED_LOCATION } from './saml-acs.service';
import { ISSAML_RATE_LIMIT } from './saml-signin.service';

let t: TestApp;
let dns: TestDns;
let idp: KeyPair;
const h = samlHarness(
  () => t,
  () => idp,
);
type Conn = SamlConnection;
let accountId: number;
let zoneA: number;
let zoneB: number;
let rbac: Conn;
let invite: Conn;

beforeAll(async () => {
  dns = await startTestDns();
  t = await startTestApp({ env: { DNS_SERVERS: dns.server } });
  idp = makeKeyPair();
  accountId = (await buildAccount(t.db)).id;
  zoneA = (await buildZone(t.db, { accountId, name: 'Alpha' })).id;
  zoneB = (await buildZone(t.db, { accountId, name: 'Beta' })).id;
  // Set up through the API: pending.example is named by the connection but never verified.
  const setup = await samlSetup(t, dns, accountId);
  rbac = await createSamlConnection(setup, {
    idpEntityId: IDP_ENTITY_ID,
    idpSsoUrl: `${IDP_SSO_URL}?tenant=acme`,
    certificates: [makeKeyPair('old.idp').certificate, idp.certificate],
    zoneRoles: { [zoneA]: 4, [zoneB]: 2 },
    domains: ['corp.example', 'pending.example'],
  });
  invite = await createSamlConnection(setup, {
    provisionType: 'invite',
    idpEntityId: IDP_ENTITY_ID,
    idpSsoUrl: IDP_SSO_URL,
    certificates: [idp.certificate],
    domains: ['invited.example'],
  });
  await verifyDomain(setup, 'corp.example');
  await verifyDomain(setup, 'invited.example');
});

afterAll(async () => {
  await t?.close();
  await dns?.close();
});

const rolesOf = (userId: number) =>
  t.db
    .select({ zone: userZoneRoles.organizationId, role: userZoneRoles.roleId })
    .from(userZoneRoles)
    .where(eq(userZoneRoles.userId, userId));

async function signInThrough(c: Conn, email: string, query = '', sign: 'assertion' | 'response' = 'assertion') {
  const built = h.build(c, await h.begin(c, query), email);
  return h.post(c, b64(h.sign(built, sign)));
}

describe('GET /api/user/issaml', () => {
  it('sends an address of a verified, connected domain to its connection', async () => {
    const res = await t.request(`/api/user/issaml?email=${encodeURIComponent('Ann@Corp.Example')}&o=${zoneA}`);
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ saml: true, redirect: `/api/saml/${rbac.uuid}/login?o=${zoneA}` });
  });

  it('answers the same shape for unknown and pending domains', async () => {
    for (const email of ['ann@nowhere.example', 'ann@pending.example', 'not-an-address']) {
      const res = await t.request(`/api/user/issaml?email=${encodeURIComponent(email)}`);
      expect(await bodyOf(res)).toEqual({ saml: false, redirect: null });
    }
  });

  it('is rate limited per client address', async () => {
    const other = await startTestApp({ clock: t.clock });
    try {
      let status = 200;
      for (let i = 0; i <= ISSAML_RATE_LIMIT.limit && status === 200; i++) {
        status = (await other.request('/api/user/issaml?email=a%40b.example')).status;
      }
      expect(status).toBe(429);
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/saml/{uuid}/login', () => {
  it('redirects to the IdP with a deflated AuthnRequest it records', async () => {
    const res = await t.request(`/api/saml/${rbac.uuid}/login?redirect=%2Fdevices&o=${zoneB}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(IDP_SSO_URL);
    expect(location.searchParams.get('tenant')).toBe('acme');
    const xml = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    expect(xml).toContain(`AssertionConsumerServiceURL="${h.acsUrl(rbac)}"`);
    expect(xml).toContain(`<saml:Issuer>${h.spEntityId(rbac)}</saml:Issuer>`);
    const id = authnRequestIdOf(location.toString());
    expect(id).toMatch(/^_[0-9a-f]{40}$/);
    const [row] = await t.db.select().from(samlRequests).where(eq(samlRequests.id, id));
    expect(row).toMatchObject({
      connectionId: rbac.id,
      redirectPath: '/devices',
      organizationId: zoneB,
      consumedAt: null,
    });
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(10 * 60_000);
  });

  it('drops a redirect that is not a console path', async () => {
    const res = await t.request(
      `/api/saml/${rbac.uuid}/login?redirect=${encodeURIComponent('https://evil.example/')}`,
      {
        redirect: 'manual',
      },
    );
    const [row] = await t.db
      .select()
      .from(samlRequests)
      .where(eq(samlRequests.id, authnRequestIdOf(res.headers.get('location')!)));
    expect(row!.redirectPath).toBeNull();
  });

  it('answers 404 for an unknown connection', async () => {
    const res = await t.request('/api/saml/00000000-0000-4000-8000-000000000000/login', { redirect: 'manual' });
    expect(res.status).toBe(404);
  });
});

describe('POST /api/saml/{uuid}/acs', () => {
  it('provisions a zone_rbac user with the mapped roles and signs them in', async () => {
    const res = await signInThrough(rbac, 'Ann@corp.example', `?redirect=%2Fdevices&o=${zoneB}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/console/devices');
    const cookie = sessionCookieOf(res);
    const profile = await bodyOf(await t.request(`/api/users/self?o=${zoneA}`, { headers: { cookie } }));
    expect(profile).toMatchObject({
      email: 'ann@corp.example',
      firstname: 'Alice',
      saml_enabled: true,
      rbac_role: 'Zone Operator',
    });
    const [user] = await t.db.select().from(users).where(eq(users.email, 'ann@corp.example'));
    expect(user).toMatchObject({ status: 'active', emailVerified: true, passwordHash: null, accountId });
    expect(await rolesOf(user!.id)).toEqual(
      expect.arrayContaining([
        { zone: zoneA, role: 4 },
        { zone: zoneB, role: 2 },
      ]),
    );
    const [link] = await t.db.select().from(samlUserLinks).where(eq(samlUserLinks.userId, user!.id));
    expect(link).toMatchObject({ connectionId: rbac.id, nameId: 'ann@corp.example', provisioned: true });
    const events = await t.db
      .select({ action: activityLog.action, details: activityLog.details })
      .from(activityLog)
      .where(
        and(
          eq(activityLog.accountId, accountId),
          eq(activityLog.objectType, 'user'),
          eq(activityLog.objectId, String(user!.id)),
        ),
      )
      .orderBy(desc(activityLog.id));
    expect(events.map((e) => e.action)).toEqual(['auth.signin', 'users.saml_provisioned']);
    expect(events[0]!.details).toMatchObject({ method: 'saml', connection: rbac.name });
  });

  it('tells the profile how to sign in again to a zone that requires SAML', async () => {
    await t.db
      .update(organizations)
      .set({ saml: { enabled: true, redirect: null } })
      .where(eq(organizations.id, zoneA));
    try {
      const cookie = sessionCookieOf(await signInThrough(rbac, 'hal@corp.example'));
      const profile = await bodyOf(await t.request('/api/users/self', { headers: { cookie } }));
      const org = (id: number) => profile.orgs.find((z: { id: number }) => z.id === id);
      expect(org(zoneA).saml).toEqual({ enabled: true, redirect: `/api/saml/${rbac.uuid}/login?o=${zoneA}` });
      expect(org(zoneB).saml).toEqual({ enabled: false, redirect: null });
    } finally {
      await t.db
        .update(organizations)
        .set({ saml: { enabled: false, redirect: null } })
        .where(eq(organizations.id, zoneA));
    }
  });

  it('accepts a response signed at the response level only, and goes to the dashboard of the zone asked for', async () => {
    const res = await signInThrough(rbac, 'ben@corp.example', `?o=${zoneA}`, 'response');
    expect(res.headers.get('location')).toBe(`/console/dashboard?o=${zoneA}`);
    expect(sessionCookieOf(res)).not.toBe('');
  });

  it('brings an existing user’s roles back to the mapping on each sign-in', async () => {
    const user = await buildUser(t.db, { accountId, email: 'cid@corp.example', zones: { [zoneA]: 1 } });
    const res = await signInThrough(rbac, 'cid@corp.example');
    expect(sessionCookieOf(res)).not.toBe('');
    expect(await rolesOf(user.id)).toEqual(
      expect.arrayContaining([
        { zone: zoneA, role: 4 },
        { zone: zoneB, role: 2 },
      ]),
    );
    // The password still works too: SAML adds a way in, it does not remove one.
    expect((await t.signIn('cid@corp.example', user.password)).res.status).toBe(200);
  });

  it('gives a connection’s default role in every zone when it has no zone pairs', async () => {
    const account = (await buildAccount(t.db)).id;
    const zones = [
      (await buildZone(t.db, { accountId: account })).id,
      (await buildZone(t.db, { accountId: account })).id,
    ];
    const setup = await samlSetup(t, dns, account);
    const c = await createSamlConnection(setup, {
      idpEntityId: IDP_ENTITY_ID,
      idpSsoUrl: IDP_SSO_URL,
      certificates: [idp.certificate],
      defaultRoleId: 3,
      domains: ['default-role.example'],
    });
    await verifyDomain(setup, 'default-role.example');
    expect(sessionCookieOf(await signInThrough(c, 'dee@default-role.example'))).not.toBe('');
    const [user] = await t.db.select().from(users).where(eq(users.email, 'dee@default-role.example'));
    expect((await rolesOf(user!.id)).sort((a, b) => a.zone - b.zone)).toEqual(zones.map((zone) => ({ zone, role: 3 })));
  });

  it('invite: admits an invited user and makes them active', async () => {
    const user = await buildUser(t.db, {
      accountId,
      email: 'eve@invited.example',
      status: 'pending-invite',
      zones: { [zoneA]: 2 },
    });
    const res = await signInThrough(invite, 'eve@invited.example');
    expect(sessionCookieOf(res)).not.toBe('');
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ status: 'active', samlEnabled: true });
    expect(await rolesOf(user.id)).toEqual([{ zone: zoneA, role: 2 }]);
  });

  it('invite: refuses an address with no user', async () => {
    const res = await signInThrough(invite, 'nobody@invited.example');
    expect(res.headers.get('location')).toBe(SAML_REFUSED_LOCATION);
    expect(await h.lastRefusalReason(accountId)).toMatch(/no invited user/);
    expect(await t.db.select().from(users).where(eq(users.email, 'nobody@invited.example'))).toEqual([]);
  });

  it('refuses a disabled user', async () => {
    await buildUser(t.db, { accountId, email: 'fay@corp.example', status: 'disabled' });
    const res = await signInThrough(rbac, 'fay@corp.example');
    expect(res.headers.get('location')).toBe(SAML_REFUSED_LOCATION);
    expect(await h.lastRefusalReason(accountId)).toMatch(/disabled/);
  });

  it('ends the session the browser brought', async () => {
    const first = sessionCookieOf(await signInThrough(rbac, 'gus@corp.example'));
    const built = h.build(rbac, await h.begin(rbac), 'gus@corp.example');
    const second = await h.post(rbac, b64(h.sign(built, 'assertion')), first);
    expect(sessionCookieOf(second)).not.toBe('');
    expect((await t.request('/api/users/is-authenticated', { headers: { cookie: first } })).status).toBe(401);
    const cookie = sessionCookieOf(second);
    expect((await t.request('/api/users/is-authenticated', { headers: { cookie } })).status).toBe(200);
  });

  it('refuses a response for an unknown connection with the same redirect', async () => {
    const res = await t.request('/api/saml/00000000-0000-4000-8000-000000000000/acs', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'SAMLResponse=PHg%2BPC94Pg%3D%3D',
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(SAML_REFUSED_LOCATION);
  });

  it('answers 400 without a SAMLResponse', async () => {
    const res = await t.request(`/api/saml/${rbac.uuid}/acs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'RelayState=x',
    });
    expect(res.status).toBe(400);
  });
});

/**
 * Leaving the plan (core/rules/entitlements.ts: single sign-on is Complete's): the connection
 * stays configured but unused. The address check sends the user to the password form, the
 * sign-in start is refused with 'Feature Unavailable', a response the IdP sends anyway is
 * refused with its reason logged, and a zone's "require SSO" no longer sends users away.
 */
describe('an account below the Complete plan', () => {
  const setPlan = (plan: 'manage' | 'tier3') =>
    t.db.update(organizations).set({ plan, trialEndTime: null }).where(eq(organizations.accountId, accountId));

  it('keeps its connection unused until it upgrades again', async () => {
    const started = await h.begin(rbac);
    await t.db
      .update(organizations)
      .set({ saml: { enabled: true, redirect: null } })
      .where(eq(organizations.id, zoneA));
    await setPlan('manage');
    try {
      const asked = await t.request(`/api/user/issaml?email=ann%40corp.example&o=${zoneA}`);
      expect(await bodyOf(asked)).toEqual({ saml: false, redirect: null });

      const login = await t.request(`/api/saml/${rbac.uuid}/login`, { redirect: 'manual' });
      expect(login.status).toBe(403);
      expect((await bodyOf(login)).message).toMatch(/^Feature Unavailable: Single sign-on needs the Complete plan/);

      const res = await h.post(rbac, b64(h.sign(h.build(rbac, started, 'ivy@corp.example'), 'assertion')));
      expect(res.headers.get('location')).toBe(SAML_REFUSED_LOCATION);
      expect(sessionCookieOf(res)).toBe('');
      expect(await h.lastRefusalReason(accountId)).toMatch(/plan no longer includes single sign-on/);
      expect(await t.db.select().from(users).where(eq(users.email, 'ivy@corp.example'))).toEqual([]);

      const jo = await buildUser(t.db, { accountId, email: 'jo@corp.example', zones: { [zoneA]: 2 } });
      const { cookie } = await t.signIn(jo.email, jo.password);
      const profile = await bodyOf(await t.request(`/api/users/self?o=${zoneA}`, { headers: { cookie } }));
      expect(profile.orgs.find((z: { id: number }) => z.id === zoneA).saml).toEqual({ enabled: false, redirect: null });
    } finally {
      await setPlan('tier3');
    }
    // Back on Complete, the same connection signs users in again.
    expect(sessionCookieOf(await signInThrough(rbac, 'ivy@corp.example'))).not.toBe('');
    await t.db
      .update(organizations)
      .set({ saml: { enabled: false, redirect: null } })
      .where(eq(organizations.id, zoneA));
  });
});
