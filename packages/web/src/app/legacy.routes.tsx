import type { RouteObject } from 'react-router';
import { LEGACY_PATHS, PATHS, pathTo } from './paths';
import { g, q, rel } from './route-helpers';

/** Legacy aliases (spec A section 2, spec B section 2): each forwards to today's page. */
export const legacyRoutes: RouteObject[] = [
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
