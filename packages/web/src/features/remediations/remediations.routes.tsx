import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/chunks';
import { PATHS } from '../../app/paths';
import { AVR, g } from '../../app/route-helpers';

/** The remediation pages under Manage, shown while AVR is on (paths relative to /console/manage). */
export const remediationRoutes: RouteObject[] = [
  {
    path: 'remediations',
    loader: g((m) => m.guard([m.needsFlag(AVR, true, PATHS.manageHome)])),
    lazy: lazyPage(
      () => import('./RemediationsPage'),
      (m) => m.RemediationsPage,
    ),
  },
  {
    path: 'remediations/cves/:cve',
    loader: g((m) => m.guard([m.needsFlag(AVR, true, PATHS.manageHome)])),
    lazy: lazyPage(
      () => import('./CvePage'),
      (m) => m.CvePage,
    ),
  },
  {
    path: 'remediations/:batchId',
    loader: g((m) => m.guard([m.needsFlag(AVR, true, PATHS.manageHome)])),
    lazy: lazyPage(
      () => import('./RemediationBatchPage'),
      (m) => m.RemediationBatchPage,
    ),
    children: [
      {
        index: true,
        lazy: lazyPage(
          () => import('./batch/VulnerabilitiesTab'),
          (m) => m.VulnerabilitiesTab,
        ),
      },
      {
        path: 'solutions',
        lazy: lazyPage(
          () => import('./batch/SolutionsTab'),
          (m) => m.SolutionsTab,
        ),
      },
      {
        path: 'unknown-devices',
        lazy: lazyPage(
          () => import('./batch/UnknownHostsTab'),
          (m) => m.UnknownHostsTab,
        ),
      },
    ],
  },
];
