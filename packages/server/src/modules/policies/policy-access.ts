import { POLICY_TYPE_FEATURE } from '@patchwell/core/rules/entitlements';
import type { Action, Resource } from '@patchwell/core/zones/permissions';
import type { AppContext } from '../../context';
import type { PolicyType } from '../../db/policies.schema';
import { notFound } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { requireZone } from '../zones/zone-access.service';
import type { ZoneRow } from '../zones/zones.store';
import { findPolicy, type PolicyRow } from './policies.store';

export { changesOf, logActivity } from '../activity/activity.service';

/** The permission resource of each policy type (spec B section 6). */
export const POLICY_RESOURCE: Record<PolicyType, Resource> = {
  patch: 'PatchPolicy',
  custom: 'CustomPolicy',
  required_software: 'RequiredSoftwarePolicy',
};

/** The plan feature each policy type belongs to (core/rules/entitlements.ts): saving one needs it. */
export const POLICY_FEATURE = POLICY_TYPE_FEATURE satisfies Record<PolicyType, unknown>;

export const ALL_POLICY_TYPES: PolicyType[] = ['patch', 'custom', 'required_software'];

/**
 * The zone, once the caller may `action` policies in it, and the policy types they may.
 * Checked with the Patch Policy permission: every role that reads one type reads all three.
 */
export async function requirePolicyZone(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  action: Action,
): Promise<{ zone: ZoneRow; types: PolicyType[] }> {
  const zone = await requireZone(ctx, authz, o, 'PatchPolicy', action);
  const ref = { id: zone.id, accountId: zone.accountId };
  return { zone, types: ALL_POLICY_TYPES.filter((t) => authz.may(ref, POLICY_RESOURCE[t], action)) };
}

/**
 * A policy of the zone `o` once the caller may `action` on its type. Another zone's policy,
 * a deleted one and an unknown id all answer 404, after the permission check of the type
 * (Patch Policy when there is no policy), so ids reveal nothing.
 */
export async function requirePolicy(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
  action: Action,
): Promise<{ zone: ZoneRow; policy: PolicyRow }> {
  const zoneId = o ?? authz.actor.onlyZoneId ?? undefined;
  const policy = zoneId === undefined ? undefined : await findPolicy(ctx.db, zoneId, id);
  const zone = await requireZone(ctx, authz, zoneId, POLICY_RESOURCE[policy?.type ?? 'patch'], action);
  if (!policy) throw notFound();
  return { zone, policy };
}
