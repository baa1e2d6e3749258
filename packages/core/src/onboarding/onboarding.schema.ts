import { z } from 'zod';
import { ID_MAX } from '../constants';

/**
 * The quick start guide (spec A section 4: steps 0 set up, 1 add device, 2 scan for
 * updates, 3 review results, 4 patch the device). Each step is done when the real thing
 * happened in the zone; when all are, the account's `account_completed_qsg` is set.
 */

export const ONBOARDING_STEPS = ['set_up', 'add_device', 'scan', 'review', 'patch'] as const;
export type OnboardingStepKey = (typeof ONBOARDING_STEPS)[number];

const id = z.coerce.number().int().positive().max(ID_MAX);

/** `GET /api/onboarding?o` (alias `org`). */
export const ZOnboardingQuery = z
  .object({ o: id.optional(), org: id.optional() })
  .loose()
  .transform(({ o, org }) => ({ o: o ?? org }));
export type OnboardingQuery = z.infer<typeof ZOnboardingQuery>;

export const ZOnboardingStep = z.object({
  /** 0 to 4, the spec's numbering. */
  step: z.number().int(),
  key: z.enum(ONBOARDING_STEPS),
  done: z.boolean(),
});

/** 200 answer: each step's state, and whether the account has completed the guide. */
export const ZOnboarding = z.object({
  steps: z.array(ZOnboardingStep),
  /** The account's `account_completed_qsg` (set by this answer once every step is done). */
  completed: z.boolean(),
});
export type Onboarding = z.infer<typeof ZOnboarding>;
