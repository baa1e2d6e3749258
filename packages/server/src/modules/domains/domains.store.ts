import { and, asc, count, eq, inArray, ne, notInArray } from 'drizzle-orm';
import { accountDomains, samlConnections } from '../../db/sso.schema';
import type { Exec } from '../commands/commands.store';

/**
 * The only SQL that writes `account_domains`. A domain belongs to one account; it is
 * verified by one account at most (a partial unique index holds that across accounts).
 */

export type DomainRow = typeof accountDomains.$inferSelect;
export type DomainWithConnection = DomainRow & { connectionUuid: string | null; connectionName: string | null };

const withConnection = {
  id: accountDomains.id,
  uuid: accountDomains.uuid,
  accountId: accountDomains.accountId,
  name: accountDomains.name,
  status: accountDomains.status,
  verificationToken: accountDomains.verificationToken,
  connectionId: accountDomains.connectionId,
  createdAt: accountDomains.createdAt,
  lastCheckedAt: accountDomains.lastCheckedAt,
  verifiedAt: accountDomains.verifiedAt,
  connectionUuid: samlConnections.uuid,
  connectionName: samlConnections.name,
};

/** The account's domains by name, each with the connection it is on. */
export async function listDomains(db: Exec, accountId: number): Promise<DomainWithConnection[]> {
  return db
    .select(withConnection)
    .from(accountDomains)
    .leftJoin(samlConnections, eq(samlConnections.id, accountDomains.connectionId))
    .where(eq(accountDomains.accountId, accountId))
    .orderBy(asc(accountDomains.name));
}

/** One domain of the account by its UUID; undefined when it is another account's or gone. */
export async function findDomain(db: Exec, accountId: number, uuid: string): Promise<DomainWithConnection | undefined> {
  const [row] = await db
    .select(withConnection)
    .from(accountDomains)
    .leftJoin(samlConnections, eq(samlConnections.id, accountDomains.connectionId))
    .where(and(eq(accountDomains.accountId, accountId), eq(accountDomains.uuid, uuid)));
  return row;
}

/** The account's rows for `names`. */
export async function findDomainsByName(db: Exec, accountId: number, names: string[]): Promise<DomainRow[]> {
  if (!names.length) return [];
  return db
    .select()
    .from(accountDomains)
    .where(and(eq(accountDomains.accountId, accountId), inArray(accountDomains.name, names)));
}

/** Of `names`, those another account has verified. */
export async function findVerifiedElsewhere(db: Exec, accountId: number, names: string[]): Promise<string[]> {
  if (!names.length) return [];
  const rows = await db
    .select({ name: accountDomains.name })
    .from(accountDomains)
    .where(
      and(
        inArray(accountDomains.name, names),
        eq(accountDomains.status, 'verified'),
        ne(accountDomains.accountId, accountId),
      ),
    );
  return rows.map((r) => r.name);
}

export async function countDomains(db: Exec, accountId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(accountDomains).where(eq(accountDomains.accountId, accountId));
  return row?.n ?? 0;
}

export async function insertDomains(db: Exec, rows: (typeof accountDomains.$inferInsert)[]): Promise<DomainRow[]> {
  if (!rows.length) return [];
  return db.insert(accountDomains).values(rows).returning();
}

export async function deleteDomainRow(db: Exec, id: number): Promise<void> {
  await db.delete(accountDomains).where(eq(accountDomains.id, id));
}

/** Records a check: `verified` moves the domain to verified (once). */
export async function recordCheck(db: Exec, id: number, at: Date, verified: boolean): Promise<void> {
  await db
    .update(accountDomains)
    .set(verified ? { lastCheckedAt: at, status: 'verified', verifiedAt: at } : { lastCheckedAt: at })
    .where(eq(accountDomains.id, id));
}

/** Puts the account's domains `ids` on `connectionId` (taking them off whichever connection had them). */
export async function setDomainsConnection(db: Exec, accountId: number, ids: number[], connectionId: number) {
  if (!ids.length) return;
  await db
    .update(accountDomains)
    .set({ connectionId })
    .where(and(eq(accountDomains.accountId, accountId), inArray(accountDomains.id, ids)));
}

/** Takes the connection's domains other than `keepIds` off it; returns their names. */
export async function releaseConnectionDomains(db: Exec, connectionId: number, keepIds: number[]): Promise<string[]> {
  const rows = await db
    .update(accountDomains)
    .set({ connectionId: null })
    .where(
      and(
        eq(accountDomains.connectionId, connectionId),
        keepIds.length ? notInArray(accountDomains.id, keepIds) : undefined,
      ),
    )
    .returning({ name: accountDomains.name });
  return rows.map((r) => r.name);
}
