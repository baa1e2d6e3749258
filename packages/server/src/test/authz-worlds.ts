import { randomBytes } from 'node:crypto';
import { policies } from '../db/policies.schema';
import { remediationBatches, remediationTasks } from '../db/remediation.schema';
import { dataExtracts } from '../db/reports.schema';
import { reportSchedules } from '../db/report-schedules.schema';
import { accountDomains, samlConnections } from '../db/sso.schema';
import { webhookDeliveries, webhooks } from '../db/webhooks.schema';
import { apiKeys, invitations, orgPrefs, outbox } from '../db/schema';
import type { TestApp } from './app';
import { buildCveObjects } from './cve-fixtures';
import { buildUser } from './factories';

/**
 * The objects of one side of the route matrix (authz-routes.test.ts): a member, keys,
 * invitations, mail, a policy, remediation and report objects of a zone, each named with the
 * side's label so that an answer carrying another side's data is caught.
 */

export type Kind =
  | 'account'
  | 'zone'
  | 'user'
  | 'key'
  | 'invitation'
  | 'outbox'
  | 'policy'
  | 'policyUuid'
  | 'task'
  | 'batch'
  | 'cveException'
  | 'cve'
  | 'extract'
  | 'schedule'
  | 'webhook'
  | 'delivery'
  | 'connection'
  | 'domain';
/** Ids by kind: numbers, except a CVE (its CVE id) and a policy, a SAML connection and a domain (their UUIDs). */
export type Ids = Record<Exclude<Kind, 'cve' | 'policyUuid' | 'connection' | 'domain'>, number> & {
  cve: string;
  policyUuid: string;
  connection: string;
  domain: string;
};
/** Objects of one side: ids by kind, and strings that identify its data in any answer. */
export type World = { ids: Ids; markers: string[] };

export const tag = () => randomBytes(4).toString('hex').toUpperCase();

