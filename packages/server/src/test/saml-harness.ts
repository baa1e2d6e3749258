import { desc, eq } from 'drizzle-orm';
import { activityLog } from '../db/activity.schema';
import type { TestDns } from './dns-server';
import { createSamlConnection, samlSetup, verifyDomain, type SamlConnection } from './saml-setup';
import {
  assertionXml,
  authnRequestIdOf,
  b64,
  makeKeyPair,
  newId,
  responseXml,
  signElement,
  type AssertionFields,
  type KeyPair,
  type ResponseFields,
} from './saml-idp';
import type { TestApp } from './app';

type Connection = SamlConnection;

/** Where an IdP is, for a test app and one of its connections. */
export const IDP_ENTITY_ID = 'https://idp.corp.example/saml/metadata';
export const IDP_SSO_URL = 'https://idp.corp.example/saml/sso';

export type Built = { xml: string; assertionId: string; responseId: string };
export type Sign = 'assertion' | 'response' | 'both' | 'none';

/**
 * Drives SAML sign-in against a running test app: starts a request, writes the IdP's
 * response (overridable field by field), signs it, posts it to the ACS.
 */
export function samlHarness(t: () => TestApp, keys: () => KeyPair) {
  const spEntityId = (c: Connection) => `${t().url}/api/saml/${c.uuid}/metadata`;
  const acsUrl = (c: Connection) => `${t().url}/api/saml/${c.uuid}/acs`;

  /** GET /login: the AuthnRequest's ID. */
  async function begin(c: Connection, query = ''): Promise<string> {
    const res = await t().request(`/api/saml/${c.uuid}/login${query}`, { redirect: 'manual' });
    if (res.status !== 302) throw new Error(`login answered ${res.status}`);
    return authnRequestIdOf(res.headers.get('location')!);
  }

  /** A response that would be accepted, unless overridden. */
  function build(
    c: Connection,
    requestId: string | null,
    email: string,
    o: { assertion?: Partial<AssertionFields>; response?: Partial<ResponseFields> } = {},
  ): Built {
    const now = t().clock.now().getTime();
    const assertionId = o.assertion?.id ?? newId();
    const responseId = o.response?.id ?? newId();
    const assertion = assertionXml({
      id: assertionId,
      issuer: IDP_ENTITY_ID,
      nameIdXml: email,
      audience: spEntityId(c),
      recipient: acsUrl(c),
      inResponseTo: requestId,
      issuedAt: new Date(now),
      notBefore: new Date(now - 60_000),
      notOnOrAfter: new Date(now + 5 * 60_000),
      ...o.assertion,
    });
    const xml = responseXml({
      id: responseId,
      issuer: IDP_ENTITY_ID,
      destination: acsUrl(c),
      inResponseTo: requestId,
      issuedAt: new Date(now),
      body: assertion,
      ...o.response,
    });
    return { xml, assertionId, responseId };
  }

  function sign(built: Built, how: Sign, with_: KeyPair = keys()): string {
    let xml = built.xml;
    if (how === 'assertion' || how === 'both') xml = signElement(xml, built.assertionId, with_);
    if (how === 'response' || how === 'both') xml = signElement(xml, built.responseId, with_);
    return xml;
  }

  /** POSTs a form to the ACS as the IdP's page would (cross-site). */
  function post(c: Connection, samlResponse: string, cookie?: string) {
    return t().request(`/api/saml/${c.uuid}/acs`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://idp.corp.example',
        'sec-fetch-site': 'cross-site',
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: 'anything' }).toString(),
      redirect: 'manual',
    });
  }

  /** The reason the last refusal of an account was logged with. */
  async function lastRefusalReason(accountId: number): Promise<string> {
    const [row] = await t()
      .db.select({ action: activityLog.action, details: activityLog.details })
      .from(activityLog)
      .where(eq(activityLog.accountId, accountId))
      .orderBy(desc(activityLog.id))
      .limit(1);
    return row?.action === 'auth.signin_failed' ? String((row.details as { reason?: unknown }).reason) : '';
  }

  return { spEntityId, acsUrl, begin, build, sign, post, lastRefusalReason };
}

/**
 * One SAML sign-in through a new connection of the account, set up through the API with its
 * domain verified on `dns` (for tests that need the route to succeed once, such as the
 * activity coverage; the app's DNS_SERVERS must name `dns`). The answer is 204 when the ACS signed
 * the user in (302 to the console with a cookie), else the ACS's status and location.
 */
export async function samlSignInOnce(
  t: TestApp,
  dns: TestDns,
  accountId: number,
  zoneId: number,
): Promise<{ status: number; body: undefined; text: string }> {
  const keys = makeKeyPair();
  const domain = `sso-${newId().slice(1, 9)}.example`;
  const setup = await samlSetup(t, dns, accountId);
  const c = await createSamlConnection(setup, {
    idpEntityId: IDP_ENTITY_ID,
    idpSsoUrl: IDP_SSO_URL,
    certificates: [keys.certificate],
    zoneRoles: { [zoneId]: 2 },
    domains: [domain],
  });
  await verifyDomain(setup, domain);
  const h = samlHarness(
    () => t,
    () => keys,
  );
  const built = h.build(c, await h.begin(c), `someone@${domain}`);
  const res = await h.post(c, b64(h.sign(built, 'assertion')));
  const location = res.headers.get('location') ?? '';
  const signedIn = res.status === 302 && res.headers.getSetCookie().length > 0 && !location.includes('err=');
  return { status: signedIn ? 204 : res.status === 302 ? 401 : res.status, body: undefined, text: location };
}
