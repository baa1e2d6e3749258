import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/chunks';
import { PATHS } from '../../app/paths';
import { g, rel } from '../../app/route-helpers';
import { policyRoutes } from '../policies/policies.routes';
import { remediationRoutes } from '../remediations/remediations.routes';
import { taskRoutes } from '../tasks/tasks.routes';

/** The Manage area: policies, groups, tasks or remediations, worklets. */
export const manageRoute: RouteObject = {
  path: rel(PATHS.manageHome),
  children: [
    {
      index: true,
      lazy: lazyPage(
        () => import('./ManageHomePage'),
        (m) => m.ManageHomePage,
      ),
    },
    ...policyRoutes,
    {
      path: 'groups',
      lazy: lazyPage(
        () => import('../groups/GroupsPage'),
        (m) => m.GroupsPage,
      ),
    },
    {
      path: 'groups/create-group',
      lazy: lazyPage(
        () => import('../groups/GroupEditorPage'),
        (m) => m.CreateGroupPage,
      ),
    },
    {
      path: 'groups/:groupId',
      lazy: lazyPage(
        () => import('../groups/GroupEditorPage'),
        (m) => m.GroupEditorPage,
      ),
    },
    ...taskRoutes,
    ...remediationRoutes,
    {
      path: 'worklet-catalog',
      lazy: lazyPage(
        () => import('../worklets/WorkletCatalogPage'),
        (m) => m.WorkletCatalogPage,
      ),
    },
    {
      path: 'worklet-catalog/:wid',
      lazy: lazyPage(
        () => import('../worklets/WorkletDetailPage'),
        (m) => m.WorkletDetailPage,
      ),
    },
    {
      path: 'get-started-mac-os',
      lazy: lazyPage(
        () => import('./GetStartedMacOsPage'),
        (m) => m.GetStartedMacOsPage,
      ),
    },
    {
      path: 'maintenance-windows',
      loader: g((m) => m.maintenanceWindows),
      lazy: lazyPage(
        () => import('../maintenance/MaintenanceWindowsPage'),
        (m) => m.MaintenanceWindowsPage,
      ),
    },
    { path: 'community-worklets', loader: g((m) => m.legacy(() => PATHS.workletCatalog)) },
  ],
};
