import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMAIN_TEXTS } from '@patchwell/core/sso/domains.schema';
import { TEXTS } from '@patchwell/core/texts';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { buildAccountWithUser, buildUser } from '../../test/factories';

/**
 * Issue 13, Domains: a global administrator adds a domain, creates the TXT record it shows,
 * and Verify asks DNS (a loopback dns2 server) for it: found → verified; missing, NXDOMAIN,
 * SERVFAIL or no answer → still pending with a message, never a 5xx.
 */

let t: TestApp;
let dns: TestDns;
let world: Awaited<ReturnType<typeof buildAccountWithUser>>;
let admin: ReturnType<typeof clientFor>;
let zoneAdmin: ReturnType<typeof clientFor>;
let other: Awaited<ReturnType<typeof buildAccountWithUser>>;
let otherAdmin: ReturnType<typeof clientFor>;

beforeAll(async () => {
  dns = await startTestDns();
  // A short DNS timeout keeps the "no answer" case quick; the resolver tries twice.
  t = await startTestApp({ env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '200' } });
  world = await buildAccountWithUser(t.db);
  admin = clientFor(t, { cookie: await cookieFor(t, world.user) });
  const zoneOnly = await buildUser(t.db, { accountId: world.account.id, zones: { [world.zone.id]: 1 } });
  zoneAdmin = clientFor(t, { cookie: await cookieFor(t, zoneOnly) });
  other = await buildAccountWithUser(t.db);
  otherAdmin = clientFor(t, { cookie: await cookieFor(t, other.user) });
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

const base = (accountId = world.account.id) => `/api/accounts/${accountId}/domains`;
let serial = 0;
const fresh = () => `d${++serial}-${Date.now().toString(36)}.example`;

async function add(name: string, client = admin, accountId = world.account.id) {
  return client.post(base(accountId), { name });
}

describe('POST /api/accounts/{accountId}/domains', () => {
  it('adds a domain pending, lower-cased without the trailing dot, with its TXT record', async () => {
    const name = fresh();
    const res = await add(`  ${name.toUpperCase()}. `);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, status: 'pending', connection: null, verified_at: null });
    expect(res.body.verification_record).toEqual({
      type: 'TXT',
      host: name,
      value: expect.stringMatching(/^patchwell-verification=[0-9a-f]{32}$/),
    });
    const list = await admin.get(base());
    expect(list.body.data.map((d: { name: string }) => d.name)).toContain(name);
  });

  it('refuses an invalid domain with the spec’s text', async () => {
    for (const name of ['localhost', 'not a domain', '-bad.example', '10.0.0.1', 'a..b.example', '']) {
      const res = await add(name);
      expect(res.status, name).toBe(400);
      expect(res.body.errors.name, name).toEqual([TEXTS.validation.domain]);
    }
  });

  it('refuses a domain the account has already', async () => {
    const name = fresh();
    expect((await add(name)).status).toBe(201);
    const again = await add(name.toUpperCase());
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(DOMAIN_TEXTS.inUseForAccount);
  });

  it('refuses a domain another account verified, but not one it only added', async () => {
    const name = fresh();
    const theirs = await add(name, otherAdmin, other.account.id);
    expect(theirs.status).toBe(201);
    // Pending elsewhere: anyone may add it and race to prove it.
    const mine = await add(name);
    expect(mine.status).toBe(201);
    await admin.del(`${base()}/${mine.body.id}`);

    dns.records.set(name, [[theirs.body.verification_record.value]]);
    const verified = await otherAdmin.post(`${base(other.account.id)}/${theirs.body.id}/verify`);
    expect(verified.body.verified).toBe(true);
    const refused = await add(name);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(DOMAIN_TEXTS.inUseByOtherAccount);
  });
});

