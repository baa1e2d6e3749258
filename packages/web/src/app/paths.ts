/**
 * Every console route by name, relative to the router's basename (/console). Paths with
 * parameters have a builder next to them. The legacy aliases below redirect.
 */
export const PATHS = {
  root: '/',
  login: '/login',
  signup: '/signup',
  accountCreated: '/account-created',
  forgotPassword: '/forgot-password',
  passwordReset: '/password-reset',
  acceptInvite: '/accept-invite',
  unlock: '/unlock',
  verifyEmail: '/verify-email',
  notFound: '/404',

  dashboard: '/dashboard',
  onboarding: '/onboarding',
  devices: '/devices',
  deviceDetail: '/devices/:deviceId',
  remoteControl: '/devices/:deviceId/remote-control',
  software: '/software',
  policyManualApproval: '/policy-manual-approval',

  manageHome: '/manage',
  policiesHome: '/manage/policies',
  policyCreate: '/manage/policies/create',
  policyDetail: '/manage/policies/:policyId',
  groups: '/manage/groups',
  groupCreate: '/manage/groups/create-group',
  groupDetail: '/manage/groups/:groupId',
  tasksList: '/manage/tasks',
  taskBatches: '/manage/tasks/batches',
  taskBatch: '/manage/tasks/batches/:batchId',
  taskBatchIssues: '/manage/tasks/batches/:batchId/potential-issues',
  taskDetail: '/manage/tasks/tasks/:taskId',
  remediations: '/manage/remediations',
  remediationBatch: '/manage/remediations/:batchId',
  remediationSolutions: '/manage/remediations/:batchId/solutions',
  remediationUnknownDevices: '/manage/remediations/:batchId/unknown-devices',
  remediationCve: '/manage/remediations/cves/:cve',
  workletCatalog: '/manage/worklet-catalog',
  workletDetail: '/manage/worklet-catalog/:wid',
  getStartedMacOs: '/manage/get-started-mac-os',
  maintenanceWindows: '/manage/maintenance-windows',

  reportsHome: '/reports',
  reportsOverview: '/reports/overview',
  reportsPrepatch: '/reports/prepatch',
  reportsNeedsAttention: '/reports/needs-attention',
  reportsDataExtracts: '/reports/data-extracts',
  reportsSchedules: '/reports/schedules',
  reportsActivityLog: '/reports/activity-log',
  reportsPolicyResults: '/reports/policy-results',
  reportsPolicyResult: '/reports/policy-results/:policyUuid',

  settings: '/settings',
  profile: '/settings/profile',
  billing: '/settings/billing',
  users: '/settings/users',
  keys: '/settings/keys',
  webhooks: '/settings/webhooks',
  security: '/settings/security',
  apnsSettings: '/settings/apns',
  remoteSettings: '/settings/remote-access',

  global: '/global',
  setupAndConfiguration: '/global/setup',
  globalZones: '/global/setup/zones',
  globalCreateZone: '/global/setup/zones/create-zone',
  globalZoneDetail: '/global/setup/zones/:zoneId',
  globalRoles: '/global/setup/roles-and-permissions',
  globalUsers: '/global/setup/users',
  globalCreateUser: '/global/setup/users/create-user',
  globalUserDetail: '/global/setup/users/:userId',
  connectionList: '/global/setup/authentication',
  globalCreateConnection: '/global/setup/authentication/create-connection',
  globalConnectionDetail: '/global/setup/authentication/:connectionId',
  globalDomains: '/global/setup/domains',
  globalSettings: '/global/setup/settings',
  globalDevices: '/global/devices',
} as const;

export type PathName = keyof typeof PATHS;

/** Old paths that redirect to their current route (spec A section 2, spec B section 2). */
export const LEGACY_PATHS = {
  deviceDetail: '/device-detail', // ?s=<deviceId>
  reportsOverview: '/reports-overview',
  reportsPrepatch: '/reports-prepatch',
  reportsNoncompliant: '/reports-noncompliant',
  dataExtracts: '/data-extracts',
  activityLog: '/activity-log',
  createGroup: '/create-group',
  groupEditor: '/group-editor', // ?gid=<groupId>
  policyPatchEditor: '/policy-patch-editor', // ?pid=<policyId>
  policyRequiredSoftwareEditor: '/policy-required-software-editor',
  policyCustomEditor: '/policy-custom-editor',
  systemManagement: '/system-management', // ?tab=groups|policies
  communityWorklets: '/community-worklets',
  manageCommunityWorklets: '/manage/community-worklets',
  globalCreateZone: '/global/setup/create-zone',
  zoneEditor: '/zone-editor', // ?zid=<zoneId>
  createUser: '/create-user',
  userEditor: '/user-editor', // ?uid=<userId>
} as const;

/** Fill `:name` segments of a path pattern. */
export function pathTo(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

/** Settings `?tab=` values map to subpaths; `api` is now `keys` (spec A section 2). */
export function settingsTabPath(tab: string | null): string {
  switch (tab) {
    case 'api':
    case 'keys':
      return PATHS.keys;
    case 'billing':
      return PATHS.billing;
    case 'users':
      return PATHS.users;
    case 'security':
      return PATHS.security;
    case 'apns':
      return PATHS.apnsSettings;
    default:
      return PATHS.profile;
  }
}

/** The login URL that returns to `redirect` afterwards (spec A section 4). */
export function loginPath(options: { redirect?: string; expired?: boolean; zoneId?: number } = {}): string {
  const params = new URLSearchParams();
  if (options.zoneId !== undefined) params.set('o', String(options.zoneId));
  if (options.redirect) params.set('redirect', options.redirect);
  if (options.expired) params.set('err', 'session-expired');
  const search = params.toString();
  return search ? `${PATHS.login}?${search}` : PATHS.login;
}

/** Path and query of a URL relative to the /console basename. */
export function consolePath(url: URL | Location, basename = '/console'): string {
  let pathname = url.pathname;
  if (pathname === basename) pathname = '/';
  else if (pathname.startsWith(`${basename}/`)) pathname = pathname.slice(basename.length);
  return pathname + url.search;
}
