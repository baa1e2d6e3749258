import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAML_REFUSED_LOCATION } from './saml-acs.service';
import { sessionCookieOf, startTestApp, type TestApp } from '../../test/app';
import { buildAccount, buildUser, buildZone } from '../../test/factories';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { createSamlConnection, samlSetup, verifyDomain, type SamlConnection } from '../../test/saml-setup';
import { IDP_ENTITY_ID, IDP_SSO_URL, samlHarness } from '../../test/saml-harness';
import { b64, makeKeyPair, newId, signElement, type KeyPair } from '../../test/saml-idp';

/**
 * The attack corpus: each test starts from a response the happy path accepts and changes
 * one thing an attacker controls. Each must be refused with the generic redirect, no
 * cookie, and the precise reason in the activity log (so it is refused for the right reason).
 */

let t: TestApp;
let dns: TestDns;
let idp: KeyPair;
let evil: KeyPair;
const h = samlHarness(
  () => t,
  () => idp,
);
type Conn = SamlConnection;
let accountId: number;
let conn: Conn;
let otherConn: Conn;
const figures = { tried: 0, accepted: 0 };

beforeAll(async () => {
  dns = await startTestDns();
  t = await startTestApp({ env: { DNS_SERVERS: dns.server } });
  idp = makeKeyPair();
  evil = makeKeyPair('evil.example');
  const account = await buildAccount(t.db);
  accountId = account.id;
  const zone = await buildZone(t.db, { accountId });
  // Set up through the API, as a global administrator would: corp.example verified,
  // pending.example named by the connection but never verified, unlinked.example verified
  // but on no connection.
  const ours = await samlSetup(t, dns, accountId);
  conn = await createSamlConnection(ours, {
    idpEntityId: IDP_ENTITY_ID,
    idpSsoUrl: IDP_SSO_URL,
    certificates: [idp.certificate],
    zoneRoles: { [zone.id]: 2 },
    domains: ['corp.example', 'pending.example'],
  });
  await verifyDomain(ours, 'corp.example');
  await verifyDomain(ours, 'unlinked.example');
  // Another account, trusting the same IdP, with its own domain and a user whose address is ours.
  const other = await buildAccount(t.db);
  const otherZone = await buildZone(t.db, { accountId: other.id });
  const theirs = await samlSetup(t, dns, other.id);
  otherConn = await createSamlConnection(theirs, {
    idpEntityId: IDP_ENTITY_ID,
    idpSsoUrl: IDP_SSO_URL,
    certificates: [idp.certificate],
    zoneRoles: { [otherZone.id]: 2 },
    domains: ['other.example'],
  });
  await verifyDomain(theirs, 'other.example');
  await buildUser(t.db, { accountId: other.id, email: 'carol@corp.example', zones: { [otherZone.id]: 2 } });
});

afterAll(async () => {
  // eslint-disable-next-line no-console -- the issue's figure: vectors tried and accepted
  console.log(`SAML attack corpus: ${figures.tried} vectors tried, ${figures.accepted} accepted`);
  await t?.close();
  await dns?.close();
});

/** Posts one attack and checks it is refused for `reason`. */
async function expectRefused(samlResponse: string, reason: RegExp, c: Conn = conn) {
  figures.tried++;
  const res = await h.post(c, samlResponse);
  const location = res.headers.get('location');
  if (sessionCookieOf(res) !== '' || (res.status === 302 && location !== SAML_REFUSED_LOCATION)) figures.accepted++;
  expect(res.status).toBe(302);
  expect(location).toBe(SAML_REFUSED_LOCATION);
  expect(sessionCookieOf(res)).toBe('');
  expect(await h.lastRefusalReason(c.accountId)).toMatch(reason);
}

const VICTIM = 'victim@corp.example';

