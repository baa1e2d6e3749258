import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_TEXTS } from '@patchwell/core/sso/connections.schema';
import { DOMAIN_TEXTS } from '@patchwell/core/sso/domains.schema';
import { TEXTS } from '@patchwell/core/texts';
import { accountDomains } from '../../db/sso.schema';
import { startTestApp, type TestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildAccountWithUser, buildUser, buildZone } from '../../test/factories';
import { idpMetadata, makeCertificate } from '../../test/idp-fixtures';

/**
 * Issue 13, SAML connections: a global administrator describes an IdP by its metadata or by
 * certificate + sign-in URL + entity ID, names the e-mail domains (moving them from other
 * connections, never taking another account's verified one) and the roles; Patchwell
 * publishes its SP metadata per connection.
 */

let t: TestApp;
let world: Awaited<ReturnType<typeof buildAccountWithUser>>;
let admin: ReturnType<typeof clientFor>;
let zoneAdmin: ReturnType<typeof clientFor>;
let readOnly: ReturnType<typeof clientFor>;
let other: Awaited<ReturnType<typeof buildAccountWithUser>>;
let otherAdmin: ReturnType<typeof clientFor>;
let certA: string;
let certB: string;
let certEncryption: string;

beforeAll(async () => {
  t = await startTestApp();
  world = await buildAccountWithUser(t.db);
  admin = clientFor(t, { cookie: await cookieFor(t, world.user) });
  const zoneOnly = await buildUser(t.db, { accountId: world.account.id, zones: { [world.zone.id]: 1 } });
  zoneAdmin = clientFor(t, { cookie: await cookieFor(t, zoneOnly) });
  const reader = await buildUser(t.db, { accountId: world.account.id, zones: { [world.zone.id]: 2 } });
  readOnly = clientFor(t, { cookie: await cookieFor(t, reader) });
  other = await buildAccountWithUser(t.db);
  otherAdmin = clientFor(t, { cookie: await cookieFor(t, other.user) });
  certA = makeCertificate('idp-a.patchwell.test');
  certB = makeCertificate('idp-b.patchwell.test');
  certEncryption = makeCertificate('enc.patchwell.test');
});
afterAll(async () => {
  await t.close();
});

const base = (accountId = world.account.id) => `/api/accounts/${accountId}/connections`;
let serial = 0;
const fresh = () => `c${++serial}-${Date.now().toString(36)}.example`;

const byFields = (overrides: Record<string, unknown> = {}) => ({
  name: `Okta ${++serial}`,
  provision_type: 'invite',
  domains: [fresh()],
  certificate: certA,
  sso_url: 'https://idp.example.test/sso',
  entity_id: 'https://idp.example.test/entity',
  ...overrides,
});

const byMetadata = (xml: string, overrides: Record<string, unknown> = {}) => ({
  name: `Azure ${++serial}`,
  provision_type: 'zone_rbac',
  domains: [fresh()],
  metadata_xml: xml,
  default_role_id: 2,
  ...overrides,
});

const goodMetadata = () =>
  idpMetadata({
    entityId: 'https://sts.example.test/tenant/',
    ssoUrl: 'https://login.example.test/saml2',
    certificates: [certA, certB],
    encryption: certEncryption,
  });

