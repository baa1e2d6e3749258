import type { QueryClient } from '@tanstack/react-query';
import { pageDataLoader, type PageDataAsk } from '../../app/page-data';
import { fleetDashboardQuery } from './dashboard.api';

/**
 * The dashboard route's loader: the fleet at a glance. Asked also for an account still on the
 * quick start (the page then shows the guide): the shell's profile, which tells, loads beside it.
 */
export const dashboardLoader = (client?: QueryClient) => pageDataLoader(dashboardData, client);

/** What the dashboard draws: the zone's fleet figures. */
export const dashboardData: PageDataAsk = (c, zoneId) => [c.ensureQueryData(fleetDashboardQuery(zoneId))];
