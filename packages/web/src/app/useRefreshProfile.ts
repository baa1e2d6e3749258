import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useRevalidator } from 'react-router';
import { profileQuery } from '../features/auth/session.api';

/**
 * Reloads the profile now (after the user changed zones or roles) and re-runs the route
 * loaders so every page sees the new zones, roles and permissions. Otherwise the profile
 * is refetched only when older than 30 minutes.
 */
export function useRefreshProfile(zoneId: number | undefined): () => Promise<void> {
  const queryClient = useQueryClient();
  const revalidator = useRevalidator();
  return useCallback(async () => {
    await queryClient.fetchQuery({ ...profileQuery(zoneId), staleTime: 0 }).catch(() => undefined);
    await revalidator.revalidate();
  }, [queryClient, revalidator, zoneId]);
}