describe('POST /api/accounts/{accountId}/connections', () => {
  it('creates a connection from IdP metadata: entity ID, redirect sign-in URL, signing certificates', async () => {
    const body = byMetadata(goodMetadata());
    const res = await admin.post(base(), body);
    expect(res.status).toBe(201);
    const c = res.body;
    expect(c).toMatchObject({
      name: body.name,
      provision_type: 'zone_rbac',
      default_role_id: 2,
      metadata_xml: body.metadata_xml.trim(),
      idp: { entity_id: 'https://sts.example.test/tenant/', sso_url: 'https://login.example.test/saml2' },
      domains: [{ name: body.domains[0], status: 'pending' }],
    });
    // Signing keys only: the encryption key is not one the IdP signs with.
    expect(c.idp.certificates.map((x: { fingerprint_sha256: string }) => x.fingerprint_sha256)).toEqual([
      new X509Certificate(certA).fingerprint256,
      new X509Certificate(certB).fingerprint256,
    ]);
    expect(c.idp.certificates[0].subject).toBe('CN=idp-a.patchwell.test');
    expect(c.sp).toEqual({
      entity_id: `${t.url}/api/saml/${c.id}/metadata`,
      metadata_url: `${t.url}/api/saml/${c.id}/metadata`,
      acs_url: `${t.url}/api/saml/${c.id}/acs`,
    });
    expect((await admin.get(`${base()}/${c.id}`)).body).toEqual(c);
    expect((await admin.get(base())).body.data.map((x: { id: string }) => x.id)).toContain(c.id);
    // The domain is the account's now, pending, on this connection.
    const domains = (await admin.get(`/api/accounts/${world.account.id}/domains`)).body.data;
    expect(domains.find((d: { name: string }) => d.name === body.domains[0]).connection).toEqual({
      id: c.id,
      name: body.name,
    });
  });

  it('creates a connection from certificate, sign-in URL and entity ID', async () => {
    const res = await admin.post(base(), byFields({ sso_url: 'http://127.0.0.1:18090/saml2/idp/SSOService.php' }));
    expect(res.status).toBe(201);
    expect(res.body.metadata_xml).toBeNull();
    expect(res.body.idp.sso_url).toBe('http://127.0.0.1:18090/saml2/idp/SSOService.php');
    expect(res.body.idp.certificates).toHaveLength(1);
    expect(res.body.idp.certificates[0].pem).toBe(new X509Certificate(certA).toString());
  });

  it('refuses a certificate that is not one, a sign-in URL that is not https, and missing fields', async () => {
    const notPem = await admin.post(base(), byFields({ certificate: 'MIIB not a certificate' }));
    expect(notPem.status).toBe(400);
    expect(notPem.body.errors.certificate).toEqual([CONNECTION_TEXTS.certificateInvalid]);

    const broken = await admin.post(
      base(),
      byFields({ certificate: certA.replace(/[A-Za-z]{8}\n/, 'AAAAAAAA\n').replace(/\n[A-Z]/, '\n*') }),
    );
    expect(broken.status).toBe(400);
    expect(broken.body.errors.certificate).toEqual([CONNECTION_TEXTS.certificateInvalid]);

    const two = await admin.post(base(), byFields({ certificate: `${certA}\n${certB}` }));
    expect(two.body.errors.certificate).toEqual([CONNECTION_TEXTS.certificateInvalid]);

    const http = await admin.post(base(), byFields({ sso_url: 'http://idp.example.test/sso' }));
    expect(http.status).toBe(400);
    expect(http.body.errors.sso_url).toEqual([CONNECTION_TEXTS.urlInvalid]);

    const missing = await admin.post(base(), byFields({ entity_id: '  ' }));
    expect(missing.status).toBe(400);
    expect(missing.body.errors.entity_id).toEqual([TEXTS.validation.required]);

    const none = await admin.post(base(), byFields({ certificate: null, sso_url: null, entity_id: null }));
    expect(none.body.errors.metadata_xml).toEqual([CONNECTION_TEXTS.idpRequired]);
  });

  it('refuses malformed metadata, a DTD or entities, and metadata without what sign-in needs', async () => {
    const cases: [string, RegExp][] = [
      ['<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"', /not well-formed/],
      ['not xml at all', /not well-formed|not SAML/],
      [
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>' +
          goodMetadata().replace('<?xml version="1.0"?>', ''),
        /DOCTYPE/,
      ],
      ['<?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><x/>', /DOCTYPE/],
      ['<root xmlns="urn:other"/>', /not SAML 2.0 metadata/],
      [goodMetadata().replace(/IDPSSODescriptor/g, 'SPSSODescriptor'), /no identity provider/],
      [goodMetadata().replace(/ entityID="[^"]*"/, ''), /no entityID/],
      [goodMetadata().replace('bindings:HTTP-Redirect', 'bindings:HTTP-Artifact'), /HTTP-Redirect/],
      [goodMetadata().replace(/use="signing"/g, 'use="encryption"'), /no signing certificate/],
      [goodMetadata().replace(/<ds:X509Certificate>\s*MII/, '<ds:X509Certificate>!!'), /not a valid certificate/],
      [idpMetadata({ entityId: 'x', ssoUrl: 'http://idp.example.test/sso', certificates: [certA] }), /not usable/],
    ];
    for (const [xml, problem] of cases) {
      const res = await admin.post(base(), byMetadata(xml));
      expect(res.status, xml.slice(0, 80)).toBe(400);
      expect(res.body.errors.metadata_xml[0], xml.slice(0, 80)).toMatch(problem);
    }
    const huge = await admin.post(base(), byMetadata(goodMetadata() + `<!-- ${'x'.repeat(300 * 1024)} -->`));
    expect(huge.status).toBe(400);
  });

  it('needs at least one valid domain, and a role for zone_rbac', async () => {
    const none = await admin.post(base(), byFields({ domains: [] }));
    expect(none.status).toBe(400);
    expect(none.body.errors.domains).toEqual([TEXTS.validation.atLeastOne]);
    const bad = await admin.post(base(), byFields({ domains: ['not a domain'] }));
    expect(bad.body.errors['domains.0']).toEqual([TEXTS.validation.domain]);
    const noName = await admin.post(base(), byFields({ name: ' ' }));
    expect(noName.body.errors.name).toEqual([TEXTS.validation.required]);
    const noRole = await admin.post(base(), byFields({ provision_type: 'zone_rbac' }));
    expect(noRole.body.errors.default_role_id).toEqual([CONNECTION_TEXTS.roleRequired]);
  });

  it('takes zone-and-role pairs of the account’s zones only', async () => {
    const second = await buildZone(t.db, { accountId: world.account.id, name: `Branch ${++serial}` });
    const ok = await admin.post(
      base(),
      byFields({ provision_type: 'zone_rbac', zone_roles: [{ zone_id: second.id, role_id: 5 }] }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body.zone_roles).toEqual([{ zone_id: second.id, zone_name: second.name, role_id: 5 }]);

    const foreign = await admin.post(
      base(),
      byFields({ provision_type: 'zone_rbac', zone_roles: [{ zone_id: other.zone.id, role_id: 1 }] }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors['zone_roles.0.zone_id']).toEqual([CONNECTION_TEXTS.zoneUnknown]);
    const twice = await admin.post(
      base(),
      byFields({
        provision_type: 'zone_rbac',
        zone_roles: [
          { zone_id: second.id, role_id: 1 },
          { zone_id: second.id, role_id: 2 },
        ],
      }),
    );
    expect(twice.body.errors.zone_roles).toEqual([CONNECTION_TEXTS.zoneRepeated]);
  });
});

describe('domains of connections', () => {
  it('moves a domain from another connection of the account on save', async () => {
    const shared = fresh();
    const a = (await admin.post(base(), byFields({ domains: [shared, fresh()] }))).body;
    const b = (await admin.post(base(), byFields({ domains: [shared.toUpperCase()] }))).body;
    expect(b.domains.map((d: { name: string }) => d.name)).toEqual([shared]);
    const aAfter = (await admin.get(`${base()}/${a.id}`)).body;
    expect(aAfter.domains.map((d: { name: string }) => d.name)).not.toContain(shared);
    expect(aAfter.domains).toHaveLength(1);
    const events = (await admin.get(`/api/events?o=${world.zone.id}&action=saml_connection.create`)).body.data;
    const created = events.find((e: { object_name?: string; details?: unknown }) => JSON.stringify(e).includes(b.name));
    expect(JSON.stringify(created)).toContain(a.name);
  });

  it('refuses a domain another account verified, and writes nothing', async () => {
    const taken = fresh();
    await t.db.insert(accountDomains).values({
      accountId: other.account.id,
      name: taken,
      status: 'verified',
      verificationToken: 'f'.repeat(32),
      createdAt: t.clock.now(),
      verifiedAt: t.clock.now(),
    });
    const before = (await admin.get(base())).body.size;
    const res = await admin.post(base(), byFields({ domains: [fresh(), taken] }));
    expect(res.status).toBe(400);
    expect(res.body.errors.domains[0]).toContain(DOMAIN_TEXTS.inUseByOtherAccount);
    expect((await admin.get(base())).body.size).toBe(before);
  });

  it('keeps a domain another account only added (pending)', async () => {
    const pending = fresh();
    expect((await otherAdmin.post(`/api/accounts/${other.account.id}/domains`, { name: pending })).status).toBe(201);
    expect((await admin.post(base(), byFields({ domains: [pending] }))).status).toBe(201);
  });
});

describe('PUT and DELETE /api/accounts/{accountId}/connections/{connectionId}', () => {
  it('replaces the connection, releasing domains it no longer names', async () => {
    const [d1, d2, d3] = [fresh(), fresh(), fresh()];
    const c = (await admin.post(base(), byFields({ domains: [d1, d2] }))).body;
    const res = await admin.put(
      `${base()}/${c.id}`,
      byMetadata(goodMetadata(), { name: 'Renamed', domains: [d2, d3] }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, name: 'Renamed', provision_type: 'zone_rbac' });
    expect(res.body.domains.map((d: { name: string }) => d.name)).toEqual([d2, d3].sort());
    expect(res.body.idp.certificates).toHaveLength(2);
    const domains = (await admin.get(`/api/accounts/${world.account.id}/domains`)).body.data;
    expect(domains.find((d: { name: string }) => d.name === d1).connection).toBeNull();
    const events = (await admin.get(`/api/events?o=${world.zone.id}&action=saml_connection.update`)).body.data;
    expect(JSON.stringify(events[0])).toContain('Renamed');
  });

  it('refuses to delete a domain a connection names, and frees it when the connection is deleted', async () => {
    const name = fresh();
    const c = (await admin.post(base(), byFields({ domains: [name] }))).body;
    const domainId = c.domains[0].id;
    const refused = await admin.del(`/api/accounts/${world.account.id}/domains/${domainId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(DOMAIN_TEXTS.usedByConnection(c.name));

    expect((await admin.del(`${base()}/${c.id}`)).status).toBe(204);
    expect((await admin.get(`${base()}/${c.id}`)).status).toBe(404);
    expect((await admin.del(`/api/accounts/${world.account.id}/domains/${domainId}`)).status).toBe(204);
    const events = (await admin.get(`/api/events?o=${world.zone.id}&action=saml_connection.delete`)).body.data;
    expect(JSON.stringify(events[0])).toContain(name);
  });
});

describe('who may see and change connections', () => {
  it('answers 404 for another account’s connections', async () => {
    const theirs = (await otherAdmin.post(base(other.account.id), byFields())).body;
    expect((await admin.get(`${base()}/${theirs.id}`)).status).toBe(404);
    expect((await admin.put(`${base()}/${theirs.id}`, byFields())).status).toBe(404);
    expect((await admin.del(`${base()}/${theirs.id}`)).status).toBe(404);
    expect((await admin.get(base(other.account.id))).status).toBe(404);
    expect((await otherAdmin.get(`${base(other.account.id)}/${theirs.id}`)).status).toBe(200);
  });

  it('answers 403 to users of the account who are not global administrators', async () => {
    const mine = (await admin.post(base(), byFields())).body;
    for (const client of [zoneAdmin, readOnly]) {
      expect((await client.get(base())).status).toBe(403);
      expect((await client.get(`${base()}/${mine.id}`)).status).toBe(403);
      expect((await client.post(base(), byFields())).status).toBe(403);
      expect((await client.del(`${base()}/${mine.id}`)).status).toBe(403);
    }
  });
});

describe('GET /api/saml/{connectionUuid}/metadata', () => {
  it('publishes the SP metadata of a connection without signing in', async () => {
    const c = (await admin.post(base(), byFields())).body;
    const res = await t.request(`/api/saml/${c.id}/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${t.url}/api/saml/${c.id}/metadata"`);
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    expect(xml).toMatch(
      new RegExp(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${t.url}/api/saml/${c.id}/acs"`),
    );
  });

  it('uses PATCHWELL_PUBLIC_URL when set, and answers 404 for an unknown connection', async () => {
    const c = (await admin.post(base(), byFields())).body;
    const config = t.ctx.config as { publicUrl: string | undefined };
    config.publicUrl = 'https://patch.example.test';
    try {
      const xml = await (await t.request(`/api/saml/${c.id}/metadata`)).text();
      expect(xml).toContain(`entityID="https://patch.example.test/api/saml/${c.id}/metadata"`);
      expect((await admin.get(`${base()}/${c.id}`)).body.sp.acs_url).toBe(
        `https://patch.example.test/api/saml/${c.id}/acs`,
      );
    } finally {
      config.publicUrl = undefined;
    }
    expect((await t.request('/api/saml/00000000-0000-4000-8000-000000000000/metadata')).status).toBe(404);
    expect((await t.request('/api/saml/not-a-uuid/metadata')).status).toBe(400);
  });
});
