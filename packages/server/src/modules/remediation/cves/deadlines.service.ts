import { REMEDIATION_DEADLINES_DEFAULT, type RemediationDeadlines } from '@patchwell/core/remediation/cves.schema';
import type { AppContext } from '../../../context';
import type { Authz } from '../../../domain/authz';
import { logActivity } from '../../activity/activity.service';
import type { Exec } from './cves.store';
import { cveZone } from './cve-zone';
import { findDeadlines, upsertDeadlines } from './deadlines.store';

/**
 * The zone's remediation deadlines: days to fix a CVE on a device by severity, from its first
 * sighting (core's `dueAt`). A zone that never set them uses {@link REMEDIATION_DEADLINES_DEFAULT}.
 */

/** The deadlines in force in the zone (no permission check: for services computing due dates). */
export async function deadlinesFor(
  ctx: Pick<AppContext, 'db'>,
  zoneId: number,
  exec: Exec = ctx.db,
): Promise<RemediationDeadlines> {
  return (await findDeadlines(exec, zoneId)) ?? { ...REMEDIATION_DEADLINES_DEFAULT };
}

/** `GET /api/orgs/{orgId}/remediation-deadlines` (Task.read). */
export async function getDeadlines(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  o: number | undefined,
): Promise<RemediationDeadlines> {
  const zone = await cveZone(ctx, authz, orgId, o, 'read');
  return deadlinesFor(ctx, zone.id);
}

/** `PUT /api/orgs/{orgId}/remediation-deadlines` (Task.modify): replaces them, logged with the before and after. */
export async function putDeadlines(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  o: number | undefined,
  body: RemediationDeadlines,
): Promise<RemediationDeadlines> {
  const zone = await cveZone(ctx, authz, orgId, o, 'modify');
  const at = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const before = await deadlinesFor(ctx, zone.id, tx);
    await upsertDeadlines(tx, zone.id, body, authz.userId, at);
    await logActivity(
      ctx,
      authz,
      zone.id,
      'remediation_deadlines.update',
      { type: 'remediation_deadlines', id: zone.id },
      { before, after: body },
      tx,
    );
  });
  return body;
}
