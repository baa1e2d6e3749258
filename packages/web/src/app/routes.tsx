import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { PlaceholderId } from '../features/placeholders/placeholder-pages';
import type * as GuardsModule from './guards';
import { lazyLoader, lazyPage } from './chunks';
import { LEGACY_PATHS, PATHS, pathTo } from './paths';
import { PlainLayout, WidePlainLayout } from './PlainLayout';
import { GlobalLoader } from './GlobalLoader';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';
import { SHELL_ROUTE_ID } from './shell-context';

type Guards = typeof GuardsModule;

/**
 * A loader built from the guards module. The guards (session check, profile, zone choice,
 * permission and flag checks) load with the first signed-in page, not with the login page.
 */
function g(make: (guards: Guards) => (args: LoaderFunctionArgs) => unknown) {
  return lazyLoader(() => import('./guards'), make);
}

/** A signed-in page that shows its empty state until its feature arrives. */
function placeholder(page: PlaceholderId, level: 1 | 2 = 1): Pick<RouteObject, 'lazy'> {
  return {
    lazy: lazyPage(
      () => import('../features/placeholders/PlaceholderPage'),
      ({ PlaceholderPage }) =>
        function Placeholder() {
          return <PlaceholderPage page={page} level={level} />;
        },
    ),
  };
}

const notFoundPage = lazyPage(
  () => import('../features/notfound/NotFoundPage'),
  (m) => m.NotFoundPage,
);

