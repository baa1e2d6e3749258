import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/chunks';
import { gatedPage } from '../plans/gated-page';
import { PATHS } from '../../app/paths';
import { g, rel } from '../../app/route-helpers';

/** The Global area: setup and configuration across zones, and every zone's devices. */
export const globalRoute: RouteObject = {
  path: rel(PATHS.global),
  children: [
    { index: true, loader: g((m) => m.forward(PATHS.setupAndConfiguration, [m.needsGlobalAccess])) },
    {
      path: 'setup',
      loader: g((m) => m.guard([m.needsGlobalAccess])),
      lazy: lazyPage(
        () => import('./GlobalSetupLayout'),
        (m) => m.GlobalSetupLayout,
      ),
      children: [
        { index: true, loader: g((m) => m.forward(PATHS.globalZones, [m.needsGlobalAccess])) },
        {
          path: 'zones',
          lazy: lazyPage(
            () => import('./GlobalZonesPage'),
            (m) => m.GlobalZonesPage,
          ),
        },
        {
          path: 'zones/create-zone',
          loader: g((m) => m.guard([m.needsGlobalAccess, m.needsTier3Parent])),
          lazy: lazyPage(
            () => import('./GlobalCreateZonePage'),
            (m) => m.GlobalCreateZonePage,
          ),
        },
        {
          path: 'zones/:zoneId',
          lazy: lazyPage(
            () => import('./ZoneEditorPage'),
            (m) => m.ZoneEditorPage,
          ),
        },
        { path: 'create-zone', loader: g((m) => m.legacy(() => PATHS.globalCreateZone, [], [m.needsGlobalAccess])) },
        {
          path: 'roles-and-permissions',
          lazy: lazyPage(
            () => import('../roles/RolesPermissionsPage'),
            (m) => m.RolesPermissionsPage,
          ),
        },
        {
          path: 'users',
          lazy: lazyPage(
            () => import('./GlobalUsersPage'),
            (m) => m.GlobalUsersPage,
          ),
        },
        {
          path: 'users/create-user',
          lazy: lazyPage(
            () => import('./UserEditorPage'),
            (m) => m.CreateUserPage,
          ),
        },
        {
          path: 'users/:userId',
          lazy: lazyPage(
            () => import('./UserEditorPage'),
            (m) => m.UserEditorPage,
          ),
        },
        {
          path: 'authentication',
          // Single sign-on is the account's plan feature: existing connections stay readable and removable.
          lazy: gatedPage(
            'sso',
            () => import('../sso/ConnectionsPage'),
            (m) => m.ConnectionsPage,
            { scope: 'account', variant: 'notice' },
          ),
        },
        {
          path: 'authentication/create-connection',
          lazy: gatedPage(
            'sso',
            () => import('../sso/ConnectionEditorPage'),
            (m) => m.CreateConnectionPage,
            { scope: 'account' },
          ),
        },
        {
          path: 'authentication/:connectionId',
          lazy: gatedPage(
            'sso',
            () => import('../sso/ConnectionEditorPage'),
            (m) => m.ConnectionDetailPage,
            { scope: 'account', variant: 'notice' },
          ),
        },
        {
          path: 'domains',
          lazy: gatedPage(
            'sso',
            () => import('../sso/DomainsPage'),
            (m) => m.DomainsPage,
            { scope: 'account', variant: 'notice' },
          ),
        },
        {
          path: 'settings',
          lazy: lazyPage(
            () => import('./GlobalSettingsPage'),
            (m) => m.GlobalSettingsPage,
          ),
        },
      ],
    },
    {
      path: 'devices',
      loader: g((m) => m.guard([m.needsGlobalDevices])),
      lazy: lazyPage(
        () => import('./GlobalDevicesPage'),
        (m) => m.GlobalDevicesPage,
      ),
    },
  ],
};
