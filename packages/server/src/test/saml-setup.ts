import { eq } from 'drizzle-orm';
import { samlConnections } from '../db/sso.schema';
import type { TestApp } from './app';
import { clientFor, cookieFor } from './authz-helpers';
import type { TestDns } from './dns-server';
import { buildUser } from './factories';
import { idpMetadata } from './idp-fixtures';

/**
 * SAML set up the way a customer does it, for the sign-in tests: a global administrator of
 * the account creates the connection (`POST /api/accounts/{id}/connections`, the IdP given
 * by its metadata) and proves each domain through DNS (`POST …/domains/{id}/verify`, answered
 * by the loopback DNS server the test app's `DNS_SERVERS` points at).
 */

export type SamlConnection = typeof samlConnections.$inferSelect;

/** A global administrator's client for one account, and the DNS server its app asks. */
export type SamlSetup = { t: TestApp; dns: TestDns; accountId: number; client: ReturnType<typeof clientFor> };

export type ConnectionInput = {
  provisionType?: 'invite' | 'zone_rbac';
  idpEntityId: string;
  idpSsoUrl: string;
  certificates: string[];
  defaultRoleId?: number | null;
  /** zone id → role id */
  zoneRoles?: Record<number, number>;
  name?: string;
  /** The connection's domains: added pending; `verifyDomain` proves them. */
  domains: string[];
};

/** A new global administrator of the account, signed in, to set SAML up through the API. */
export async function samlSetup(t: TestApp, dns: TestDns, accountId: number): Promise<SamlSetup> {
  const admin = await buildUser(t.db, { accountId, globalAdmin: true });
  return { t, dns, accountId, client: clientFor(t, { cookie: await cookieFor(t, admin) }) };
}

let serial = 0;

/** Creates the connection through the API; the answer is its row (tests read its id and uuid). */
export async function createSamlConnection(s: SamlSetup, input: ConnectionInput): Promise<SamlConnection> {
  const res = await s.client.post(`/api/accounts/${s.accountId}/connections`, {
    name: input.name ?? `Test IdP ${++serial}`,
    provision_type: input.provisionType ?? 'zone_rbac',
    domains: input.domains,
    metadata_xml: idpMetadata({
      entityId: input.idpEntityId,
      ssoUrl: input.idpSsoUrl,
      certificates: input.certificates,
    }),
    default_role_id: input.defaultRoleId ?? null,
    zone_roles: Object.entries(input.zoneRoles ?? {}).map(([zone, role]) => ({ zone_id: Number(zone), role_id: role })),
  });
  if (res.status !== 201) throw new Error(`creating the connection answered ${res.status}: ${res.text}`);
  const [row] = await s.t.db.select().from(samlConnections).where(eq(samlConnections.uuid, res.body.id));
  return row!;
}

/**
 * Proves the account owns `name`: adds it unless the account has it (a connection adds its
 * domains), publishes its TXT record on the loopback DNS server and asks the API to verify it.
 */
export async function verifyDomain(s: SamlSetup, name: string): Promise<void> {
  const base = `/api/accounts/${s.accountId}/domains`;
  type Domain = { id: string; name: string; verification_record: { host: string; value: string } };
  const list = await s.client.get(base);
  let domain = (list.body.data as Domain[]).find((d) => d.name === name);
  if (!domain) {
    const added = await s.client.post(base, { name });
    if (added.status !== 201) throw new Error(`adding ${name} answered ${added.status}: ${added.text}`);
    domain = added.body as Domain;
  }
  s.dns.records.set(domain.verification_record.host, [[domain.verification_record.value]]);
  const res = await s.client.post(`${base}/${domain.id}/verify`);
  if (res.status !== 200 || res.body.verified !== true) {
    throw new Error(`verifying ${name} answered ${res.status}: ${res.text}`);
  }
}
