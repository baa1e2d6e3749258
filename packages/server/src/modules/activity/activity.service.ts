import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import type { Db } from '../../db/client';
import type { Tx } from '../commands/commands.store';
import { insertActivity } from './activity.store';

/**
 * The zone's activity log: every change a person or an API key makes writes one event
 * (who, through what, which action on which object, with details that never hold secrets).
 * Pass the transaction of the change when there is one, so the event lands with it.
 */
export async function logActivity(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  authz: Pick<Authz, 'userId' | 'via'>,
  zoneId: number,
  action: string,
  object: { type: string; id: string | number | null },
  details: Record<string, unknown> = {},
  exec: Db | Tx = ctx.db,
): Promise<void> {
  await insertActivity(exec, {
    organizationId: zoneId,
    userId: authz.userId,
    via: authz.via,
    action,
    objectType: object.type,
    objectId: object.id === null ? null : String(object.id),
    details,
    createdAt: ctx.clock.now(),
  });
}
