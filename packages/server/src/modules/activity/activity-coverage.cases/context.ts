import { remediationBatches, remediationTasks } from '../../../db/remediation.schema';
import { startTestApp, type TestApp } from '../../../test/app';
import { startTestDns, type TestDns } from '../../../test/dns-server';
import { buildZoneWithKey, enrollDevice } from '../../../test/agents';
import { buildCveObjects } from '../../../test/cve-fixtures';
import type { Answer } from '../../../test/authz-helpers';
import { buildUser } from '../../../test/factories';
import { makeCertificate } from '../../../test/idp-fixtures';

/**
 * What every slice of activity-coverage.test.ts's CASES shares: the app, the zone and its
 * admin, the ids the cases hand to each other (a case creates, a later one edits or deletes),
 * and the request helpers. The bindings are live: `startCoverageApp` sets them before the
 * first case runs.
 */

export type Case = {
  /** Calls the route; must answer 2xx. */
  run: () => Promise<Answer>;
  action: string;
  /** The zone the event belongs to; null for an account-level event. */
  zone: () => number | null;
};

export let t: TestApp;
/** The loopback DNS server domain verification asks. */
export let dns: TestDns;
export let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
export let o: number;
export let accountId: number;
export const ids: Record<string, number> = {};
export const strings: Record<string, string> = {};

export const admin = () => z.admin;
export const q = (path: string) => `${path}${path.includes('?') ? '&' : '?'}o=${o}`;

export async function multipart(path: string, filename: string, content: string): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([new TextEncoder().encode(content)], { type: 'text/csv' }), filename);
  const res = await t.request(path, { method: 'POST', headers: { cookie: z.cookie }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

export function policyBody(name: string) {
  return {
    name,
    policy_type_name: 'patch',
    server_groups: [ids.group!],
    schedule_days: 0,
    schedule_time: '02:00',
    use_scheduled_timezone: true,
    configuration: { auto_patch: true, notify_user: false, auto_reboot: false, patch_rule: 'all' },
    notes: '',
  };
}

export const inZone = () => o;
export const scheduleBody = {
  name: 'Weekly prepatch',
  kind: 'prepatch',
  frequency: 'weekly',
  day_of_week: 1,
  time: '08:00',
  timezone: 'Europe/Paris',
  recipients: ['ops@example.test'],
};
export const atAccount = () => null;
export let idpCertificate = '';
export const connectionBody = (name: string) => ({
  name,
  provision_type: 'invite',
  domains: ['audited-sso.example'],
  certificate: idpCertificate,
  sso_url: 'https://idp.example.test/sso',
  entity_id: 'https://idp.example.test/',
});

/** Starts the app and builds what the cases expect to find: a zone, devices, users, a task, batches, a CVE. */
export async function startCoverageApp(): Promise<void> {
  // Webhooks may target loopback (nothing is sent: no delivery worker runs in tests).
  dns = await startTestDns();
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: '1', DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: '200' } });
  idpCertificate = makeCertificate('audited-idp.patchwell.test');
  z = await buildZoneWithKey(t);
  o = z.zone.id;
  accountId = z.account.id;
  ids.device = (await enrollDevice(t, z.accessKey, { hostname: 'audited-1' })).id;
  ids.device2 = (await enrollDevice(t, z.accessKey, { hostname: 'audited-2' })).id;
  ids.member = (await buildUser(t.db, { accountId, zones: { [o]: 4 } })).id;
  ids.lockedUser = (await buildUser(t.db, { accountId, zones: { [o]: 2 } })).id;
  const [task] = await t.db
    .insert(remediationTasks)
    .values({
      organizationId: o,
      kind: 'patch-now',
      title: 'Coverage task',
      patchName: 'openssl',
      cves: ['CVE-2026-0001'],
      severity: 'high',
      source: 'qualys',
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    })
    .returning();
  ids.task = task!.id;
  // Two batches awaiting approval (built elsewhere: the upload's build is asynchronous).
  const ready = () => ({
    organizationId: o,
    source: 'generic' as const,
    fileName: 'scan.csv',
    status: 'ready' as const,
    createdAt: t.clock.now(),
    updatedAt: t.clock.now(),
  });
  const [accepted, rejected] = await t.db.insert(remediationBatches).values([ready(), ready()]).returning();
  ids.readyBatch = accepted!.id;
  ids.rejectBatch = rejected!.id;
  const cve = await buildCveObjects(t, o, 'coverage');
  strings.cve = cve.cve;
  ids.cveException = cve.exceptionId;
}
