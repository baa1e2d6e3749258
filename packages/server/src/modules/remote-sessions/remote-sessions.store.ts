import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { RemoteConsent, RemoteSessionState } from '@patchwell/core/remote/remote-sessions.schema';
import type { Db } from '../../db/client';
import { remoteSessions, remoteSettings } from '../../db/remote.schema';
import type { Exec } from '../commands/commands.store';

/** The only SQL that writes `remote_sessions` and `remote_settings` (decision 0016). */

export type RemoteSessionRow = typeof remoteSessions.$inferSelect;
export type RemoteSettingsRow = typeof remoteSettings.$inferSelect;
type NewSession = typeof remoteSessions.$inferInsert;

/** The states in which a session may still be joined or relayed. */
export const LIVE_STATES: readonly RemoteSessionState[] = ['pending', 'open'];

export async function insertSession(exec: Exec, row: NewSession): Promise<RemoteSessionRow> {
  const [created] = await exec.insert(remoteSessions).values(row).returning();
  return created!;
}

export async function setSessionCommand(exec: Exec, id: number, commandId: number): Promise<void> {
  await exec.update(remoteSessions).set({ commandId }).where(eq(remoteSessions.id, id));
}

/** Serialises session creation per device, so "one live session per device" holds across nodes. */
export async function lockDeviceSessions(exec: Exec, deviceId: number): Promise<void> {
  await exec.execute(sql`select pg_advisory_xact_lock(hashtext('remote_sessions'), ${deviceId})`);
}

/** The device's live session: pending or open, and connected or created after `createdAfter`. */
export async function findLiveSession(
  exec: Exec,
  deviceId: number,
  createdAfter: Date,
): Promise<RemoteSessionRow | undefined> {
  const [row] = await exec
    .select()
    .from(remoteSessions)
    .where(
      and(
        eq(remoteSessions.deviceId, deviceId),
        inArray(remoteSessions.state, LIVE_STATES),
        sql`(${remoteSessions.connectedAt} is not null or ${remoteSessions.createdAt} > ${createdAfter.toISOString()}::timestamptz)`,
      ),
    )
    .limit(1);
  return row;
}

export async function findSession(db: Db, zoneId: number, id: number): Promise<RemoteSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(remoteSessions)
    .where(and(eq(remoteSessions.organizationId, zoneId), eq(remoteSessions.id, id)));
  return row;
}

export async function findSessionById(db: Db, id: number): Promise<RemoteSessionRow | undefined> {
  const [row] = await db.select().from(remoteSessions).where(eq(remoteSessions.id, id));
  return row;
}

/** A page of a device's sessions, newest first. */
export async function findDeviceSessions(
  db: Db,
  zoneId: number,
  deviceId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: RemoteSessionRow[]; size: number }> {
  const where = and(eq(remoteSessions.organizationId, zoneId), eq(remoteSessions.deviceId, deviceId));
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(remoteSessions)
      .where(where)
      .orderBy(desc(remoteSessions.id))
      .offset(page.offset)
      .limit(page.limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(remoteSessions)
      .where(where),
  ]);
  return { rows, size: Number(count?.n ?? 0) };
}

/** Records the agent's answer on a pending session of that device; undefined when it is not pending. */
export async function answerConsent(
  exec: Exec,
  id: number,
  deviceId: number,
  consent: RemoteConsent,
  now: Date,
  endReason: string = 'refused',
): Promise<RemoteSessionRow | undefined> {
  const refused = consent === 'refused';
  const [row] = await exec
    .update(remoteSessions)
    .set({
      consent,
      state: refused ? 'refused' : 'open',
      ...(refused ? { endedAt: now, endReason } : {}),
    })
    .where(and(eq(remoteSessions.id, id), eq(remoteSessions.deviceId, deviceId), eq(remoteSessions.state, 'pending')))
    .returning();
  return row;
}

/**
 * Consumes the browser's single-use token: the first upgrade presenting it before `join_by`
 * gets the row; a reuse, a late use or another session's id gets nothing.
 */
