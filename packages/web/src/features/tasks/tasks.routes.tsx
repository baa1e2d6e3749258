import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/chunks';
import { PATHS } from '../../app/paths';
import { AVR, g } from '../../app/route-helpers';

/** The task and batch pages under Manage (paths relative to /console/manage). */
export const taskRoutes: RouteObject[] = [
  {
    // The tasks list: admin only, and replaced by the remediations view while AVR is on (spec B section 2).
    path: 'tasks',
    loader: g((m) => m.guard([m.needsFlag(AVR, false, PATHS.manageHome), m.needsZoneAdmin(PATHS.manageHome)])),
    lazy: lazyPage(
      () => import('./TasksPage'),
      (m) => m.TasksPage,
    ),
  },
  {
    path: 'tasks/batches',
    loader: g((m) => m.guard([m.needsPermission('Task', 'read', PATHS.manageHome)])),
    lazy: lazyPage(
      () => import('./BatchesPage'),
      (m) => m.BatchesPage,
    ),
  },
  {
    path: 'tasks/batches/:batchId',
    loader: g((m) => m.guard([m.needsPermission('Task', 'read', PATHS.manageHome)])),
    lazy: lazyPage(
      () => import('./BatchDetailPage'),
      (m) => m.BatchDetailPage,
    ),
    children: [
      {
        index: true,
        lazy: lazyPage(
          () => import('./batch/BatchDetailsTab'),
          (m) => m.BatchDetailsTab,
        ),
      },
      {
        path: 'potential-issues',
        lazy: lazyPage(
          () => import('./batch/BatchIssuesTab'),
          (m) => m.BatchIssuesTab,
        ),
      },
    ],
  },
  {
    path: 'tasks/tasks/:taskId',
    loader: g((m) => m.guard([m.needsPermission('Task', 'read', PATHS.manageHome)])),
    lazy: lazyPage(
      () => import('./TaskDetailPage'),
      (m) => m.TaskDetailPage,
    ),
  },
];
