import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { accounts, invitations, organizations, users } from '../../db/schema';

export type InvitationRow = typeof invitations.$inferSelect;

export async function insertInvitation(db: Db, row: typeof invitations.$inferInsert): Promise<InvitationRow> {
  const [created] = await db.insert(invitations).values(row).returning();
  return created!;
}

const open = () => and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

/** Revokes the open invitations of an e-mail into a zone (a newer one replaces them). */
export async function revokeOpenForEmail(db: Db, email: string, zoneId: number, at: Date): Promise<void> {
  await db
    .update(invitations)
    .set({ revokedAt: at })
    .where(and(eq(invitations.email, email), eq(invitations.organizationId, zoneId), open()));
}

/** Revokes the user's open invitations into these zones (they were taken out of them). */
export async function revokeOpenForUser(db: Db, userId: number, zoneIds: number[], at: Date): Promise<void> {
  if (zoneIds.length === 0) return;
  await db
    .update(invitations)
    .set({ revokedAt: at })
    .where(and(eq(invitations.userId, userId), inArray(invitations.organizationId, zoneIds), open()));
}

const inviter = alias(users, 'inviter');

/** An invitation by its token's hash, with what the acceptance page shows and acceptance needs. */
export async function findByTokenHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      invitation: invitations,
      zone: { id: organizations.id, name: organizations.name, accountId: organizations.accountId },
      accountName: accounts.name,
      user: {
        id: users.id,
        accountId: users.accountId,
        accountRbacRole: users.accountRbacRole,
        email: users.email,
        firstname: users.firstname,
        lastname: users.lastname,
        status: users.status,
        locked: users.locked,
        hasPassword: sql<boolean>`${users.passwordHash} is not null`,
      },
      inviter: { firstname: inviter.firstname, lastname: inviter.lastname, email: inviter.email },
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .innerJoin(accounts, eq(accounts.id, organizations.accountId))
    .innerJoin(users, eq(users.id, invitations.userId))
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(eq(invitations.tokenHash, tokenHash));
  return row;
}

/**
 * Marks the invitation accepted if it still can be (not accepted, revoked or expired), in
 * one statement: of two concurrent acceptances exactly one gets the row back.
 */
export async function claimInvitation(db: Db, id: number, now: Date): Promise<InvitationRow | undefined> {
  const [row] = await db
    .update(invitations)
    .set({ acceptedAt: now })
    .where(and(eq(invitations.id, id), open(), gt(invitations.expiresAt, now)))
    .returning();
  return row;
}

/** The invitations into the account's zones, latest first. */
export async function listAccountInvitations(db: Db, accountId: number) {
  return db
    .select({
      invitation: invitations,
      zoneName: organizations.name,
      inviter: { firstname: inviter.firstname, lastname: inviter.lastname, email: inviter.email },
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .leftJoin(inviter, eq(inviter.id, invitations.invitedBy))
    .where(eq(organizations.accountId, accountId))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
}

/** One invitation into the account's zones, or undefined (another account's reads as missing). */
export async function findAccountInvitation(db: Db, accountId: number, id: number) {
  const [row] = await db
    .select({ invitation: invitations })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(and(eq(invitations.id, id), eq(organizations.accountId, accountId)));
  return row?.invitation;
}

export async function revokeInvitation(db: Db, id: number, at: Date): Promise<void> {
  await db
    .update(invitations)
    .set({ revokedAt: at })
    .where(and(eq(invitations.id, id), open()));
}

/** The inviting user (named in the e-mail) and the name of the account invited into. */
export async function findInviterAndAccount(db: Db, inviterId: number, accountId: number) {
  const [inviterRow] = await db
    .select({ id: users.id, firstname: users.firstname, lastname: users.lastname, email: users.email })
    .from(users)
    .where(eq(users.id, inviterId));
  const [account] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId));
  return { inviter: inviterRow!, accountName: account?.name ?? '' };
}

/** The newest invitation of a user into a zone, or undefined. */
export async function findLatestInvitation(db: Db, userId: number, zoneId: number) {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.userId, userId), eq(invitations.organizationId, zoneId)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(1);
  return row;
}