describe('POST /api/accounts/{accountId}/domains/{domainId}/verify', () => {
  it('verifies a domain whose TXT record DNS answers', async () => {
    const name = fresh();
    const created = (await add(name)).body;
    // Another TXT record beside ours, and ours split into two strings as long records are.
    const value: string = created.verification_record.value;
    dns.records.set(name, [['v=spf1 -all'], [value.slice(0, 10), value.slice(10)]]);
    const res = await admin.post(`${base()}/${created.id}/verify`);
    expect(res.status).toBe(200);
    expect(res.body.verified).toBe(true);
    expect(res.body.message).toBe(DOMAIN_TEXTS.verified);
    expect(res.body.domain).toMatchObject({ status: 'verified', verified_at: t.clock.now().toISOString() });
    expect(dns.asked).toContain(name);
  });

  it('leaves the domain pending when the record has another token', async () => {
    const name = fresh();
    const created = (await add(name)).body;
    dns.records.set(name, [['patchwell-verification=0123456789abcdef0123456789abcdef']]);
    const res = await admin.post(`${base()}/${created.id}/verify`);
    expect(res.status).toBe(200);
    expect(res.body.verified).toBe(false);
    expect(res.body.message).toBe(DOMAIN_TEXTS.notFoundYet(created.verification_record.value));
    expect(res.body.domain).toMatchObject({ status: 'pending', last_checked_at: t.clock.now().toISOString() });
  });

  it('leaves the domain pending on NXDOMAIN, then verifies once the record appears', async () => {
    const name = fresh();
    const created = (await add(name)).body;
    const first = await admin.post(`${base()}/${created.id}/verify`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ verified: false, domain: { status: 'pending' } });
    expect(first.body.message).toContain('was not found');

    dns.records.set(name, [[created.verification_record.value]]);
    const second = await admin.post(`${base()}/${created.id}/verify`);
    expect(second.body).toMatchObject({ verified: true, domain: { status: 'verified' } });
  });

  it('answers 200 with a message when DNS fails or does not answer', async () => {
    const failing = fresh();
    dns.failing.add(failing);
    const a = (await add(failing)).body;
    const servfail = await admin.post(`${base()}/${a.id}/verify`);
    expect(servfail.status).toBe(200);
    expect(servfail.body).toMatchObject({ verified: false, domain: { status: 'pending' } });
    expect(servfail.body.message).toBe(DOMAIN_TEXTS.dnsFailed('the DNS server failed'));

    const silent = fresh();
    dns.silent.add(silent);
    const b = (await add(silent)).body;
    const timeout = await admin.post(`${base()}/${b.id}/verify`);
    expect(timeout.status).toBe(200);
    expect(timeout.body.verified).toBe(false);
    expect(timeout.body.message).toBe(DOMAIN_TEXTS.dnsFailed('no answer in time'));
  });

  it('refuses to verify a domain another account verified first', async () => {
    const name = fresh();
    const mine = (await add(name)).body;
    const theirs = (await add(name, otherAdmin, other.account.id)).body;
    dns.records.set(name, [[theirs.verification_record.value], [mine.verification_record.value]]);
    expect((await otherAdmin.post(`${base(other.account.id)}/${theirs.id}/verify`)).body.verified).toBe(true);
    const res = await admin.post(`${base()}/${mine.id}/verify`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(DOMAIN_TEXTS.inUseByOtherAccount);
    const list = (await admin.get(base())).body.data;
    expect(list.find((d: { id: string }) => d.id === mine.id).status).toBe('pending');
  });
});

describe('DELETE /api/accounts/{accountId}/domains/{domainId}', () => {
  it('deletes the domain and logs it', async () => {
    const created = (await add(fresh())).body;
    expect((await admin.del(`${base()}/${created.id}`)).status).toBe(204);
    expect((await admin.get(base())).body.data.some((d: { id: string }) => d.id === created.id)).toBe(false);
    const events = await admin.get(`/api/events?o=${world.zone.id}&action=domain`);
    const actions = events.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['domain.create', 'domain.delete', 'domain.verify']));
  });
});

describe('who may see and change domains', () => {
  it('answers 404 for another account and its domains', async () => {
    const theirs = (await add(fresh(), otherAdmin, other.account.id)).body;
    expect((await admin.get(base(other.account.id))).status).toBe(404);
    expect((await admin.post(base(other.account.id), { name: fresh() })).status).toBe(404);
    expect((await admin.post(`${base()}/${theirs.id}/verify`)).status).toBe(404);
    expect((await admin.del(`${base()}/${theirs.id}`)).status).toBe(404);
  });

  it('answers 403 to a zone administrator who is not a global administrator', async () => {
    expect((await zoneAdmin.get(base())).status).toBe(403);
    expect((await zoneAdmin.post(base(), { name: fresh() })).status).toBe(403);
  });
});
