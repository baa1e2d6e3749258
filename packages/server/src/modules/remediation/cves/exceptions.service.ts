import {
  CVE_EXCEPTION_EXPIRY_PAST,
  type CveException,
  type CveExceptionBody,
} from '@patchwell/core/remediation/cves.schema';
import type { AppContext } from '../../../context';
import type { Authz } from '../../../domain/authz';
import { appError, notFound, validationError } from '../../../domain/errors';
import { logActivity } from '../../activity/activity.service';
import type { Exec } from './cves.store';
import { cveZone } from './cve-zone';
import { hasCveState } from './cve-view.store';
import {
  findActiveWithScope,
  findException,
  findUnrecordedExpiries,
  findZoneDevice,
  insertException,
  insertExceptionEndEvents,
  insertExceptionStartEvents,
  lockZoneExceptions,
  revokeExceptionRow,
  type ExceptionRow,
} from './exceptions.store';

/**
 * Exceptions: a person decides a CVE is a false positive or an accepted risk, on one device or
 * the whole zone, with a reason and an optional expiry. While one holds, its devices leave the
 * counts (the view applies it at read time from the clock); each start and end is a status
 * event, and each decision an activity-log entry with who made it.
 */

/** The API shape; `state` is decided by `now`, so an expired exception reads as such at once. */
export function toCveException(row: ExceptionRow, now: Date): CveException {
  const state = row.revokedAt ? 'revoked' : row.expiresAt && row.expiresAt <= now ? 'expired' : 'active';
  return {
    id: row.id,
    cve: row.cve,
    device_id: row.deviceId,
    hostname: row.deviceId === null ? null : row.hostname,
    kind: row.kind,
    reason: row.reason,
    expires_at: row.expiresAt?.toISOString() ?? null,
    created_by_user: { id: row.createdBy, email: row.createdByEmail },
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    revoked_by_user: row.revokedAt ? { id: row.revokedBy, email: row.revokedByEmail } : null,
    state,
  };
}

/**
 * Writes the events of the zone's exceptions that expired by `now` and have none yet, dated
 * at their expiry. Nothing depends on it for counts (the view reads expiry from the clock);
 * it keeps the event history complete, and runs with the zone's next exception change or
 * accepted batch. Takes the zone's exception lock for the rest of the transaction.
 */
export async function recordExpiredExceptions(tx: Exec, zoneId: number, now: Date): Promise<void> {
  await lockZoneExceptions(tx, zoneId);
  for (const e of await findUnrecordedExpiries(tx, zoneId, now)) {
    await insertExceptionEndEvents(tx, e, 'expired', e.expiresAt);
  }
}

/** `POST /api/orgs/{orgId}/cves/{cve}/exceptions` (Task.modify). */
export async function createException(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  cve: string,
  body: CveExceptionBody,
): Promise<CveException> {
  const zone = await cveZone(ctx, authz, orgId, o, 'modify');
  const now = ctx.clock.now();
  const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at);
  if (expiresAt && expiresAt <= now) throw validationError({ expires_at: [CVE_EXCEPTION_EXPIRY_PAST] });
  const deviceId = body.device_id ?? null;
  if (deviceId !== null && !(await findZoneDevice(ctx.db, zone.id, deviceId))) throw notFound();
  // A CVE no scanner reported in the zone has nothing to except (and another zone's is not ours to name).
  if (!(await hasCveState(ctx.db, zone.id, cve))) throw notFound();

  const id = await ctx.db.transaction(async (tx) => {
    await recordExpiredExceptions(tx, zone.id, now);
    if ((await findActiveWithScope(tx, zone.id, cve, deviceId, now)) !== null) {
      throw appError('cve_exception.exists');
    }
    const id = await insertException(tx, {
      zoneId: zone.id,
      cve,
      deviceId,
      kind: body.kind,
      reason: body.reason,
      expiresAt,
      userId: authz.userId,
      at: now,
    });
    const devices = await insertExceptionStartEvents(tx, { id, zoneId: zone.id, cve, deviceId, kind: body.kind }, now);
    await logActivity(
      ctx,
      authz,
      zone.id,
      'cve_exception.create',
      { type: 'cve_exception', id },
      {
        cve,
        kind: body.kind,
        reason: body.reason,
        device_id: deviceId,
        expires_at: expiresAt?.toISOString() ?? null,
        devices_excepted: devices,
      },
      tx,
    );
    return id;
  });
  return toCveException((await findException(ctx.db, zone.id, id))!, now);
}

/** `DELETE /api/orgs/{orgId}/cve-exceptions/{exceptionId}` (Task.modify): revokes one still in force. */
export async function revokeException(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  exceptionId: number,
): Promise<CveException> {
  const zone = await cveZone(ctx, authz, orgId, o, 'modify');
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await recordExpiredExceptions(tx, zone.id, now);
    const row = await findException(tx, zone.id, exceptionId);
    if (!row) throw notFound();
    if (row.revokedAt || (row.expiresAt && row.expiresAt <= now)) throw appError('cve_exception.ended');
    if (!(await revokeExceptionRow(tx, zone.id, exceptionId, authz.userId, now))) {
      throw appError('cve_exception.ended');
    }
    const devices = await insertExceptionEndEvents(
      tx,
      { id: row.id, zoneId: zone.id, cve: row.cve, deviceId: row.deviceId },
      'revoked',
      now,
    );
    await logActivity(
      ctx,
      authz,
      zone.id,
      'cve_exception.revoke',
      { type: 'cve_exception', id: row.id },
      { cve: row.cve, kind: row.kind, device_id: row.deviceId, devices_restored: devices },
      tx,
    );
  });
  return toCveException((await findException(ctx.db, zone.id, exceptionId))!, now);
}
