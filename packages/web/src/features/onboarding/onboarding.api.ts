import { ZOnboarding } from '@patchwell/core/onboarding/onboarding.schema';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export const onboardingKeys = { zone: (zoneId: number) => ['onboarding', zoneId] as const };

/** `GET /api/onboarding?o=`: each quick start step's state, from the zone's real data. */
export function useOnboarding(zoneId: number) {
  return useQuery({
    queryKey: onboardingKeys.zone(zoneId),
    queryFn: ({ signal }) => api.request('/api/onboarding', { query: { o: zoneId }, schema: ZOnboarding, signal }),
    // The steps happen elsewhere (an agent enrolls, an inventory arrives): look again now and then.
    refetchInterval: 10_000,
  });
}