/** Builds one side's objects in `zone` of `accountId`, all named with `label` so any answer carrying them is caught. */
export async function buildWorld(
  t: TestApp,
  label: string,
  accountId: number,
  accountName: string,
  zoneId: number,
  zoneUuid: string,
) {
  const id = tag();
  const member = await buildUser(t.db, {
    accountId,
    email: `${label.toLowerCase()}-member-${id.toLowerCase()}@example.test`,
    firstname: `${label}First`,
    zones: { [zoneId]: 1 },
  });
  const keyPrefix = `pw_${label.slice(0, 3)}${id}`;
  const [key] = await t.db
    .insert(apiKeys)
    .values({
      userId: member.id,
      organizationId: zoneId,
      name: `${label}KEY-${id}`,
      prefix: keyPrefix,
      keyHash: randomBytes(32).toString('hex'),
      createdAt: t.clock.now(),
    })
    .returning();
  const [invitation] = await t.db
    .insert(invitations)
    .values({
      tokenHash: randomBytes(32).toString('hex'),
      userId: member.id,
      organizationId: zoneId,
      roleId: 2,
      email: member.email,
      createdAt: t.clock.now(),
      expiresAt: new Date(t.clock.now().getTime() + 86_400_000),
    })
    .returning();
  const [mail] = await t.db
    .insert(outbox)
    .values({
      accountId,
      to: member.email,
      subject: `${label}MAIL-${id}`,
      text: `${label}BODY-${id}`,
      createdAt: t.clock.now(),
    })
    .returning();
  await t.db.insert(orgPrefs).values({ organizationId: zoneId, prefName: `matrix-${id}`, value: `${label}PREF-${id}` });
  const [policy] = await t.db
    .insert(policies)
    .values({
      organizationId: zoneId,
      name: `${label}POLICY-${id}`,
      type: 'patch',
      configuration: { patch_rule: 'all' },
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    })
    .returning();
  const [task] = await t.db
    .insert(remediationTasks)
    .values({
      organizationId: zoneId,
      kind: 'patch-now',
      title: `${label}TASK-${id}`,
      patchName: 'openssl',
      cves: ['CVE-2026-0001'],
      severity: 'high',
      source: 'qualys',
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    })
    .returning();
  const [batch] = await t.db
    .insert(remediationBatches)
    .values({
      organizationId: zoneId,
      source: 'generic',
      fileName: `${label}BATCH-${id}.csv`,
      status: 'ready',
      createdBy: member.id,
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    })
    .returning();
  const cves = await buildCveObjects(t, zoneId, label);
  const [extract] = await t.db
    .insert(dataExtracts)
    .values({
      organizationId: zoneId,
      kind: 'activity',
      preset: 'today',
      rangeFrom: new Date('2026-03-02T00:00:00Z'),
      rangeTo: new Date('2026-03-03T00:00:00Z'),
      status: 'ready',
      requestedBy: member.id,
      createdAt: t.clock.now(),
    })
    .returning();
  const [schedule] = await t.db
    .insert(reportSchedules)
    .values({
      organizationId: zoneId,
      name: `${label}SCHEDULE-${id}`,
      kind: 'prepatch',
      frequency: 'daily',
      time: '08:00',
      timezone: 'Europe/Paris',
      recipients: [`${label.toLowerCase()}-report-${id.toLowerCase()}@example.test`],
      enabled: false,
      createdBy: member.id,
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    })
    .returning();
  const [webhook] = await t.db
    .insert(webhooks)
    .values({
      organizationId: zoneId,
      url: `https://${label.toLowerCase()}hook-${id.toLowerCase()}.example.test/in`,
      eventTypes: ['run.finished'],
      secretSealed: 'v1.sealed',
      createdBy: member.id,
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    })
    .returning();
  const [delivery] = await t.db
    .insert(webhookDeliveries)
    .values({
      webhookId: webhook!.id,
      organizationId: zoneId,
      eventType: 'run.finished',
      payload: { marker: `${label}DELIVERY-${id}` },
      status: 'failed',
      attempts: 1,
      retryUntil: t.clock.now(),
      createdAt: t.clock.now(),
    })
    .returning();
  const [connection] = await t.db
    .insert(samlConnections)
    .values({
      accountId,
      name: `${label}CONNECTION-${id}`,
      provisionType: 'invite',
      idpEntityId: `https://${label.toLowerCase()}-idp-${id.toLowerCase()}.example.test/`,
      idpSsoUrl: 'https://idp.example.test/sso',
      idpCertificates: [],
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    })
    .returning();
  const [domain] = await t.db
    .insert(accountDomains)
    .values({
      accountId,
      name: `${label.toLowerCase()}-domain-${id.toLowerCase()}.example`,
      verificationToken: `${label}TOKEN${id}`.toLowerCase(),
      createdAt: t.clock.now(),
    })
    .returning();
  return {
    ids: {
      account: accountId,
      zone: zoneId,
      user: member.id,
      key: key!.id,
      invitation: invitation!.id,
      outbox: mail!.id,
      policy: policy!.id,
      policyUuid: policy!.uuid,
      task: task!.id,
      extract: extract!.id,
      schedule: schedule!.id,
      webhook: webhook!.id,
      delivery: delivery!.id,
      cve: cves.cve,
      cveException: cves.exceptionId,
      batch: batch!.id,
      connection: connection!.uuid,
      domain: domain!.uuid,
    },
    markers: [
      accountName,
      zoneUuid,
      member.email,
      member.uuid,
      keyPrefix,
      `${label}KEY-${id}`,
      `${label}MAIL-${id}`,
      `${label}BODY-${id}`,
      `${label}PREF-${id}`,
      `${label}POLICY-${id}`,
      `${label}TASK-${id}`,
      ...cves.markers,
      `${label}BATCH-${id}`,
      `${label}SCHEDULE-${id}`,
      `${label.toLowerCase()}-report-${id.toLowerCase()}@example.test`,
      `${label.toLowerCase()}hook-${id.toLowerCase()}`,
      `${label}DELIVERY-${id}`,
      `${label}CONNECTION-${id}`,
      `${label.toLowerCase()}-domain-${id.toLowerCase()}.example`,
    ],
  } satisfies World;
}
