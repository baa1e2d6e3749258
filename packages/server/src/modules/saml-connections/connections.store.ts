import { and, asc, eq, inArray } from 'drizzle-orm';
import { organizations } from '../../db/schema';
import { accountDomains, samlConnectionZoneRoles, samlConnections } from '../../db/sso.schema';
import type { Exec } from '../commands/commands.store';

/**
 * The only SQL that writes `saml_connections` and `saml_connection_zone_roles`. It reads
 * `account_domains` (written by modules/domains) and zone names to show a connection.
 */

export type ConnectionRow = typeof samlConnections.$inferSelect;
export type ConnectionFields = Pick<
  typeof samlConnections.$inferInsert,
  'name' | 'provisionType' | 'idpMetadataXml' | 'idpEntityId' | 'idpSsoUrl' | 'idpCertificates' | 'defaultRoleId'
>;
export type ZoneRolePair = { zoneId: number; roleId: number };

export async function listConnectionRows(db: Exec, accountId: number): Promise<ConnectionRow[]> {
  return db
    .select()
    .from(samlConnections)
    .where(eq(samlConnections.accountId, accountId))
    .orderBy(asc(samlConnections.name), asc(samlConnections.id));
}

/** A connection of the account by UUID; undefined when it is another account's or gone. */
export async function findConnectionRow(db: Exec, accountId: number, uuid: string): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .select()
    .from(samlConnections)
    .where(and(eq(samlConnections.accountId, accountId), eq(samlConnections.uuid, uuid)));
  return row;
}

/** A connection by UUID alone (the public SP metadata route). */
export async function findConnectionByUuid(db: Exec, uuid: string): Promise<ConnectionRow | undefined> {
  const [row] = await db.select().from(samlConnections).where(eq(samlConnections.uuid, uuid));
  return row;
}

export async function insertConnection(
  db: Exec,
  row: ConnectionFields & { accountId: number; createdAt: Date; updatedAt: Date },
): Promise<ConnectionRow> {
  const [created] = await db.insert(samlConnections).values(row).returning();
  return created!;
}

export async function updateConnection(db: Exec, id: number, fields: ConnectionFields & { updatedAt: Date }) {
  await db.update(samlConnections).set(fields).where(eq(samlConnections.id, id));
}

export async function deleteConnectionRow(db: Exec, id: number): Promise<void> {
  await db.delete(samlConnections).where(eq(samlConnections.id, id));
}

/** Replaces the connection's zone-and-role pairs. */
export async function replaceZoneRoles(db: Exec, connectionId: number, pairs: ZoneRolePair[]): Promise<void> {
  await db.delete(samlConnectionZoneRoles).where(eq(samlConnectionZoneRoles.connectionId, connectionId));
  if (pairs.length) {
    await db
      .insert(samlConnectionZoneRoles)
      .values(pairs.map((p) => ({ connectionId, organizationId: p.zoneId, roleId: p.roleId })));
  }
}

/** The zone-and-role pairs of `connectionIds`, with zone names. */
export async function findZoneRoles(db: Exec, connectionIds: number[]) {
  if (!connectionIds.length) return [];
  return db
    .select({
      connectionId: samlConnectionZoneRoles.connectionId,
      zoneId: samlConnectionZoneRoles.organizationId,
      zoneName: organizations.name,
      roleId: samlConnectionZoneRoles.roleId,
    })
    .from(samlConnectionZoneRoles)
    .innerJoin(organizations, eq(organizations.id, samlConnectionZoneRoles.organizationId))
    .where(inArray(samlConnectionZoneRoles.connectionId, connectionIds))
    .orderBy(asc(organizations.name));
}

/** The domains on `connectionIds`. */
export async function findConnectionDomains(db: Exec, connectionIds: number[]) {
  if (!connectionIds.length) return [];
  return db
    .select({
      connectionId: accountDomains.connectionId,
      uuid: accountDomains.uuid,
      name: accountDomains.name,
      status: accountDomains.status,
    })
    .from(accountDomains)
    .where(inArray(accountDomains.connectionId, connectionIds))
    .orderBy(asc(accountDomains.name));
}

/** Of `zoneIds`, those that are zones of the account. */
export async function findAccountZoneIdsAmong(db: Exec, accountId: number, zoneIds: number[]): Promise<number[]> {
  if (!zoneIds.length) return [];
  const rows = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.accountId, accountId), inArray(organizations.id, zoneIds)));
  return rows.map((r) => r.id);
}
