import type { ActivityChange, ActivityDetails, ActivityVia } from '@patchwell/core/activity/activity.schema';
import type { Clock } from '../../context';
import type { Db } from '../../db/client';
import type { Tx } from '../commands/commands.store';
import { insertActivities, insertActivity, type ActivityEntry } from './activity.store';

/**
 * The activity log's writers: every change a person, an API key, an agent or the server
 * makes writes one event (who, through what, which action on which object, the changed
 * fields, the client's address). Pass the transaction of the change when there is one, so
 * the event lands with it or not at all. Reading is in activity-list.service.ts.
 */

/**
 * Who acted. A request's `Authz` is one (user, `via`, API key, client address); public
 * routes and the server build their own.
 */
export type ActivityActor = {
  userId: number | null;
  via: ActivityVia;
  apiKeyId?: number | null;
  deviceId?: number | null;
  clientAddress?: string | null;
};

/** The server acting on its own (a schedule, a sweep). */
export const SYSTEM_ACTOR: ActivityActor = { userId: null, via: 'system' };

/** What the action was done to: its type, id and name at the time. */
export type ActivityObject = { type: string; id: string | number | null; name?: string | null };

type Exec = Db | Tx;
/** Where events go by default (a connection, or a transaction) and the time they get. */
type Ctx = { db: Exec; clock: Clock };

/**
 * Field names whose values never go into the log, at any depth: passwords, tokens, keys,
 * secrets, hashes and one-time codes. `api_key_id`-style ids and `key_name` stay.
 */
const SECRET_FIELD =
  /password|passphrase|passwd|secret|token|hash|totp|(^|_)otp($|_)|mfa|^code$|verification_code|(^|_)key$/i;

/** `details` without secret fields (deeply); exported for its test. */
export function withoutSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutSecrets) as T;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key !== 'changes' && SECRET_FIELD.test(key)) continue;
    out[key] = withoutSecrets(v);
  }
  return out as T;
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The fields of `fields` (default: every field of `after`) whose value differs between
 * `before` and `after`, as `{ field: { from, to } }`: a change's summary holds only what
 * changed. Fields absent from `after` (not part of the change) are left out.
 */
export function changesOf<T extends Record<string, unknown>>(
  before: Partial<T>,
  after: Partial<T>,
  fields: readonly (keyof T & string)[] = Object.keys(after) as (keyof T & string)[],
): Record<string, ActivityChange> {
  const changes: Record<string, ActivityChange> = {};
  for (const field of fields) {
    if (!(field in after) || after[field] === undefined) continue;
    if (same(before[field], after[field])) continue;
    changes[field] = { from: before[field] ?? null, to: after[field] ?? null };
  }
  return changes;
}

function entryOf(
  ctx: Ctx,
  actor: ActivityActor,
  where: { organizationId: number | null; accountId?: number | null },
  action: string,
  object: ActivityObject,
  details: ActivityDetails,
): ActivityEntry {
  return {
    ...where,
    userId: actor.userId,
    apiKeyId: actor.apiKeyId ?? null,
    deviceId: actor.deviceId ?? null,
    via: actor.via,
    action,
    objectType: object.type,
    objectId: object.id === null ? null : String(object.id),
    objectName: object.name ?? null,
    details: withoutSecrets(details),
    clientAddress: actor.clientAddress ?? null,
    createdAt: ctx.clock.now(),
  };
}

/** Writes a zone's event (`action` as `object.verb`, e.g. `device.reboot`). */
export async function logActivity(
  ctx: Ctx,
  actor: ActivityActor,
  zoneId: number,
  action: string,
  object: ActivityObject,
  details: ActivityDetails = {},
  exec: Exec = ctx.db,
): Promise<void> {
  await insertActivity(exec, entryOf(ctx, actor, { organizationId: zoneId }, action, object, details));
}

/** Writes one event per object (a batch over up to 500 devices) in one statement. */
export async function logActivityMany(
  ctx: Ctx,
  actor: ActivityActor,
  zoneId: number,
  action: string,
  objects: ActivityObject[],
  details: ActivityDetails = {},
  exec: Exec = ctx.db,
): Promise<void> {
  await insertActivities(
    exec,
    objects.map((object) => entryOf(ctx, actor, { organizationId: zoneId }, action, object, details)),
  );
}

/** Writes one event per object, each with its own details, in one statement per chunk. */
export async function logActivities(
  ctx: Ctx,
  actor: ActivityActor,
  zoneId: number,
  action: string,
  events: { object: ActivityObject; details: ActivityDetails }[],
  exec: Exec = ctx.db,
): Promise<void> {
  await insertActivities(
    exec,
    events.map((e) => entryOf(ctx, actor, { organizationId: zoneId }, action, e.object, e.details)),
  );
}

/**
 * Writes an account-level event: one that belongs to no zone (a sign-in, an account user,
 * the account's flags). A zone's log shows it to the account's global administrators, and
 * to the zone's readers when the acting user is one of the zone's members.
 */
export async function logAccountActivity(
  ctx: Ctx,
  actor: ActivityActor,
  accountId: number,
  action: string,
  object: ActivityObject,
  details: ActivityDetails = {},
  exec: Exec = ctx.db,
): Promise<void> {
  await insertActivity(exec, entryOf(ctx, actor, { organizationId: null, accountId }, action, object, details));
}

/** One outcome a device's agent reported (a finished command). */
export type DeviceOutcome = {
  zoneId: number;
  deviceId: number;
  action: string;
  object: ActivityObject;
  details: ActivityDetails;
};

/** Writes outcomes reported by agents, the device as actor, in one statement. */
export async function logDeviceOutcomes(ctx: Ctx, outcomes: DeviceOutcome[], exec: Exec = ctx.db): Promise<void> {
  await insertActivities(
    exec,
    outcomes.map((o) =>
      entryOf(
        ctx,
        { userId: null, via: 'agent', deviceId: o.deviceId },
        { organizationId: o.zoneId },
        o.action,
        o.object,
        o.details,
      ),
    ),
  );
}
