import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { organizations } from '../../db/schema';
import {
  accountDomains,
  samlAssertionIds,
  samlConnectionZoneRoles,
  samlConnections,
  samlRequests,
  samlUserLinks,
} from '../../db/sso.schema';

/**
 * SQL of SAML sign-in. It writes `saml_requests`, `saml_assertion_ids` and
 * `saml_user_links` only; connections and domains are read (modules/saml-connections and
 * modules/domains write them).
 */

export type SamlConnectionRow = typeof samlConnections.$inferSelect;

/** The connection a verified domain signs in through, if any. */
export async function findConnectionOfVerifiedDomain(db: Db, domain: string) {
  const [row] = await db
    .select({ connection: samlConnections })
    .from(accountDomains)
    .innerJoin(samlConnections, eq(samlConnections.id, accountDomains.connectionId))
    .where(and(eq(accountDomains.name, domain), eq(accountDomains.status, 'verified')));
  return row?.connection;
}

export async function findConnectionByUuid(db: Db, uuid: string): Promise<SamlConnectionRow | undefined> {
  const [row] = await db.select().from(samlConnections).where(eq(samlConnections.uuid, uuid));
  return row;
}

/** Whether `domain` is verified by the connection's account and linked to this connection. */
export async function isDomainOfConnection(db: Db, connection: SamlConnectionRow, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accountDomains.id })
    .from(accountDomains)
    .where(
      and(
        eq(accountDomains.name, domain),
        eq(accountDomains.accountId, connection.accountId),
        eq(accountDomains.status, 'verified'),
        eq(accountDomains.connectionId, connection.id),
      ),
    );
  return row !== undefined;
}

export async function insertRequest(db: Db, row: typeof samlRequests.$inferInsert): Promise<void> {
  await db.insert(samlRequests).values(row);
}

/**
 * Consumes the request a response answers, in one statement: only an unconsumed,
 * unexpired request of this connection qualifies, so two responses to one request cannot
 * both pass. Returns the consumed row, or undefined.
 */
export async function consumeRequest(db: Db, id: string, connectionId: number, now: Date) {
  const [row] = await db
    .update(samlRequests)
    .set({ consumedAt: now })
    .where(
      and(
        eq(samlRequests.id, id),
        eq(samlRequests.connectionId, connectionId),
        isNull(samlRequests.consumedAt),
        gt(samlRequests.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

/** Records an accepted assertion ID; false when it was already there (a replay). */
export async function recordAssertionId(
  db: Db,
  row: { connectionId: number; assertionId: string; expiresAt: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(samlAssertionIds)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: samlAssertionIds.assertionId });
  return inserted.length === 1;
}

/** Forgets requests and assertion IDs that can no longer be used. */
export async function deleteExpired(db: Db, now: Date): Promise<void> {
  await db.delete(samlRequests).where(lte(samlRequests.expiresAt, now));
  await db.delete(samlAssertionIds).where(lte(samlAssertionIds.expiresAt, now));
}

/** The zone and role pairs of a `zone_rbac` connection. */
export async function listConnectionZoneRoles(db: Db, connectionId: number) {
  return db
    .select({ organizationId: samlConnectionZoneRoles.organizationId, roleId: samlConnectionZoneRoles.roleId })
    .from(samlConnectionZoneRoles)
    .innerJoin(organizations, eq(organizations.id, samlConnectionZoneRoles.organizationId))
    .where(eq(samlConnectionZoneRoles.connectionId, connectionId));
}

/** Every zone of an account (a default role applies in each). */
export async function listAccountZoneIds(db: Db, accountId: number): Promise<number[]> {
  const rows = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.accountId, accountId));
  return rows.map((r) => r.id);
}

export async function upsertUserLink(db: Db, row: typeof samlUserLinks.$inferInsert): Promise<void> {
  await db
    .insert(samlUserLinks)
    .values(row)
    .onConflictDoUpdate({
      target: samlUserLinks.userId,
      set: {
        connectionId: row.connectionId,
        nameId: row.nameId,
        lastSigninAt: row.lastSigninAt,
        // Once provisioned, always provisioned: an invite connection later does not change who made the user.
        provisioned: sql`${samlUserLinks.provisioned} or ${row.provisioned ?? false}`,
      },
    });
}

/** The connection a user last signed in through (for the profile and zone re-authentication). */
export async function findUserLink(db: Db, userId: number) {
  const [row] = await db
    .select({ connectionUuid: samlConnections.uuid })
    .from(samlUserLinks)
    .innerJoin(samlConnections, eq(samlConnections.id, samlUserLinks.connectionId))
    .where(eq(samlUserLinks.userId, userId));
  return row;
}
