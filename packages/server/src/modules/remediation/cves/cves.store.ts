import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';

/**
 * The only SQL that writes `cve_device_states` and `cve_events`: the zone's CVE view, kept
 * current as batches are accepted and remediation jobs finish.
 */

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Exec = Db | Tx;

/** Severity order for picking the worst of several scanner rows. */
const SEVERITY_RANK = sql`case severity when 'critical' then 4 when 'high' then 3 when 'medium' then 2 when 'low' then 1 else 0 end`;

/**
 * Opens (or re-opens) a device's state for every CVE an accepted batch found on a device of
 * the zone, one event per change. A device the batch names again keeps its first sighting;
 * one already remediated that the scanner still reports is open again.
 */
export async function upsertStatesFromBatch(exec: Exec, zoneId: number, batchId: number, at: Date): Promise<void> {
  await exec.execute(sql`
    with found as (
      select distinct on (cve, device_id) cve, device_id, severity, cvss, title
      from remediation_findings
      where batch_id = ${batchId} and organization_id = ${zoneId} and device_id is not null
        and (issue is null or issue = 'unsupported_host')
      order by cve, device_id, ${SEVERITY_RANK} desc, cvss desc nulls last
    ),
    changed as (
      insert into cve_device_states as s
        (organization_id, cve, device_id, status, severity, cvss, title, first_seen_at, last_seen_at, updated_at)
      select ${zoneId}, cve, device_id, 'open', severity, cvss, title, ${at}, ${at}, ${at} from found
      on conflict (organization_id, cve, device_id) do update set
        last_seen_at = excluded.last_seen_at,
        severity = excluded.severity,
        cvss = coalesce(excluded.cvss, s.cvss),
        title = case when excluded.title = '' then s.title else excluded.title end,
        status = case when s.status in ('remediated', 'remediation_failed') then 'open' else s.status end,
        remediated_at = case when s.status = 'remediated' then null else s.remediated_at end,
        updated_at = excluded.updated_at
      returning s.cve, s.device_id, s.status, (xmax = 0) as inserted
    )
    insert into cve_events (organization_id, cve, device_id, status, cause, at)
    select ${zoneId}, cve, device_id, status, ${`batch:${batchId}`}, ${at} from changed
  `);
}

/** Sets the status of (cve, device) states a remediation job covers, with an event each. */
export async function setRemediationStatus(
  exec: Exec,
  input: {
    zoneId: number;
    deviceId: number;
    cves: string[];
    status: 'remediating' | 'remediated' | 'remediation_failed';
    cause: string;
    at: Date;
  },
): Promise<void> {
  if (input.cves.length === 0) return;
  await exec.execute(sql`
    with changed as (
      update cve_device_states set
        status = ${input.status},
        remediated_at = ${input.status === 'remediated' ? input.at : null},
        updated_at = ${input.at}
      where organization_id = ${input.zoneId} and device_id = ${input.deviceId}
        and cve = any(array[${sql.join(
          input.cves.map((c) => sql`${c}`),
          sql`, `,
        )}]::text[])
        and status <> 'excepted' and status <> ${input.status}
      returning cve
    )
    insert into cve_events (organization_id, cve, device_id, status, cause, at)
    select ${input.zoneId}, cve, ${input.deviceId}, ${input.status}, ${input.cause}, ${input.at} from changed
  `);
}

/**
 * {@link setRemediationStatus} for many devices of one task at once (executing, cancelling or
 * timing out a task over 10,000 devices is one statement, not one per device). `open` puts
 * back states a canceled job left `remediating`, and touches no other.
 */
export async function setRemediationStatusOfDevices(
  exec: Exec,
  input: {
    zoneId: number;
    deviceIds: number[];
    cves: string[];
    status: 'open' | 'remediating' | 'remediated' | 'remediation_failed';
    cause: string;
    at: Date;
  },
): Promise<void> {
  if (input.cves.length === 0 || input.deviceIds.length === 0) return;
  // Both lists travel as one array literal each, however many devices.
  const devices = `{${input.deviceIds.map((id) => Math.trunc(id)).join(',')}}`;
  const onlyFrom = input.status === 'open' ? sql` and status = 'remediating'` : sql``;
  await exec.execute(sql`
    with changed as (
      update cve_device_states set
        status = ${input.status},
        remediated_at = ${input.status === 'remediated' ? input.at : null},
        updated_at = ${input.at}
      where organization_id = ${input.zoneId} and device_id = any(${devices}::int[])
        and cve = any(array(select jsonb_array_elements_text(${JSON.stringify(input.cves)}::jsonb)))
        and status <> 'excepted' and status <> ${input.status}${onlyFrom}
      returning cve, device_id
    )
    insert into cve_events (organization_id, cve, device_id, status, cause, at)
    select ${input.zoneId}, cve, device_id, ${input.status}, ${input.cause}, ${input.at} from changed
  `);
}
