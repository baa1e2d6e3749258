import { ENTITLEMENT_TEXTS, disabledAtTrialEnd } from '@patchwell/core/rules/entitlements';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { startPeriodic, type PeriodicTask } from '../../periodic';
import { SYSTEM_ACTOR, logActivity } from '../activity/activity.service';
import { claimEndedTrials, findFirstZoneId, findTopLevelZone, markTrialEnded } from './zones.store';

/** How often each node looks for trials that ended. */
export const TRIAL_END_INTERVAL_MS = ONE_MINUTE_MS;

/** Zones handled per transaction: a short lock on few rows. */
const BATCH = 100;

export type TrialEndResult = { expired: number[]; disabled: number[] };

/**
 * Applies the end of every trial due by `ctx.clock` (spec A section 1: "Trial zones beyond
 * the first are disabled unless the customer upgrades to Complete"): each such zone is marked
 * `trial_expired`, and disabled unless it is its account's first zone or the account (its
 * top-level organisation) is on Complete. Each zone's log gets `zone.trial_expired`, and
 * `zone.disable` when it was disabled, in the transaction of the change. Safe on any number
 * of nodes: zones are claimed with `SKIP LOCKED` and a marked zone is never claimed again,
 * so each trial ends exactly once.
 */
export async function endDueTrials(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<TrialEndResult> {
  const result: TrialEndResult = { expired: [], disabled: [] };
  for (;;) {
    const now = ctx.clock.now();
    const handled = await ctx.db.transaction(async (tx) => {
      const zones = await claimEndedTrials(tx, now, BATCH);
      const accounts = new Map<number, { firstZoneId: number | undefined; plan: string | null }>();
      for (const zone of zones) {
        let account = accounts.get(zone.accountId);
        if (!account) {
          const top = await findTopLevelZone(tx, zone.accountId);
          account = { firstZoneId: await findFirstZoneId(tx, zone.accountId), plan: top?.plan ?? null };
          accounts.set(zone.accountId, account);
        }
        const disable =
          !zone.disabled &&
          disabledAtTrialEnd({ isFirstZone: zone.id === account.firstZoneId, accountPlan: account.plan });
        await markTrialEnded(tx, zone.id, disable);
        const object = { type: 'zone', id: zone.id, name: zone.name };
        const ctxTx = { db: tx, clock: ctx.clock };
        await logActivity(ctxTx, SYSTEM_ACTOR, zone.id, 'zone.trial_expired', object, {
          trial_end_time: zone.trialEndTime?.toISOString() ?? null,
          plan: zone.plan,
        });
        if (disable) {
          await logActivity(ctxTx, SYSTEM_ACTOR, zone.id, 'zone.disable', object, {
            reason: ENTITLEMENT_TEXTS.trialEndDisabled,
            changes: { disabled: { from: false, to: true } },
          });
          result.disabled.push(zone.id);
        }
        result.expired.push(zone.id);
      }
      return zones.length;
    });
    if (handled < BATCH) return result;
  }
}

/** Every node runs {@link endDueTrials} each minute (serve.ts starts it, shutdown stops it). */
export function startTrialEndJob(ctx: AppContext, intervalMs: number = TRIAL_END_INTERVAL_MS): PeriodicTask {
  return startPeriodic(
    ctx.logger,
    intervalMs,
    async () => {
      const { expired, disabled } = await endDueTrials(ctx);
      if (expired.length) ctx.logger.info({ expired, disabled }, 'trials ended');
    },
    'trial end job failed',
  );
}
