import type { AppContext } from '../../context';
import { zoneHasFeature } from '../zones/entitlements.service';
import { findMfaRequirements } from './mfa.store';

/**
 * Must the user sign in with a second factor? A requirement set by their account or by a
 * zone they reach applies while its plan includes requiring it (Standard and up, or a trial):
 * a zone that left the plan keeps the setting, unenforced, until it upgrades again. The
 * user's own factor is never affected: whoever enrolled still verifies.
 */
export async function isMfaRequired(ctx: Pick<AppContext, 'db' | 'clock'>, userId: number): Promise<boolean> {
  const rows = await findMfaRequirements(ctx.db, userId);
  return rows.some((row) =>
    zoneHasFeature(
      ctx,
      // Raw rows: the drivers differ in whether a timestamp arrives parsed.
      { ...row, trialEndTime: row.trialEndTime && new Date(row.trialEndTime) },
      'mfa_enforcement',
    ),
  );
}
