import type { Profile } from '@patchwell/core/auth/profile.schema';
import { isFeatureOn } from '../../app/access';

/**
 * Spec A section 4, literally: /dashboard redirects to /onboarding when the account has not
 * completed the quick start guide, unless `onboarding=0` is in the query and the onboarding
 * flag (`onboarding_zero_state`) is on.
 */
export function redirectsToOnboarding(profile: Profile, search: URLSearchParams): boolean {
  if (profile.account_completed_qsg) return false;
  const skipped = search.get('onboarding') === '0' && isFeatureOn(profile, 'onboarding_zero_state');
  return !skipped;
}
