import { redirect, type PatchRoutesOnNavigationFunction, type RouteObject } from 'react-router';
import { lazyPage } from './chunks';
import { onTheWayIn } from './page-data';
import { legacyRoutes } from './legacy.routes';
import { PATHS } from './paths';
import { FullPlainLayout, PlainLayout, WidePlainLayout } from './PlainLayout';
import { GlobalLoader } from './GlobalLoader';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';
import { g, rel } from './route-helpers';
import { SHELL_ROUTE_ID } from './shell-context';

const notFoundPage = lazyPage(
  () => import('../features/notfound/NotFoundPage'),
  (m) => m.NotFoundPage,
);

/** Routes under the signed-in layout (paths relative to /console); each area has its own file. */
const shellRoutes: RouteObject[] = [
  {
    path: rel(PATHS.dashboard),
    lazy: lazyPage(
      () => import('../features/dashboard/DashboardPage'),
      (m) => m.DashboardPage,
      { route: (m) => ({ loader: m.dashboardLoader(), shouldRevalidate: onTheWayIn }) },
    ),
  },
  {
    path: rel(PATHS.onboarding),
    lazy: lazyPage(
      () => import('../features/onboarding/OnboardingPage'),
      (m) => m.OnboardingPage,
    ),
  },
  {
    path: rel(PATHS.devices),
    lazy: lazyPage(
      () => import('../features/devices/DevicesPage'),
      (m) => m.DevicesPage,
      { route: (m) => ({ loader: m.devicesLoader(), shouldRevalidate: onTheWayIn }) },
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
  // Manage, Reports, Settings and Global: added on the first visit (discoverAreaRoutes).
  ...legacyRoutes,
];

/**
 * The areas whose route trees load on the first navigation into them, by their first path
 * segment: the entry, which every page (the login page too) downloads before anything runs,
 * then carries only the routes above.
 */
const AREAS: Record<string, () => Promise<RouteObject>> = {
  [rel(PATHS.manageHome)]: () => import('../features/manage/manage.routes').then((m) => m.manageRoute),
  [rel(PATHS.reportsHome)]: () => import('../features/reports/reports.routes').then((m) => m.reportsRoute),
  [rel(PATHS.settings)]: () => import('../features/settings/settings.routes').then((m) => m.settingsRoute),
  [rel(PATHS.global)]: () => import('../features/global/global.routes').then((m) => m.globalRoute),
};

/**
 * React Router asks this for any address the known routes match only through a parameter or
 * the 404 page's `*` (a typed address, a link, a reload), before it runs loaders: an address
 * in an area gets the area's tree under the shell, and the router matches again. Patching an
 * area twice adds nothing (the router keeps the first copy).
 */
export const discoverAreaRoutes: PatchRoutesOnNavigationFunction = async ({ path, patch }) => {
  const segments = path.split('/').filter(Boolean);
  // The path includes the /console basename in the app, not in tests' memory routers.
  const area = segments[0] === 'console' ? segments[1] : segments[0];
  const load = area !== undefined && Object.hasOwn(AREAS, area) ? AREAS[area] : undefined;
  if (load) patch(SHELL_ROUTE_ID, [await load()]);
};

/** The router options that go with `routes`. */
export const routerOptions = { patchRoutesOnNavigation: discoverAreaRoutes };

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
                  { isFirstPage: true },
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
              {
                path: rel(PATHS.verifyEmail),
                lazy: lazyPage(
                  () => import('../features/auth/VerifyEmailPage'),
                  (m) => m.VerifyEmailPage,
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
            // Signed in, but outside the shell: the plain layout with banners hidden (spec B section 2).
            Component: FullPlainLayout,
            children: [
              {
                path: rel(PATHS.remoteControl),
                loader: g((m) => m.remoteControlLoader),
                lazy: lazyPage(
                  () => import('../features/remote/RemoteControlPage'),
                  (m) => m.RemoteControlPage,
                ),
              },
            ],
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
