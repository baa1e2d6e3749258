import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/chunks';
import { PATHS } from '../../app/paths';
import { g, rel } from '../../app/route-helpers';
import { gatedPage } from '../plans/gated-page';

/** The Settings area: profile, billing, users, keys, webhooks, security, APNS. */
export const settingsRoute: RouteObject = {
  path: rel(PATHS.settings),
  lazy: lazyPage(
    () => import('./SettingsLayout'),
    (m) => m.SettingsLayout,
  ),
  children: [
    { index: true, loader: g((m) => m.settingsIndex) },
    {
      path: 'profile',
      lazy: lazyPage(
        () => import('./ProfilePage'),
        (m) => m.ProfilePage,
      ),
    },
    {
      path: 'billing',
      loader: g((m) => m.guard([m.needsPermission('Billing', 'read', PATHS.profile)])),
      lazy: lazyPage(
        () => import('../billing/BillingPage'),
        (m) => m.BillingPage,
      ),
    },
    {
      path: 'users',
      loader: g((m) => m.guard([m.needsPermission('Users', 'read', PATHS.profile)])),
      lazy: lazyPage(
        () => import('../users/UsersPage'),
        (m) => m.UsersPage,
      ),
    },
    {
      path: 'keys',
      // Keys stay listed and revocable outside the plan; creating one needs API access.
      lazy: gatedPage(
        'api_access',
        () => import('../keys/KeysPage'),
        (m) => m.KeysPage,
        { variant: 'notice' },
      ),
    },
    {
      path: 'webhooks',
      loader: g((m) => m.guard([m.needsPermission('Organization', 'manage', PATHS.profile)])),
      lazy: lazyPage(
        () => import('../webhooks/WebhooksPage'),
        (m) => m.WebhooksPage,
      ),
    },
    {
      path: 'security',
      loader: g((m) => m.guard([m.needsSecurity])),
      // Session settings stay on every plan; requiring MFA of the zone's users needs Standard.
      lazy: gatedPage(
        'mfa_enforcement',
        () => import('./SecurityPage'),
        (m) => m.SecurityPage,
        { variant: 'notice' },
      ),
    },
    {
      path: 'apns',
      loader: g((m) => m.guard([m.needsApns])),
      lazy: lazyPage(
        () => import('../apns/ApnsSettingsPage'),
        (m) => m.ApnsSettingsPage,
      ),
    },
    {
      path: 'remote-access',
      loader: g((m) => m.guard([m.needsFlag('remote_control', true, PATHS.profile)])),
      lazy: lazyPage(
        () => import('../remote/RemoteSettingsPage'),
        (m) => m.RemoteSettingsPage,
      ),
    },
  ],
};
