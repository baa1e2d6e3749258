import { alias } from 'drizzle-orm/pg-core';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { CveExceptionKind } from '@patchwell/core/remediation/cves.schema';
import type { Db } from '../../../db/client';
import { queryRows } from '../../../db/raw';
import { cveExceptions } from '../../../db/remediation.schema';
import { users } from '../../../db/schema';
import { devices } from '../../../db/devices.schema';
import { ts, type Exec, type Tx } from './cves.store';

/**
 * The only SQL that writes `cve_exceptions`, and the `cve_events` exceptions cause: a device
 * becomes `excepted` when one starts, and returns to its own status when one is revoked or
 * expires (unless another still holds it, or it was remediated meanwhile).
 */

export type ExceptionRow = typeof cveExceptions.$inferSelect & {
  hostname: string | null;
  createdByEmail: string | null;
  revokedByEmail: string | null;
};

// Exception writes of one zone take turns, so an expiry's events are recorded once.
const EXCEPTION_LOCK = 0x5057_0011;

/** Serialises the zone's exception events for the rest of the transaction. */
export async function lockZoneExceptions(tx: Exec, zoneId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${EXCEPTION_LOCK}::int, ${zoneId}::int)`);
}

const creator = alias(users, 'creator');
const revoker = alias(users, 'revoker');

function selectExceptions(exec: Exec | Db) {
  return exec
    .select({
      exception: cveExceptions,
      hostname: devices.hostname,
      createdByEmail: creator.email,
      revokedByEmail: revoker.email,
    })
    .from(cveExceptions)
    .leftJoin(devices, eq(devices.id, cveExceptions.deviceId))
    .leftJoin(creator, eq(creator.id, cveExceptions.createdBy))
    .leftJoin(revoker, eq(revoker.id, cveExceptions.revokedBy));
}

const flatten = (r: {
  exception: typeof cveExceptions.$inferSelect;
  hostname: string | null;
  createdByEmail: string | null;
  revokedByEmail: string | null;
}): ExceptionRow => ({
  ...r.exception,
  hostname: r.hostname,
  createdByEmail: r.createdByEmail,
  revokedByEmail: r.revokedByEmail,
});

/** The zone's exception `id`, or null (another zone's answers null too). */
export async function findException(exec: Exec | Db, zoneId: number, id: number): Promise<ExceptionRow | null> {
  const [row] = await selectExceptions(exec)
    .where(and(eq(cveExceptions.organizationId, zoneId), eq(cveExceptions.id, id)))
    .limit(1);
  return row ? flatten(row) : null;
}

/** Every exception of the CVE in the zone, newest first. */
export async function findExceptionsOfCve(db: Db, zoneId: number, cve: string): Promise<ExceptionRow[]> {
  const rows = await selectExceptions(db)
    .where(and(eq(cveExceptions.organizationId, zoneId), eq(cveExceptions.cve, cve)))
    .orderBy(desc(cveExceptions.createdAt), desc(cveExceptions.id));
  return rows.map(flatten);
}

/** An exception in force at `now` with exactly this scope (the device, or the whole zone). */
export async function findActiveWithScope(
  tx: Tx,
  zoneId: number,
  cve: string,
  deviceId: number | null,
  now: Date,
): Promise<number | null> {
  const [row] = await tx
    .select({ id: cveExceptions.id })
    .from(cveExceptions)
    .where(
      and(
        eq(cveExceptions.organizationId, zoneId),
        eq(cveExceptions.cve, cve),
        deviceId === null ? isNull(cveExceptions.deviceId) : eq(cveExceptions.deviceId, deviceId),
        isNull(cveExceptions.revokedAt),
        sql`(${cveExceptions.expiresAt} is null or ${cveExceptions.expiresAt} > ${ts(now)})`,
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

export async function insertException(
  tx: Tx,
  input: {
    zoneId: number;
    cve: string;
    deviceId: number | null;
    kind: CveExceptionKind;
    reason: string;
    expiresAt: Date | null;
    userId: number | null;
    at: Date;
  },
): Promise<number> {
  const [row] = await tx
    .insert(cveExceptions)
    .values({
      organizationId: input.zoneId,
      cve: input.cve,
      deviceId: input.deviceId,
      kind: input.kind,
      reason: input.reason,
      expiresAt: input.expiresAt,
      createdBy: input.userId,
      createdAt: input.at,
    })
    .returning({ id: cveExceptions.id });
  return row!.id;
}

/** Revokes the exception if it is still unrevoked; returns whether it did. */
export async function revokeExceptionRow(
  tx: Tx,
  zoneId: number,
  id: number,
  userId: number | null,
  at: Date,
): Promise<boolean> {
  const rows = await tx
    .update(cveExceptions)
    .set({ revokedAt: at, revokedBy: userId })
    .where(and(eq(cveExceptions.organizationId, zoneId), eq(cveExceptions.id, id), isNull(cveExceptions.revokedAt)))
    .returning({ id: cveExceptions.id });
  return rows.length > 0;
}

type ExceptionScope = { id: number; zoneId: number; cve: string; deviceId: number | null };

/** Another exception than `id` holds the state `s` at `at`. */
const heldByAnother = (id: number, at: Date) => sql`exists (
  select 1 from cve_exceptions o
   where o.organization_id = s.organization_id and o.cve = s.cve and o.id <> ${id}::int
     and (o.device_id is null or o.device_id = s.device_id)
     and o.created_at <= ${ts(at)}
     and (o.revoked_at is null or o.revoked_at > ${ts(at)})
     and (o.expires_at is null or o.expires_at > ${ts(at)}))`;

const coveredBy = (e: ExceptionScope) =>
  sql`s.organization_id = ${e.zoneId}::int and s.cve = ${e.cve}::text ${
    e.deviceId === null ? sql`` : sql`and s.device_id = ${e.deviceId}::int`
  }`;

/** An exception started: its devices not remediated and not already held by another become `excepted`. */
export async function insertExceptionStartEvents(
  tx: Tx,
  e: ExceptionScope & { kind: CveExceptionKind },
  at: Date,
): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    tx as unknown as Db,
    sql`with ev as (
          insert into cve_events (organization_id, cve, device_id, status, cause, details, at)
          select s.organization_id, s.cve, s.device_id, 'excepted', ${`exception:${e.id}`}::text,
                 ${JSON.stringify({ exception_id: e.id, kind: e.kind })}::jsonb, ${ts(at)}
            from cve_device_states s
            join devices d on d.id = s.device_id and d.removed_at is null
           where ${coveredBy(e)} and s.status <> 'remediated' and not ${heldByAnother(e.id, at)}
          returning 1
        ) select count(*)::int as n from ev`,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * An exception ended at `at` (revoked then, or expired then): its devices that no other
 * exception holds go back to their own status as of `at`, the last status event up to then.
 */
export async function insertExceptionEndEvents(
  tx: Exec,
  e: ExceptionScope,
  end: 'revoked' | 'expired',
  at: Date,
): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    tx as unknown as Db,
    sql`with back as (
          select s.organization_id, s.cve, s.device_id, coalesce((
                   select ev.status from cve_events ev
                    where ev.organization_id = s.organization_id and ev.cve = s.cve and ev.device_id = s.device_id
                      and ev.status <> 'excepted' and ev.at <= ${ts(at)}
                    order by ev.at desc, ev.id desc limit 1), s.status) as status
            from cve_device_states s
            join devices d on d.id = s.device_id and d.removed_at is null
           where ${coveredBy(e)} and s.first_seen_at <= ${ts(at)} and not ${heldByAnother(e.id, at)}
        ), ev as (
          insert into cve_events (organization_id, cve, device_id, status, cause, details, at)
          select organization_id, cve, device_id, status, ${`exception:${e.id}`}::text,
                 ${JSON.stringify({ exception_id: e.id, end })}::jsonb, ${ts(at)}
            from back where status <> 'remediated'
          returning 1
        ) select count(*)::int as n from ev`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Exceptions of the zone that expired by `now` and whose expiry has no events yet. */
export async function findUnrecordedExpiries(
  tx: Exec,
  zoneId: number,
  now: Date,
): Promise<(ExceptionScope & { expiresAt: Date })[]> {
  const rows = await tx
    .select({
      id: cveExceptions.id,
      zoneId: cveExceptions.organizationId,
      cve: cveExceptions.cve,
      deviceId: cveExceptions.deviceId,
      expiresAt: cveExceptions.expiresAt,
    })
    .from(cveExceptions)
    .where(
      and(
        eq(cveExceptions.organizationId, zoneId),
        isNull(cveExceptions.revokedAt),
        sql`${cveExceptions.expiresAt} <= ${ts(now)}`,
        sql`not exists (select 1 from cve_events ev
              where ev.organization_id = ${cveExceptions.organizationId} and ev.cve = ${cveExceptions.cve}
                and ev.cause = 'exception:' || ${cveExceptions.id} and ev.details->>'end' = 'expired')`,
      ),
    )
    .orderBy(cveExceptions.expiresAt, cveExceptions.id);
  return rows.map((r) => ({ ...r, expiresAt: r.expiresAt! }));
}

/** The zone's live device `id`, or null. */
export async function findZoneDevice(db: Db | Tx, zoneId: number, id: number): Promise<{ id: number } | null> {
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.organizationId, zoneId), eq(devices.id, id), isNull(devices.removedAt)))
    .limit(1);
  return row ?? null;
}
