import {
  FEATURE_RULES,
  featureOfRole,
  hasFeature,
  planLabelFor,
  type Feature,
} from '@patchwell/core/rules/entitlements';
import type { TierSubject } from '@patchwell/core/rules/tiers';
import type { AppContext } from '../../context';
import { appError, notFound } from '../../domain/errors';
import { findTopLevelZone, type ZoneRow } from './zones.store';

/**
 * The server's one gate on plans (core/rules/entitlements.ts decides): services call
 * {@link requireFeature} after the permission check, so a caller who may not see the zone
 * still gets 404 and one who may but whose plan lacks the feature gets 403.
 */

/** A zone row as the tier rules read it: its trial ended at its end time, or when the trial-end job marked it. */
export function tierSubject(zone: Pick<ZoneRow, 'plan' | 'trialEndTime' | 'trialExpired'>, now: Date): TierSubject {
  return {
    plan: zone.plan,
    trial_end_time: zone.trialEndTime?.toISOString() ?? null,
    trial_expired: isTrialExpired(zone, now),
  };
}

/** Has the zone's trial ended (by its end time, or marked by the trial-end job)? */
export function isTrialExpired(zone: Pick<ZoneRow, 'trialEndTime' | 'trialExpired'>, now: Date): boolean {
  return zone.trialEndTime !== null && (zone.trialExpired || zone.trialEndTime.getTime() <= now.getTime());
}

/**
 * Does `zone`'s plan (or unexpired trial) include `feature` now? For what a zone has already set
 * up and keeps running, e.g. a requirement that stops applying when its plan is left.
 */
export function zoneHasFeature(
  ctx: Pick<AppContext, 'clock'>,
  zone: Pick<ZoneRow, 'plan' | 'trialEndTime' | 'trialExpired'>,
  feature: Feature,
): boolean {
  const now = ctx.clock.now();
  return hasFeature(tierSubject(zone, now), feature, now.getTime());
}

/**
 * Refuses when `zone`'s plan (or unexpired trial) does not include `feature`. For
 * `create_zone` pass the new zone's parent. Remote control and zone creation keep the codes
 * the console already matches on; every other feature answers 403 `plans.feature_unavailable`
 * ('Feature Unavailable: … needs the Standard plan …').
 */
export function requireFeature(
  ctx: Pick<AppContext, 'clock'>,
  zone: Pick<ZoneRow, 'plan' | 'trialEndTime' | 'trialExpired'>,
  feature: Feature,
): void {
  if (zoneHasFeature(ctx, zone, feature)) return;
  if (feature === 'remote_control') throw appError('remote.upgrade');
  if (feature === 'create_zone') throw appError('zones.tier_required');
  throw appError('plans.feature_unavailable', {
    wording: { feature: FEATURE_RULES[feature].label, plan: planLabelFor(feature) },
  });
}

/**
 * Refuses giving `roleId` in `zone` when its plan lacks the role (core's `featureOfRole`):
 * Zone Administrator and Read Only on every plan, the delegated roles with role-based access.
 * Roles already held stay when a zone leaves its plan, as other features' settings do.
 */
export function requireRoleInPlan(
  ctx: Pick<AppContext, 'clock'>,
  zone: Pick<ZoneRow, 'plan' | 'trialEndTime' | 'trialExpired'>,
  roleId: number,
): void {
  const feature = featureOfRole(roleId);
  if (feature) requireFeature(ctx, zone, feature);
}

/** {@link zoneHasFeature} for the account: its plan is its top-level organisation's. */
export async function accountHasFeature(
  ctx: Pick<AppContext, 'clock' | 'db'>,
  accountId: number,
  feature: Feature,
): Promise<boolean> {
  const top = await findTopLevelZone(ctx.db, accountId);
  return top !== undefined && zoneHasFeature(ctx, top, feature);
}

/**
 * {@link requireFeature} for an account-wide setting (SAML connections, domains, the
 * account's MFA requirement, keys for every zone): the account's plan is its top-level
 * organisation's (spec A section 3, "Parent organisation").
 */
export async function requireAccountFeature(
  ctx: Pick<AppContext, 'clock' | 'db'>,
  accountId: number,
  feature: Feature,
): Promise<void> {
  const top = await findTopLevelZone(ctx.db, accountId);
  if (!top) throw notFound();
  requireFeature(ctx, top, feature);
}
