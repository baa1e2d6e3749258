import {
  FEATURE_FLAG_NAMES,
  FEATURE_FLAGS,
  resolveFeatures,
  type FeatureFlag,
  type Features,
} from '@patchwell/core/shell/flags';
import type {
  FeatureFlagsState,
  PutFeatureFlagsBody,
  PutZonePlanBody,
  ZonePlan,
} from '@patchwell/core/shell/flags.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { changesOf, logAccountActivity, logActivity } from '../activity/activity.service';
import { requireAccount, requireAccountZone } from '../zones/zone-access.service';
import { findLevelFlags, setZonePlan, writeLevelFlags } from './flags.store';

type Overrides = Partial<Record<FeatureFlag, boolean>>;

const toOverrides = (rows: { name: string; enabled: boolean }[]): Overrides =>
  Object.fromEntries(
    rows.filter((r) => (FEATURE_FLAG_NAMES as string[]).includes(r.name)).map((r) => [r.name, r.enabled]),
  );

/** Core's defaults under PATCHWELL_FLAGS. */
const serverDefaults = (ctx: AppContext): Features => ({ ...FEATURE_FLAGS, ...ctx.config.flagDefaults });

async function accountState(ctx: AppContext, accountId: number): Promise<FeatureFlagsState> {
  const account = toOverrides(await findLevelFlags(ctx.db, accountId, null));
  const defaults = serverDefaults(ctx);
  return { defaults, account, effective: resolveFeatures({ ...defaults, ...account }) };
}

async function zoneState(ctx: AppContext, accountId: number, zoneId: number): Promise<FeatureFlagsState> {
  const { defaults, account } = await accountState(ctx, accountId);
  const zone = toOverrides(await findLevelFlags(ctx.db, accountId, zoneId));
  return { defaults, account, zone, effective: resolveFeatures({ ...defaults, ...account }, zone) };
}

function changeOf(body: PutFeatureFlagsBody) {
  const entries = Object.entries(body) as [FeatureFlag, boolean | null | undefined][];
  return {
    set: entries.flatMap(([name, v]) => (typeof v === 'boolean' ? [{ name, enabled: v }] : [])),
    remove: entries.flatMap(([name, v]) => (v === null ? [name] : [])),
  };
}

/** `GET /api/accounts/{accountId}/flags`: the account's flags (global administrators only). */
export async function getAccountFlags(ctx: AppContext, authz: Authz, accountId: number): Promise<FeatureFlagsState> {
  requireAccount(authz, accountId, 'Account', 'read');
  return accountState(ctx, accountId);
}

/** `PUT /api/accounts/{accountId}/flags`: sets or removes the account's overrides; every zone without its own follows. */
export async function putAccountFlags(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  body: PutFeatureFlagsBody,
): Promise<FeatureFlagsState> {
  requireAccount(authz, accountId, 'Account', 'modify');
  await writeLevelFlags(ctx.db, accountId, null, changeOf(body));
  ctx.logger.info({ accountId, flags: body, by: authz.userId }, 'account feature flags changed');
  await logAccountActivity(ctx, authz, accountId, 'account.flags', { type: 'account', id: accountId }, { flags: body });
  return accountState(ctx, accountId);
}

/** `GET /api/accounts/{accountId}/zones/{zoneId}/flags`: a zone's flags and where each comes from. */
export async function getZoneFlags(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  zoneId: number,
): Promise<FeatureFlagsState> {
  await requireAccountZone(ctx, authz, accountId, zoneId, 'Account', 'read');
  return zoneState(ctx, accountId, zoneId);
}

/** `PUT /api/accounts/{accountId}/zones/{zoneId}/flags`: sets or removes the zone's overrides (in its activity log). */
export async function putZoneFlags(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  zoneId: number,
  body: PutFeatureFlagsBody,
): Promise<FeatureFlagsState> {
  const zone = await requireAccountZone(ctx, authz, accountId, zoneId, 'Account', 'modify');
  await writeLevelFlags(ctx.db, accountId, zoneId, changeOf(body));
  const zoneObject = { type: 'zone', id: zoneId, name: zone.name };
  await logActivity(ctx, authz, zoneId, 'zone.flags', zoneObject, { flags: body });
  return zoneState(ctx, accountId, zoneId);
}

/** `PUT /api/accounts/{accountId}/zones/{zoneId}/plan`: the zone's plan, until billing sets it (in its activity log). */
export async function putZonePlan(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  zoneId: number,
  body: PutZonePlanBody,
): Promise<ZonePlan> {
  const zone = await requireAccountZone(ctx, authz, accountId, zoneId, 'Account', 'modify');
  await setZonePlan(ctx.db, zoneId, body.plan);
  const changes = changesOf(zone, { plan: body.plan });
  await logActivity(ctx, authz, zoneId, 'zone.plan', { type: 'zone', id: zoneId, name: zone.name }, { changes });
  return { zone_id: zoneId, plan: body.plan };
}
