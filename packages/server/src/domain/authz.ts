import { can, canEnterZone, type Actor, type ZoneRef } from '@patchwell/core/zones/authz';
import type { Action, Resource } from '@patchwell/core/zones/permissions';
import { forbidden, notFound } from './errors';

/**
 * The authorization decision of one request. Services receive it and call {@link Authz.require}
 * (or {@link Authz.allow} after a check of their own) before they touch data; a guarded
 * request that reaches a success response without a decision is refused with 500, so a
 * missing check cannot ship (Fleet's authzcheck middleware does the same).
 */
export type Authz = {
  readonly actor: Actor;
  /** The user the request acts for (the key's owner for API keys). */
  readonly userId: number;
  /** How the caller authenticated. */
  readonly via: 'session' | 'api_key';
  /** The API key the request came with (null for sessions), for the activity log. */
  readonly apiKeyId: number | null;
  /** The client's address as the server's `TRUST_PROXY` setting reads it, for the activity log. */
  readonly clientAddress: string | null;
  /** True once a decision was recorded. */
  readonly decided: boolean;
  /**
   * Allows `action` on `resource` in `zone`, or throws: 404 when the caller may not even
   * see the zone (another account's, or one they do not belong to), 403 when they may see
   * it but their role lacks the permission.
   */
  require(zone: ZoneRef, resource: Resource, action: Action): void;
  /** Whether the caller may; records nothing (for showing or filtering). */
  may(zone: ZoneRef, resource: Resource, action: Action): boolean;
  /** Records a decision the service made itself; `reason` says which rule allowed it. */
  allow(reason: string): void;
};

/** A fresh, undecided authorization for a request made by `actor`. */
export function createAuthz(
  actor: Actor,
  userId: number,
  via: Authz['via'],
  origin: { apiKeyId?: number | null; clientAddress?: string | null } = {},
): Authz {
  let decided = false;
  return {
    actor,
    userId,
    via,
    apiKeyId: origin.apiKeyId ?? null,
    clientAddress: origin.clientAddress ?? null,
    get decided() {
      return decided;
    },
    require(zone, resource, action) {
      decided = true;
      if (!canEnterZone(actor, zone)) throw notFound();
      if (!can(actor, zone, resource, action)) throw forbidden();
    },
    may(zone, resource, action) {
      return can(actor, zone, resource, action);
    },
    allow(reason) {
      if (!reason) throw new Error('Authz.allow needs a reason.');
      decided = true;
    },
  };
}