export async function consumeBrowserToken(
  exec: Exec,
  id: number,
  tokenHash: string,
  node: string,
  now: Date,
): Promise<RemoteSessionRow | undefined> {
  const [row] = await exec
    .update(remoteSessions)
    .set({ browserJoinedAt: now, relayNode: sql`coalesce(${remoteSessions.relayNode}, ${node})` })
    .where(
      and(
        eq(remoteSessions.id, id),
        eq(remoteSessions.tokenHash, tokenHash),
        isNull(remoteSessions.browserJoinedAt),
        inArray(remoteSessions.state, LIVE_STATES),
        gt(remoteSessions.joinBy, now),
      ),
    )
    .returning();
  return row;
}

/** The agent's end joins once, only for its own device's open session created after `createdAfter`. */
export async function claimAgentEnd(
  exec: Exec,
  id: number,
  deviceId: number,
  node: string,
  createdAfter: Date,
  now: Date,
): Promise<RemoteSessionRow | undefined> {
  const [row] = await exec
    .update(remoteSessions)
    .set({ agentJoinedAt: now, relayNode: sql`coalesce(${remoteSessions.relayNode}, ${node})` })
    .where(
      and(
        eq(remoteSessions.id, id),
        eq(remoteSessions.deviceId, deviceId),
        isNull(remoteSessions.agentJoinedAt),
        eq(remoteSessions.state, 'open'),
        gt(remoteSessions.createdAt, createdAfter),
      ),
    )
    .returning();
  return row;
}

export async function markConnected(exec: Exec, id: number, now: Date): Promise<void> {
  await exec
    .update(remoteSessions)
    .set({ connectedAt: now })
    .where(and(eq(remoteSessions.id, id), isNull(remoteSessions.connectedAt)));
}

/** Ends a live session once; undefined when it had already ended. */
export async function finishSession(
  exec: Exec,
  id: number,
  end: {
    now: Date;
    reason: string;
    bytesToDevice?: number;
    bytesFromDevice?: number;
    transcript?: string | null;
    transcriptTruncated?: boolean;
  },
): Promise<RemoteSessionRow | undefined> {
  const [row] = await exec
    .update(remoteSessions)
    .set({
      state: 'ended',
      endedAt: end.now,
      endReason: end.reason,
      ...(end.bytesToDevice !== undefined ? { bytesToDevice: end.bytesToDevice } : {}),
      ...(end.bytesFromDevice !== undefined ? { bytesFromDevice: end.bytesFromDevice } : {}),
      ...(end.transcript !== undefined ? { transcript: end.transcript } : {}),
      ...(end.transcriptTruncated !== undefined ? { transcriptTruncated: end.transcriptTruncated } : {}),
    })
    .where(and(eq(remoteSessions.id, id), inArray(remoteSessions.state, LIVE_STATES)))
    .returning();
  return row;
}

/** Marks live sessions created before `createdBefore` and never connected as expired; returns them. */
export async function expireUnjoined(exec: Exec, createdBefore: Date, now: Date): Promise<RemoteSessionRow[]> {
  return exec
    .update(remoteSessions)
    .set({ state: 'expired', endedAt: now, endReason: 'expired' })
    .where(
      and(
        inArray(remoteSessions.state, LIVE_STATES),
        isNull(remoteSessions.connectedAt),
        lt(remoteSessions.createdAt, createdBefore),
      ),
    )
    .returning();
}

export async function findSettings(exec: Exec, zoneId: number): Promise<RemoteSettingsRow | undefined> {
  const [row] = await exec.select().from(remoteSettings).where(eq(remoteSettings.organizationId, zoneId));
  return row;
}

export async function upsertSettings(
  exec: Exec,
  zoneId: number,
  values: { shellEnabled: boolean; unattended: boolean; unattendedGroupIds: number[]; idleTimeoutMinutes: number },
  now: Date,
): Promise<RemoteSettingsRow> {
  const [row] = await exec
    .insert(remoteSettings)
    .values({ organizationId: zoneId, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: remoteSettings.organizationId, set: { ...values, updatedAt: now } })
    .returning();
  return row!;
}
