import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/chunks';
import { PATHS } from '../../app/paths';
import { g, rel } from '../../app/route-helpers';

/** The Reports area (paths relative to /console/reports). */
export const reportsRoute: RouteObject = {
  path: rel(PATHS.reportsHome),
  lazy: lazyPage(
    () => import('./ReportsLayout'),
    (m) => m.ReportsLayout,
  ),
  children: [
    {
      index: true,
      lazy: lazyPage(
        () => import('./ReportsHomePage'),
        (m) => m.ReportsHomePage,
      ),
    },
    {
      path: 'overview',
      lazy: lazyPage(
        () => import('./OverviewPage'),
        (m) => m.OverviewPage,
      ),
    },
    {
      path: 'prepatch',
      lazy: lazyPage(
        () => import('./PrepatchPage'),
        (m) => m.PrepatchPage,
      ),
    },
    {
      path: 'needs-attention',
      lazy: lazyPage(
        () => import('./NeedsAttentionPage'),
        (m) => m.NeedsAttentionPage,
      ),
    },
    {
      path: 'data-extracts',
      lazy: lazyPage(
        () => import('./DataExtractsPage'),
        (m) => m.DataExtractsPage,
      ),
    },
    {
      path: 'schedules',
      lazy: lazyPage(
        () => import('./schedules/ReportSchedulesPage'),
        (m) => m.ReportSchedulesPage,
      ),
    },
    {
      path: 'activity-log',
      lazy: lazyPage(
        () => import('./ActivityLogPage'),
        (m) => m.ActivityLogPage,
      ),
    },
    {
      path: 'policy-results',
      loader: g((m) => m.guard([m.needsFlag('policy_results_page', true, PATHS.reportsHome)])),
      lazy: lazyPage(
        () => import('./PolicyResultsPage'),
        (m) => m.PolicyResultsPage,
      ),
    },
    {
      path: 'policy-results/:policyUuid',
      loader: g((m) => m.guard([m.needsFlag('policy_results_page', true, PATHS.reportsHome)])),
      lazy: lazyPage(
        () => import('./PolicyResultPage'),
        (m) => m.PolicyResultPage,
      ),
    },
  ],
};