describe('SAML attack corpus', () => {
  it('accepts the unmodified response (the baseline every attack starts from)', async () => {
    const built = h.build(conn, await h.begin(conn), 'baseline@corp.example');
    const res = await h.post(conn, b64(h.sign(built, 'assertion')));
    expect(res.headers.get('location')).toBe('/console/dashboard');
    expect(sessionCookieOf(res)).not.toBe('');
  });

  it('refuses an unsigned response', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM);
    await expectRefused(b64(built.xml), /neither the response nor the assertion is signed/);
  });

  it('refuses a response signed with another key', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM);
    await expectRefused(b64(h.sign(built, 'both', evil)), /invalid signature/);
  });

  it('refuses another key even when its certificate is in KeyInfo', async () => {
    // xml-crypto writes the signer's certificate into KeyInfo; it must never be trusted.
    const built = h.build(conn, await h.begin(conn), VICTIM);
    const xml = h.sign(built, 'assertion', evil);
    expect(xml).toContain('X509Certificate');
    await expectRefused(b64(xml), /invalid signature/);
  });

  it('refuses a NameID changed after signing', async () => {
    const built = h.build(conn, await h.begin(conn), 'mallory@corp.example');
    const xml = h.sign(built, 'assertion').replace('mallory@corp.example', VICTIM);
    await expectRefused(b64(xml), /invalid signature/);
  });

  it('refuses a signed response whose assertion was swapped (signed response wrapping an unsigned assertion)', async () => {
    const requestId = await h.begin(conn);
    const legit = h.build(conn, requestId, 'mallory@corp.example');
    const signed = h.sign(legit, 'response');
    const evilAssertion = h.build(conn, requestId, VICTIM, { assertion: { id: legit.assertionId } });
    const assertionOf = (xml: string) => /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
    await expectRefused(b64(signed.replace(assertionOf(signed), assertionOf(evilAssertion.xml))), /invalid signature/);
  });

  it('refuses XSW1: the signed response moved into Extensions under a new unsigned response', async () => {
    const requestId = await h.begin(conn);
    const legit = h.sign(h.build(conn, requestId, 'mallory@corp.example'), 'response');
    const evilBuilt = h.build(conn, requestId, VICTIM, {
      response: { before: `<samlp:Extensions>${legit.replace(/^<\?xml[^>]*>/, '')}</samlp:Extensions>` },
    });
    await expectRefused(b64(evilBuilt.xml), /expected one Assertion in the document/);
  });

  it('refuses XSW2: the signed assertion moved into Extensions, an evil one in its place', async () => {
    const requestId = await h.begin(conn);
    const legit = h.build(conn, requestId, 'mallory@corp.example');
    const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(h.sign(legit, 'assertion'))![0];
    const evilBuilt = h.build(conn, requestId, VICTIM, {
      response: { before: `<samlp:Extensions>${signedAssertion}</samlp:Extensions>` },
    });
    await expectRefused(b64(evilBuilt.xml), /expected one Assertion in the document/);
  });

  it('refuses XSW3: an evil assertion placed before the signed one', async () => {
    const requestId = await h.begin(conn);
    const legit = h.sign(h.build(conn, requestId, 'mallory@corp.example'), 'assertion');
    const evilAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(h.build(conn, requestId, VICTIM).xml)![0];
    await expectRefused(
      b64(legit.replace('<saml:Assertion ', `${evilAssertion}<saml:Assertion `)),
      /expected one Assertion/,
    );
  });

  it('refuses XSW4: the signed assertion wrapped inside the evil assertion', async () => {
    const requestId = await h.begin(conn);
    const legit = h.build(conn, requestId, 'mallory@corp.example');
    const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(h.sign(legit, 'assertion'))![0];
    const evilBuilt = h.build(conn, requestId, VICTIM);
    const xml = evilBuilt.xml.replace('</saml:Assertion>', `${signedAssertion}</saml:Assertion>`);
    await expectRefused(b64(xml), /expected one Assertion/);
  });

  it('refuses XSW5: an evil assertion carrying the signature copied from a legitimate one', async () => {
    const requestId = await h.begin(conn);
    const legit = h.build(conn, requestId, 'mallory@corp.example');
    const signature = /<(ds:)?Signature[\s\S]*<\/(ds:)?Signature>/.exec(h.sign(legit, 'assertion'))![0];
    const evilBuilt = h.build(conn, requestId, VICTIM);
    const xml = evilBuilt.xml.replace(`${'</saml:Issuer>'}<saml:Subject>`, `</saml:Issuer>${signature}<saml:Subject>`);
    await expectRefused(b64(xml), /signature does not reference its own element/);
  });

  it('refuses XSW6: an evil assertion with the same ID as the signed one', async () => {
    const requestId = await h.begin(conn);
    const legit = h.build(conn, requestId, 'mallory@corp.example');
    const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(h.sign(legit, 'assertion'))![0];
    const evilBuilt = h.build(conn, requestId, VICTIM, { assertion: { id: legit.assertionId } });
    const xml = evilBuilt.xml.replace('</samlp:Status>', `</samlp:Status>`) + '';
    const wrapped = xml.replace(
      '<samlp:Status>',
      `<samlp:Extensions>${signedAssertion}</samlp:Extensions><samlp:Status>`,
    );
    await expectRefused(b64(wrapped), /expected one Assertion/);
  });

  it('refuses XSW7: the signed assertion hidden in the evil signature’s Object', async () => {
    const requestId = await h.begin(conn);
    const legit = h.build(conn, requestId, 'mallory@corp.example');
    const signedXml = h.sign(legit, 'assertion');
    const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signedXml)![0];
    const signature = /<(ds:)?Signature[\s\S]*<\/(ds:)?Signature>/.exec(signedXml)![0];
    const withObject = signature.replace(/<\/(ds:)?Signature>$/, `<Object>${signedAssertion}</Object></Signature>`);
    const evilBuilt = h.build(conn, requestId, VICTIM, { assertion: { id: legit.assertionId } });
    const xml = evilBuilt.xml.replace('</saml:Issuer><saml:Subject>', `</saml:Issuer>${withObject}<saml:Subject>`);
    await expectRefused(b64(xml), /expected one Assertion|not well-formed/);
  });

  it('refuses XSW8: a signed response with a second, unsigned assertion after the signed one', async () => {
    const requestId = await h.begin(conn);
    const legit = h.sign(h.build(conn, requestId, 'mallory@corp.example'), 'assertion');
    const evilAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(h.build(conn, requestId, VICTIM).xml)![0];
    await expectRefused(
      b64(legit.replace('</samlp:Response>', `${evilAssertion}</samlp:Response>`)),
      /expected one Assertion/,
    );
  });

  it('refuses a comment injected in the NameID', async () => {
    const built = h.build(conn, await h.begin(conn), 'victim@corp.example<!---->.evil.test');
    await expectRefused(b64(h.sign(built, 'assertion')), /NameID contains markup/);
  });

  it('refuses a processing instruction injected in the NameID', async () => {
    const built = h.build(conn, await h.begin(conn), 'victim@corp.example<?x y?>.evil.test');
    await expectRefused(b64(h.sign(built, 'assertion')), /NameID contains markup/);
  });

  it('refuses a wrong audience', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM, { assertion: { audience: 'https://other-sp.test/' } });
    await expectRefused(b64(h.sign(built, 'assertion')), /audience/);
  });

  it('refuses a wrong recipient', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM, { assertion: { recipient: 'https://other-sp.test/acs' } });
    await expectRefused(b64(h.sign(built, 'assertion')), /recipient/);
  });

  it('refuses a wrong destination', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM, {
      response: { destination: 'https://other-sp.test/acs' },
    });
    await expectRefused(b64(h.sign(built, 'both')), /destination/);
  });

  it('refuses a wrong assertion issuer', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM, { assertion: { issuer: 'https://evil.example/idp' } });
    await expectRefused(b64(h.sign(built, 'assertion')), /assertion issuer/);
  });

  it('refuses a wrong response issuer', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM, { response: { issuer: 'https://evil.example/idp' } });
    await expectRefused(b64(h.sign(built, 'both')), /response issuer/);
  });

  it('refuses an expired assertion (past NotOnOrAfter plus the skew)', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM);
    const signed = h.sign(built, 'assertion');
    t.clock.advance(8 * 60_000);
    try {
      await expectRefused(b64(signed), /expired/);
    } finally {
      t.clock.advance(-8 * 60_000);
    }
  });

  it('refuses an assertion not yet valid (NotBefore beyond the skew)', async () => {
    const now = t.clock.now().getTime();
    const built = h.build(conn, await h.begin(conn), VICTIM, {
      assertion: { notBefore: new Date(now + 3 * 60_000), notOnOrAfter: new Date(now + 10 * 60_000) },
    });
    await expectRefused(b64(h.sign(built, 'assertion')), /not yet valid/);
  });

  it('refuses a replayed response', async () => {
    const built = h.build(conn, await h.begin(conn), 'replay@corp.example');
    const signed = b64(h.sign(built, 'assertion'));
    expect(sessionCookieOf(await h.post(conn, signed))).not.toBe('');
    await expectRefused(signed, /no open request/);
  });

  it('refuses an assertion ID seen before, even answering a new request', async () => {
    const first = h.build(conn, await h.begin(conn), 'replay2@corp.example');
    expect(sessionCookieOf(await h.post(conn, b64(h.sign(first, 'assertion'))))).not.toBe('');
    const again = h.build(conn, await h.begin(conn), 'replay2@corp.example', { assertion: { id: first.assertionId } });
    await expectRefused(b64(h.sign(again, 'assertion')), /replay/);
  });

  it('refuses an unsolicited response (no InResponseTo)', async () => {
    const built = h.build(conn, null, VICTIM);
    await expectRefused(b64(h.sign(built, 'assertion')), /unsolicited/);
  });

  it('refuses an InResponseTo we never issued', async () => {
    const built = h.build(conn, newId(), VICTIM);
    await expectRefused(b64(h.sign(built, 'assertion')), /no open request/);
  });

  it('refuses an InResponseTo of another connection', async () => {
    const built = h.build(conn, await h.begin(otherConn), VICTIM);
    await expectRefused(b64(h.sign(built, 'assertion')), /no open request of this connection/);
  });

  it('refuses a response to a request already consumed by another response', async () => {
    const requestId = await h.begin(conn);
    const first = h.build(conn, requestId, 'first@corp.example');
    expect(sessionCookieOf(await h.post(conn, b64(h.sign(first, 'assertion'))))).not.toBe('');
    const second = h.build(conn, requestId, VICTIM);
    await expectRefused(b64(h.sign(second, 'assertion')), /no open request/);
  });

  it('refuses a response to an expired request', async () => {
    const requestId = await h.begin(conn);
    t.clock.advance(11 * 60_000);
    try {
      await expectRefused(b64(h.sign(h.build(conn, requestId, VICTIM), 'assertion')), /no open request/);
    } finally {
      t.clock.advance(-11 * 60_000);
    }
  });

  it('refuses a NameID of a domain the account does not have', async () => {
    const built = h.build(conn, await h.begin(conn), 'eve@evil.example');
    await expectRefused(b64(h.sign(built, 'assertion')), /not a verified domain/);
  });

  it('refuses a NameID of a domain still pending verification', async () => {
    const built = h.build(conn, await h.begin(conn), 'eve@pending.example');
    await expectRefused(b64(h.sign(built, 'assertion')), /not a verified domain/);
  });

  it('refuses a verified domain of the account that is linked to no connection', async () => {
    const built = h.build(conn, await h.begin(conn), 'eve@unlinked.example');
    await expectRefused(b64(h.sign(built, 'assertion')), /not a verified domain/);
  });

  it('refuses a NameID of another account’s domain through this connection', async () => {
    const built = h.build(conn, await h.begin(conn), 'dave@other.example');
    await expectRefused(b64(h.sign(built, 'assertion')), /not a verified domain/);
  });

  it('refuses an address that belongs to a user of another account', async () => {
    const built = h.build(conn, await h.begin(conn), 'carol@corp.example');
    await expectRefused(b64(h.sign(built, 'assertion')), /another account/);
  });

  it('refuses a DTD with entity expansion', async () => {
    const built = h.build(conn, await h.begin(conn), '&e;');
    const dtd = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY e "&a;&a;&a;&a;&a;&a;">]>';
    await expectRefused(b64(dtd + h.sign({ ...built }, 'none')), /document type/);
  });

  it('refuses an EncryptedAssertion', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM);
    const xml = h
      .sign(built, 'assertion')
      .replace('</samlp:Response>', '<saml:EncryptedAssertion><x/></saml:EncryptedAssertion></samlp:Response>');
    await expectRefused(b64(xml), /encrypted assertion/);
  });

  it('refuses a SHA-1 signature', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM);
    const xml = signElement(built.xml, built.assertionId, idp, {
      signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
      digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1',
    });
    await expectRefused(b64(xml), /invalid signature/);
  });

  it('refuses a response whose status is not Success', async () => {
    const built = h.build(conn, await h.begin(conn), VICTIM, {
      response: { status: 'urn:oasis:names:tc:SAML:2.0:status:Requester' },
    });
    await expectRefused(b64(h.sign(built, 'both')), /status/);
  });

  it('refuses malformed base64', async () => {
    await expectRefused('PHNhbWxwOlJlc3BvbnNl***not-base64***', /not base64/);
  });

  it('refuses malformed XML', async () => {
    await expectRefused(
      b64('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"><unclosed>'),
      /not well-formed|root/,
    );
  });

  it('refuses an oversized body before reading it (413)', async () => {
    figures.tried++;
    const res = await h.post(conn, 'A'.repeat(600_000));
    if (res.status < 400 || sessionCookieOf(res) !== '') figures.accepted++;
    expect(res.status).toBe(413);
    expect(sessionCookieOf(res)).toBe('');
  });

  it('tried at least 25 vectors and accepted none', () => {
    expect(figures.tried).toBeGreaterThanOrEqual(25);
    expect(figures.accepted).toBe(0);
  });
});
