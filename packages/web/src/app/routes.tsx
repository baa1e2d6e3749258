import { redirect, type RouteObject } from 'react-router';
import { globalRoute } from '../features/global/global.routes';
import { manageRoute } from '../features/manage/manage.routes';
import { reportsRoute } from '../features/reports/reports.routes';
import { settingsRoute } from '../features/settings/settings.routes';
import { lazyPage } from './chunks';
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
  manageRoute,
  reportsRoute,
  settingsRoute,
  globalRoute,
  ...legacyRoutes,
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
