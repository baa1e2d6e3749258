import { eq, sql } from 'drizzle-orm';
import { samlConnections } from '../../db/sso.schema';
import { accounts, organizations } from '../../db/schema';
import type { Exec } from './mfa.store';

/** The sign-in requirements of a zone and its account. */
export async function findZoneSecurity(db: Exec, zoneId: number) {
  const [row] = await db
    .select({
      requireMfa: organizations.requireMfa,
      saml: organizations.saml,
      accountRequireMfa: accounts.requireMfa,
    })
    .from(organizations)
    .innerJoin(accounts, eq(accounts.id, organizations.accountId))
    .where(eq(organizations.id, zoneId));
  return row;
}

export async function setZoneRequireMfa(db: Exec, zoneId: number, enabled: boolean): Promise<void> {
  await db.update(organizations).set({ requireMfa: enabled }).where(eq(organizations.id, zoneId));
}

/** Sets `saml.enabled` of the zone, keeping its other SAML settings (the redirect). */
export async function setZoneSamlEnabled(db: Exec, zoneId: number, enabled: boolean): Promise<void> {
  await db
    .update(organizations)
    .set({ saml: sql`jsonb_set(${organizations.saml}, '{enabled}', to_jsonb(${enabled}::boolean))` })
    .where(eq(organizations.id, zoneId));
}

export async function findAccountRequireMfa(db: Exec, accountId: number): Promise<boolean | undefined> {
  const [row] = await db.select({ requireMfa: accounts.requireMfa }).from(accounts).where(eq(accounts.id, accountId));
  return row?.requireMfa;
}

export async function setAccountRequireMfa(db: Exec, accountId: number, enabled: boolean): Promise<void> {
  await db.update(accounts).set({ requireMfa: enabled }).where(eq(accounts.id, accountId));
}

/** Whether the account has a SAML connection (modules/saml writes them; this only reads). */
export async function accountHasSamlConnection(db: Exec, accountId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: samlConnections.id })
    .from(samlConnections)
    .where(eq(samlConnections.accountId, accountId))
    .limit(1);
  return row !== undefined;
}
