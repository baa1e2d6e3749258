import { ONBOARDING_STEPS, type Onboarding, type OnboardingQuery } from '@patchwell/core/onboarding/onboarding.schema';
import { REPORT_RUN_FLAGS } from '@patchwell/core/reports/reports.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { logAccountActivity } from '../activity/activity.service';
import { isQuickStartCompleted, markQuickStartCompleted } from '../accounts/accounts.store';
import { requireZone } from '../zones/zone-access.service';
import { findOnboardingFacts } from './onboarding.store';

/** Opening the prepatch or overview report is "reviewing the results" (their run flags). */
const REVIEW_FLAGS = [REPORT_RUN_FLAGS.prepatch, REPORT_RUN_FLAGS.overview] as const;

/**
 * `GET /api/onboarding` (Endpoint.read): each step of the quick start guide from what
 * happened in the zone. Once every step is done the account's `account_completed_qsg` is set
 * (once; an account event says so) and the console goes on to the dashboard.
 */
export async function getOnboarding(ctx: AppContext, authz: Authz, query: OnboardingQuery): Promise<Onboarding> {
  const zone = await requireZone(ctx, authz, query.o, 'Endpoint', 'read');
  const facts = await findOnboardingFacts(ctx.db, zone.id, authz.userId, REVIEW_FLAGS);
  const done: Record<(typeof ONBOARDING_STEPS)[number], boolean> = {
    // The account and its zone exist: the caller is in it.
    set_up: true,
    add_device: facts.devices,
    scan: facts.scanned,
    review: facts.reviewed,
    patch: facts.patched,
  };
  const steps = ONBOARDING_STEPS.map((key, step) => ({ step, key, done: done[key] }));
  let completed = await isQuickStartCompleted(ctx.db, zone.accountId);
  if (!completed && steps.every((s) => s.done)) {
    await ctx.db.transaction(async (tx) => {
      if (await markQuickStartCompleted(tx, zone.accountId)) {
        await logAccountActivity(
          ctx,
          authz,
          zone.accountId,
          'account.quick_start_completed',
          { type: 'account', id: zone.accountId },
          {},
          tx,
        );
      }
    });
    completed = true;
  }
  return { steps, completed };
}
