import { expect, type Page } from '@playwright/test';
import { LEGACY_PATHS, PATHS, pathTo } from '../../packages/web/src/app/paths';
import { newGroup } from './fleet-helpers';

/** Pages outside the signed-in shell: they carry no zone. */
const PUBLIC = new Set<string>([
  PATHS.root, // goes to login (spec A section 2)
  PATHS.login,
  PATHS.signup,
  PATHS.accountCreated,
  PATHS.forgotPassword,
  PATHS.passwordReset,
  PATHS.acceptInvite,
  PATHS.unlock, // the link a locked user is mailed
  PATHS.notFound,
]);

/** The first link on `listPath` whose href matches `pattern`, as a console path without its query. */
async function firstLink(page: Page, o: number, listPath: string, pattern: RegExp): Promise<string> {
  await page.goto(`/console${listPath}?o=${o}`);
  const find = async () =>
    (await page.locator('main a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? '')))
      .map((h) => h.replace(/^\/console/, '').split('?')[0]!)
      .find((h) => pattern.test(h));
  await expect.poll(find, { message: `a link like ${pattern} on ${listPath}`, timeout: 30_000 }).toBeTruthy();
  return (await find())!;
}

/** An empty group and an unscheduled patch policy on it: pages of their own, no installs. */
async function groupAndPolicy(page: Page, o: number) {
  const stamp = Date.now();
  const groupId = await newGroup(page, o, `E2E pages ${stamp}`);
  const res = await page.request.post(`/api/policies?o=${o}`, {
    data: {
      name: `E2E pages ${stamp}`,
      policy_type_name: 'patch',
      server_groups: [groupId],
      schedule_days: 0,
      schedule_time: '02:00',
      use_scheduled_timezone: true,
      notes: '',
      configuration: { auto_patch: true, notify_user: false, auto_reboot: false, patch_rule: 'all' },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { groupId, policyId: ((await res.json()) as { id: number }).id };
}

/** Concrete paths for the route table's patterns with parameters, from the zone's own objects. */
export async function concretePaths(page: Page, o: number): Promise<Record<string, string>> {
  const { groupId, policyId } = await groupAndPolicy(page, o);
  return {
    [PATHS.deviceDetail]: await firstLink(page, o, PATHS.devices, /^\/devices\/\d+$/),
    [PATHS.policyDetail]: pathTo(PATHS.policyDetail, { policyId }),
    [PATHS.groupDetail]: pathTo(PATHS.groupDetail, { groupId }),
    [PATHS.workletDetail]: await firstLink(page, o, PATHS.workletCatalog, /^\/manage\/worklet-catalog\/[^/]+$/),
    [PATHS.globalZoneDetail]: await firstLink(page, o, PATHS.globalZones, /^\/global\/setup\/zones\/\d+$/),
    [PATHS.globalUserDetail]: await firstLink(page, o, PATHS.globalUsers, /^\/global\/setup\/users\/\d+$/),
    [PATHS.globalConnectionDetail]: '/global/setup/authentication/1',
  };
}

/** Every signed-in route of the route table (current and legacy), parameters filled in. */
export function signedInRoutes(concrete: Record<string, string>): string[] {
  const all = [...Object.values(PATHS), ...Object.values(LEGACY_PATHS)].filter((p) => !PUBLIC.has(p));
  return [...new Set(all.map((p) => (p.includes(':') ? concrete[p] : p)))].filter((p): p is string => !!p);
}

/** The main pages a person works in, for the accessibility checks. */
export function mainPages(concrete: Record<string, string>): string[] {
  return [
    PATHS.dashboard,
    PATHS.devices,
    concrete[PATHS.deviceDetail]!,
    PATHS.software,
    PATHS.manageHome,
    PATHS.policiesHome,
    PATHS.policyCreate,
    concrete[PATHS.policyDetail]!,
    PATHS.policyManualApproval,
    PATHS.groups,
    PATHS.groupCreate,
    concrete[PATHS.groupDetail]!,
    PATHS.workletCatalog,
    concrete[PATHS.workletDetail]!,
    PATHS.remediations,
    PATHS.reportsHome,
    PATHS.profile,
    PATHS.users,
    PATHS.keys,
    PATHS.billing,
    PATHS.globalZones,
    concrete[PATHS.globalZoneDetail]!,
    PATHS.globalRoles,
    PATHS.globalUsers,
    concrete[PATHS.globalUserDetail]!,
    PATHS.globalSettings,
  ];
}

export const NOT_FOUND_HEADING = '404 - Page Not Found';
