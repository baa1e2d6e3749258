import { expect, type Page } from '@playwright/test';
import { LEGACY_PATHS, PATHS, pathTo } from '../../packages/web/src/app/paths';
import { api, newGroup, type DeviceRow } from './fleet-helpers';

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
  PATHS.verifyEmail, // the link a new sign-up is mailed
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

type DevicePackage = { name: string; patch: { cves: string[] } | null };

/**
 * A scanner batch naming one simulated device with one of its patches' CVEs, and a host no
 * device has; accepted, so it has a task, which is never executed (no installs). The device
 * is the first from the 4th of the list on (the other journeys leave those alone) whose
 * pending patches name a CVE: a simulated device's pending patches may all be CVE-less.
 */
async function acceptedBatch(page: Page, o: number) {
  const devices = async () =>
    (
      await api<{ data: (DeviceRow & { ip_addrs_private: string[] })[] }>(page, `/api/servers?o=${o}&limit=100`)
    ).data.filter((d) => d.connected && d.pending_patches > 0);
  await expect.poll(async () => (await devices()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
  let found: { device: DeviceRow & { ip_addrs_private: string[] }; cve: string } | undefined;
  for (const device of (await devices()).slice(3)) {
    const packages = await api<{ data: DevicePackage[] }>(
      page,
      `/api/servers/${device.id}/packages?o=${o}&needs_update=true&limit=100`,
    );
    const cve = packages.data.find((p) => p.patch?.cves.length)?.patch?.cves[0];
    if (cve) {
      found = { device, cve };
      break;
    }
  }
  if (!found) throw new Error('no simulated device from the 4th on has a pending patch that names a CVE');
  const { device, cve } = found;
  const csv = `Hostname,IP,CVE ID,Severity\r\n${device.hostname},${device.ip_addrs_private[0] ?? ''},${cve},High\r\ne2e-pages-unknown,10.254.1.1,${cve},High\r\n`;
  const uploaded = await page.request.post(`/api/orgs/${o}/tasks/patch/batches/upload?o=${o}&source=generic`, {
    multipart: { file: { name: `e2e-pages-${Date.now()}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(202);
  const batchId = ((await uploaded.json()) as { id: number }).id;
  await expect
    .poll(async () => (await api<{ status: string }>(page, `/api/orgs/${o}/tasks/batches/${batchId}?o=${o}`)).status)
    .toBe('ready');
  const accepted = await page.request.post(`/api/orgs/${o}/tasks/batches/${batchId}/accept?o=${o}`, { data: {} });
  expect(accepted.status(), await accepted.text()).toBe(200);
  const taskId = ((await accepted.json()) as { task_ids: number[] }).task_ids[0]!;
  return { batchId, taskId, cve };
}

/** Concrete paths for the route table's patterns with parameters, from the zone's own objects. */
export async function concretePaths(page: Page, o: number): Promise<Record<string, string>> {
  const { groupId, policyId } = await groupAndPolicy(page, o);
  const { batchId, taskId, cve } = await acceptedBatch(page, o);
  return {
    [PATHS.taskBatch]: pathTo(PATHS.taskBatch, { batchId }),
    [PATHS.taskBatchIssues]: pathTo(PATHS.taskBatchIssues, { batchId }),
    [PATHS.taskDetail]: pathTo(PATHS.taskDetail, { taskId }),
    [PATHS.remediationBatch]: pathTo(PATHS.remediationBatch, { batchId }),
    [PATHS.remediationSolutions]: pathTo(PATHS.remediationSolutions, { batchId }),
    [PATHS.remediationUnknownDevices]: pathTo(PATHS.remediationUnknownDevices, { batchId }),
    [PATHS.remediationCve]: pathTo(PATHS.remediationCve, { cve }),
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
    PATHS.tasksList,
    PATHS.taskBatches,
    concrete[PATHS.taskBatch]!,
    concrete[PATHS.taskBatchIssues]!,
    concrete[PATHS.taskDetail]!,
    PATHS.remediations,
    concrete[PATHS.remediationBatch]!,
    concrete[PATHS.remediationSolutions]!,
    concrete[PATHS.remediationUnknownDevices]!,
    concrete[PATHS.remediationCve]!,
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

const NOT_FOUND_HEADING = '404 - Page Not Found';

/**
 * Opens `route` as a typed address (no `o`) and says where it went wrong, or null when it
 * shows its own page in zone `o`: not the 404 page, no doubled `/console` prefix, and `o` set
 * to the chosen zone.
 */
export async function openTyped(page: Page, route: string, o: number): Promise<string | null> {
  await page.goto(`/console${route}`);
  // A page renders only once its loaders (and their redirects) are done.
  await expect(page.getByRole('heading').first()).toBeVisible();
  const url = new URL(page.url());
  const notFound = await page.getByRole('heading', { name: NOT_FOUND_HEADING }).count();
  if (notFound || url.pathname.includes('/console/console') || url.searchParams.get('o') !== String(o)) {
    return `${route} → ${url.pathname}${url.search}${notFound ? ' (404 page)' : ''}`;
  }
  return null;
}