const rel = (path: string) => path.replace(/^\//, '');
const q = (url: URL, name: string) => url.searchParams.get(name);

const AVR = 'automated_vulnerability_remediation' as const;

/** Routes under the signed-in layout (paths relative to /console). */
const shellRoutes: RouteObject[] = [
  {
    path: rel(PATHS.dashboard),
    lazy: lazyPage(
      () => import('../features/dashboard/DashboardPage'),
      (m) => m.DashboardPage,
    ),
  },
  {
    path: rel(PATHS.devices),
    lazy: lazyPage(
      () => import('../features/devices/DevicesPage'),
      (m) => m.DevicesPage,
    ),
  },
  {
    path: rel(PATHS.deviceDetail),
    lazy: lazyPage(
      () => import('../features/devices/DeviceDetailPage'),
      (m) => m.DeviceDetailPage,
    ),
  },
  {
    path: rel(PATHS.software),
    lazy: lazyPage(
      () => import('../features/software/SoftwarePage'),
      (m) => m.SoftwarePage,
    ),
  },
  {
    path: rel(PATHS.policyManualApproval),
    lazy: lazyPage(
      () => import('../features/policies/ManualApprovalPage'),
      (m) => m.ManualApprovalPage,
    ),
  },
  {
    path: rel(PATHS.manageHome),
    children: [
      {
        index: true,
        lazy: lazyPage(
          () => import('../features/manage/ManageHomePage'),
          (m) => m.ManageHomePage,
        ),
      },
      {
        path: 'policies',
        lazy: lazyPage(
          () => import('../features/policies/PoliciesPage'),
          (m) => m.PoliciesPage,
        ),
      },
      {
        path: 'policies/create',
        lazy: lazyPage(
          () => import('../features/policies/CreatePolicyPage'),
          (m) => m.CreatePolicyPage,
        ),
      },
      {
        path: 'policies/:policyId',
        lazy: lazyPage(
          () => import('../features/policies/PolicyEditorPage'),
          (m) => m.PolicyEditorPage,
        ),
      },
      {
        path: 'groups',
        lazy: lazyPage(
          () => import('../features/groups/GroupsPage'),
          (m) => m.GroupsPage,
        ),
      },
      {
        path: 'groups/create-group',
        lazy: lazyPage(
          () => import('../features/groups/GroupEditorPage'),
          (m) => m.CreateGroupPage,
        ),
      },
      {
        path: 'groups/:groupId',
        lazy: lazyPage(
          () => import('../features/groups/GroupEditorPage'),
          (m) => m.GroupEditorPage,
        ),
      },
      {
        // The tasks list: admin only, and replaced by the remediations view while AVR is on (spec B section 2).
        path: 'tasks',
        loader: g((m) => m.guard([m.needsFlag(AVR, false, PATHS.manageHome), m.needsZoneAdmin(PATHS.manageHome)])),
        lazy: lazyPage(
          () => import('../features/tasks/TasksPage'),
          (m) => m.TasksPage,
        ),
      },
      {
        path: 'tasks/batches',
        loader: g((m) => m.guard([m.needsPermission('Task', 'read', PATHS.manageHome)])),
        lazy: lazyPage(
          () => import('../features/tasks/BatchesPage'),
          (m) => m.BatchesPage,
        ),
      },
      {
        path: 'tasks/batches/:batchId',
        loader: g((m) => m.guard([m.needsPermission('Task', 'read', PATHS.manageHome)])),
        lazy: lazyPage(
          () => import('../features/tasks/BatchDetailPage'),
          (m) => m.BatchDetailPage,
        ),
        children: [
          {
            index: true,
            lazy: lazyPage(
              () => import('../features/tasks/batch/BatchDetailsTab'),
              (m) => m.BatchDetailsTab,
            ),
          },
          {
            path: 'potential-issues',
            lazy: lazyPage(
              () => import('../features/tasks/batch/BatchIssuesTab'),
              (m) => m.BatchIssuesTab,
            ),
          },
        ],
      },
      {
        path: 'tasks/tasks/:taskId',
        loader: g((m) => m.guard([m.needsPermission('Task', 'read', PATHS.manageHome)])),
        lazy: lazyPage(
          () => import('../features/tasks/TaskDetailPage'),
          (m) => m.TaskDetailPage,
        ),
      },
      {
        path: 'remediations',
        loader: g((m) => m.guard([m.needsFlag(AVR, true, PATHS.manageHome)])),
        lazy: lazyPage(
          () => import('../features/remediations/RemediationsPage'),
          (m) => m.RemediationsPage,
        ),
      },
      {
        path: 'remediations/cves/:cve',
        loader: g((m) => m.guard([m.needsFlag(AVR, true, PATHS.manageHome)])),
        lazy: lazyPage(
          () => import('../features/remediations/CvePage'),
          (m) => m.CvePage,
        ),
      },
      {
        path: 'remediations/:batchId',
        loader: g((m) => m.guard([m.needsFlag(AVR, true, PATHS.manageHome)])),
        lazy: lazyPage(
          () => import('../features/remediations/RemediationBatchPage'),
          (m) => m.RemediationBatchPage,
        ),
        children: [
          {
            index: true,
            lazy: lazyPage(
              () => import('../features/remediations/batch/VulnerabilitiesTab'),
              (m) => m.VulnerabilitiesTab,
            ),
          },
          {
            path: 'solutions',
            lazy: lazyPage(
              () => import('../features/remediations/batch/SolutionsTab'),
              (m) => m.SolutionsTab,
            ),
          },
          {
            path: 'unknown-devices',
            lazy: lazyPage(
              () => import('../features/remediations/batch/UnknownHostsTab'),
              (m) => m.UnknownHostsTab,
            ),
          },
        ],
      },
      {
        path: 'worklet-catalog',
        lazy: lazyPage(
          () => import('../features/worklets/WorkletCatalogPage'),
          (m) => m.WorkletCatalogPage,
        ),
      },
      {
        path: 'worklet-catalog/:wid',
        lazy: lazyPage(
          () => import('../features/worklets/WorkletDetailPage'),
          (m) => m.WorkletDetailPage,
        ),
      },
      {
        path: 'get-started-mac-os',
        lazy: lazyPage(
          () => import('../features/manage/GetStartedMacOsPage'),
          (m) => m.GetStartedMacOsPage,
        ),
      },
      { path: 'maintenance-windows', loader: g((m) => m.maintenanceWindows), ...placeholder('maintenanceWindows') },
      { path: 'community-worklets', loader: g((m) => m.legacy(() => PATHS.workletCatalog)) },
    ],
  },
  {
    path: rel(PATHS.reportsHome),
    lazy: lazyPage(
      () => import('../features/reports/ReportsLayout'),
      (m) => m.ReportsLayout,
    ),
    children: [
      {
        index: true,
        lazy: lazyPage(
          () => import('../features/reports/ReportsHomePage'),
          (m) => m.ReportsHomePage,
        ),
      },
      {
        path: 'overview',
        lazy: lazyPage(
          () => import('../features/reports/OverviewPage'),
          (m) => m.OverviewPage,
        ),
      },
      {
        path: 'prepatch',
        lazy: lazyPage(
          () => import('../features/reports/PrepatchPage'),
          (m) => m.PrepatchPage,
        ),
      },
      {
        path: 'needs-attention',
        lazy: lazyPage(
          () => import('../features/reports/NeedsAttentionPage'),
          (m) => m.NeedsAttentionPage,
        ),
      },
      {
        path: 'data-extracts',
        lazy: lazyPage(
          () => import('../features/reports/DataExtractsPage'),
          (m) => m.DataExtractsPage,
        ),
      },
      {
        path: 'activity-log',
        lazy: lazyPage(
          () => import('../features/reports/ActivityLogPage'),
          (m) => m.ActivityLogPage,
        ),
      },
      {
        path: 'policy-results',
        loader: g((m) => m.guard([m.needsFlag('policy_results_page', true, PATHS.reportsHome)])),
        lazy: lazyPage(
          () => import('../features/reports/PolicyResultsPage'),
          (m) => m.PolicyResultsPage,
        ),
      },
      {
        path: 'policy-results/:policyUuid',
        loader: g((m) => m.guard([m.needsFlag('policy_results_page', true, PATHS.reportsHome)])),
        lazy: lazyPage(
          () => import('../features/reports/PolicyResultPage'),
          (m) => m.PolicyResultPage,
        ),
      },
    ],
  },
  {
    path: rel(PATHS.settings),
    lazy: lazyPage(
      () => import('../features/settings/SettingsLayout'),
      (m) => m.SettingsLayout,
    ),
    children: [
      { index: true, loader: g((m) => m.settingsIndex) },
      {
        path: 'profile',
        lazy: lazyPage(
          () => import('../features/settings/ProfilePage'),
          (m) => m.ProfilePage,
        ),
      },
      {
        path: 'billing',
        loader: g((m) => m.guard([m.needsPermission('Billing', 'read', PATHS.profile)])),
        ...placeholder('billing', 2),
      },
      {
        path: 'users',
        loader: g((m) => m.guard([m.needsPermission('Users', 'read', PATHS.profile)])),
        lazy: lazyPage(
          () => import('../features/users/UsersPage'),
          (m) => m.UsersPage,
        ),
      },
      {
        path: 'keys',
        lazy: lazyPage(
          () => import('../features/keys/KeysPage'),
          (m) => m.KeysPage,
        ),
      },
      { path: 'security', loader: g((m) => m.guard([m.needsSecurity])), ...placeholder('security', 2) },
      { path: 'apns', loader: g((m) => m.guard([m.needsApns])), ...placeholder('apns', 2) },
    ],
  },
  {
    path: rel(PATHS.global),
    children: [
      { index: true, loader: g((m) => m.forward(PATHS.setupAndConfiguration, [m.needsGlobalAccess])) },
      {
        path: 'setup',
        loader: g((m) => m.guard([m.needsGlobalAccess])),
        lazy: lazyPage(
          () => import('../features/global/GlobalSetupLayout'),
          (m) => m.GlobalSetupLayout,
        ),
        children: [
          { index: true, loader: g((m) => m.forward(PATHS.globalZones, [m.needsGlobalAccess])) },
          {
            path: 'zones',
            lazy: lazyPage(
              () => import('../features/global/GlobalZonesPage'),
              (m) => m.GlobalZonesPage,
            ),
          },
          {
            path: 'zones/create-zone',
            loader: g((m) => m.guard([m.needsGlobalAccess, m.needsTier3Parent])),
            lazy: lazyPage(
              () => import('../features/global/GlobalCreateZonePage'),
              (m) => m.GlobalCreateZonePage,
            ),
          },
          {
            path: 'zones/:zoneId',
            lazy: lazyPage(
              () => import('../features/global/ZoneEditorPage'),
              (m) => m.ZoneEditorPage,
            ),
          },
          { path: 'create-zone', loader: g((m) => m.legacy(() => PATHS.globalCreateZone, [], [m.needsGlobalAccess])) },
          {
            path: 'roles-and-permissions',
            lazy: lazyPage(
              () => import('../features/roles/RolesPermissionsPage'),
              (m) => m.RolesPermissionsPage,
            ),
          },
          {
            path: 'users',
            lazy: lazyPage(
              () => import('../features/global/GlobalUsersPage'),
              (m) => m.GlobalUsersPage,
            ),
          },
          {
            path: 'users/create-user',
            lazy: lazyPage(
              () => import('../features/global/UserEditorPage'),
              (m) => m.CreateUserPage,
            ),
          },
          {
            path: 'users/:userId',
            lazy: lazyPage(
              () => import('../features/global/UserEditorPage'),
              (m) => m.UserEditorPage,
            ),
          },
          { path: 'authentication', ...placeholder('globalAuthentication', 2) },
          { path: 'authentication/create-connection', ...placeholder('globalCreateConnection', 2) },
          { path: 'authentication/:connectionId', ...placeholder('globalConnectionDetail', 2) },
          { path: 'domains', ...placeholder('globalDomains', 2) },
          {
            path: 'settings',
            lazy: lazyPage(
              () => import('../features/global/GlobalSettingsPage'),
              (m) => m.GlobalSettingsPage,
            ),
          },
        ],
      },
      {
        path: 'devices',
        loader: g((m) => m.guard([m.needsGlobalDevices])),
        lazy: lazyPage(
          () => import('../features/global/GlobalDevicesPage'),
          (m) => m.GlobalDevicesPage,
        ),
      },
    ],
  },

  // Legacy aliases (spec A section 2, spec B section 2).
  {
    path: rel(LEGACY_PATHS.deviceDetail),
    loader: g((m) =>
      m.legacy((url) => (q(url, 's') ? pathTo(PATHS.deviceDetail, { deviceId: q(url, 's')! }) : PATHS.devices), ['s']),
    ),
  },
  { path: rel(LEGACY_PATHS.reportsOverview), loader: g((m) => m.legacy(() => PATHS.reportsOverview)) },
  { path: rel(LEGACY_PATHS.reportsPrepatch), loader: g((m) => m.legacy(() => PATHS.reportsPrepatch)) },
  { path: rel(LEGACY_PATHS.reportsNoncompliant), loader: g((m) => m.legacy(() => PATHS.reportsNeedsAttention)) },
  { path: rel(LEGACY_PATHS.dataExtracts), loader: g((m) => m.legacy(() => PATHS.reportsDataExtracts)) },
  { path: rel(LEGACY_PATHS.activityLog), loader: g((m) => m.legacy(() => PATHS.reportsActivityLog)) },
  { path: rel(LEGACY_PATHS.createGroup), loader: g((m) => m.legacy(() => PATHS.groupCreate)) },
  {
    path: rel(LEGACY_PATHS.groupEditor),
    loader: g((m) =>
      m.legacy(
        (url) => (q(url, 'gid') ? pathTo(PATHS.groupDetail, { groupId: q(url, 'gid')! }) : PATHS.groupCreate),
        ['gid'],
      ),
    ),
  },
  ...[LEGACY_PATHS.policyPatchEditor, LEGACY_PATHS.policyRequiredSoftwareEditor, LEGACY_PATHS.policyCustomEditor].map(
    (path): RouteObject => ({
      path: rel(path),
      loader: g((m) =>
        m.legacy(
          (url) => (q(url, 'pid') ? pathTo(PATHS.policyDetail, { policyId: q(url, 'pid')! }) : PATHS.policyCreate),
          ['pid'],
        ),
      ),
    }),
  ),
  {
    path: rel(LEGACY_PATHS.systemManagement),
    loader: g((m) => m.legacy((url) => (q(url, 'tab') === 'groups' ? PATHS.groups : PATHS.policiesHome), ['tab'])),
  },
  { path: rel(LEGACY_PATHS.communityWorklets), loader: g((m) => m.legacy(() => PATHS.workletCatalog)) },
  {
    path: rel(LEGACY_PATHS.zoneEditor),
    loader: g((m) =>
      m.legacy(
        (url) => (q(url, 'zid') ? pathTo(PATHS.globalZoneDetail, { zoneId: q(url, 'zid')! }) : PATHS.globalZones),
        ['zid'],
        [m.needsGlobalAccess],
      ),
    ),
  },
  {
    path: rel(LEGACY_PATHS.createUser),
    loader: g((m) => m.legacy(() => PATHS.globalCreateUser, [], [m.needsGlobalAccess])),
  },
  {
    path: rel(LEGACY_PATHS.userEditor),
    loader: g((m) =>
      m.legacy(
        (url) => (q(url, 'uid') ? pathTo(PATHS.globalUserDetail, { userId: q(url, 'uid')! }) : PATHS.globalUsers),
        ['uid'],
        [m.needsGlobalAccess],
      ),
    ),
  },
];

/** The console's route tree (relative to the /console basename). */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    // The first page's loaders (session, profile) run before anything renders: show the bar.
    HydrateFallback: GlobalLoader,
    errorElement: <RouteError isInsideRoot={false} />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          {
            index: true,
            loader: ({ request }) => redirect(PATHS.login + new URL(request.url).search),
          },
          {
            Component: PlainLayout,
            children: [
              {
                path: rel(PATHS.login),
                lazy: lazyPage(
                  () => import('../features/auth/LoginPage'),
                  (m) => m.LoginPage,
                ),
              },
              {
                path: rel(PATHS.signup),
                loader: g((m) => m.signupLoader),
                lazy: lazyPage(
                  () => import('../features/auth/SignUpPage'),
                  (m) => m.SignUpPage,
                ),
              },
              {
                path: rel(PATHS.accountCreated),
                lazy: lazyPage(
                  () => import('../features/auth/AccountCreatedPage'),
                  (m) => m.AccountCreatedPage,
                ),
              },
              {
                path: rel(PATHS.forgotPassword),
                loader: g((m) => () => m.authMilestone1Loader()),
                lazy: lazyPage(
                  () => import('../features/auth/PasswordPages'),
                  (m) => m.ForgotPasswordPage,
                ),
              },
              {
                path: rel(PATHS.passwordReset),
                loader: g((m) => () => m.authMilestone1Loader()),
                lazy: lazyPage(
                  () => import('../features/auth/PasswordPages'),
                  (m) => m.PasswordResetPage,
                ),
              },
              {
                path: rel(PATHS.acceptInvite),
                lazy: lazyPage(
                  () => import('../features/auth/AcceptInvitePage'),
                  (m) => m.AcceptInvitePage,
                ),
              },
              {
                path: rel(PATHS.unlock),
                lazy: lazyPage(
                  () => import('../features/auth/UnlockPage'),
                  (m) => m.UnlockPage,
                ),
              },
            ],
          },
          {
            id: SHELL_ROUTE_ID,
            loader: g((m) => m.shellLoader),
            // Every navigation re-checks the session (spec A section 4); the profile stays cached.
            shouldRevalidate: () => true,
            lazy: lazyPage(
              () => import('../features/shell/ShellLayout'),
              (m) => m.ShellLayout,
            ),
            children: shellRoutes,
          },
          {
            Component: WidePlainLayout,
            children: [
              { path: rel(PATHS.notFound), lazy: notFoundPage },
              { path: '*', lazy: notFoundPage },
            ],
          },
        ],
      },
    ],
  },
];
