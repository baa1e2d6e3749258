import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { arrays, queryRows } from '../../../db/raw';

/**
 * The SQL that writes `cve_device_states` and their `cve_events`: the zone's CVE view, kept
 * current as batches are accepted, remediation jobs finish and inventories drop a fixed patch.
 * (Exceptions write their own events in exceptions.store.ts; both belong to this module.)
 *
 * A state's stored status is where remediation stands: open, remediating, remediated or
 * remediation_failed. It is never `excepted`: an exception is applied when the view is read,
 * from its expiry and the clock, so one that expires counts again without anything being written.
 */

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Exec = Db | Tx;

const rowsOf = <T>(exec: Exec, query: SQL) => queryRows<T>(exec as Db, query);

/** Severity order for picking the worst of several rows (`col` holds a remediation severity). */
export const severityRank = (col: SQL) =>
  sql`(case ${col} when 'critical' then 4 when 'high' then 3 when 'medium' then 2 when 'low' then 1 else 0 end)`;

/** A timestamp parameter, typed: an untyped parameter in a SELECT list would be text. */
export const ts = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/** `array[...]::text[]`, the same on PGlite and node-postgres. */
export const textArray = (values: string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/**
 * Scanner rows that make a device affected: matched to a device and either remediable or
 * reported with no fix Patchwell knows (`unknown_cve`: the scanner still says the device is
 * vulnerable) or none for its OS (`unsupported_host`). `cve_not_applicable` rows are left out:
 * the device's own inventory has no pending fix, which usually means it is already patched.
 */
const AFFECTING_FINDING = sql`(f.issue is null or f.issue in ('unknown_cve', 'unsupported_host'))`;

/**
 * Opens (or re-opens) a device's state for every CVE an accepted batch found on a live device
 * of the zone, with an event for each new state and each status that changed. A device the
 * batch names again keeps its first sighting (its deadline runs from then); one remediated or
 * failed that the scanner still reports is open again; one being remediated stays so.
 * States of devices the batch does not name are left alone: a scan may cover part of the zone.
 */
export async function upsertStatesFromBatch(exec: Exec, zoneId: number, batchId: number, at: Date): Promise<void> {
  // Three plain statements rather than one that joins the states with the batch: on a zone's
  // first batch the states table has no statistics, and the planner, taking it for empty,
  // nested a scan of it inside a scan of the findings (2,606 findings took 300 s on PGlite).
  // 1. States of the batch's devices that a new sighting opens again.
  const reopenable = await rowsOf<{ cve: string; device_id: number }>(
    exec,
    sql`select cve, device_id from cve_device_states
         where organization_id = ${zoneId}::int and status in ('remediated', 'remediation_failed')
           and device_id = any(array(
             select distinct device_id from remediation_findings
              where batch_id = ${batchId}::int and device_id is not null))`,
  );
  // 2. The upsert, and 3. an event for each new state (`xmax = 0`: PostgreSQL's mark of a row
  // the upsert inserted) and each state opened again, in one statement: the states never
  // travel to the server and back. The states to reopen come as arrays (usually none), an
  // uncorrelated list the planner hashes whatever the states table's statistics say.
  await exec.execute(sql`
    with found as (
      select distinct on (f.cve, f.device_id) f.cve, f.device_id, f.severity, f.cvss, f.title
        from remediation_findings f
        join devices d on d.id = f.device_id and d.organization_id = ${zoneId}::int and d.removed_at is null
       where f.batch_id = ${batchId}::int and f.organization_id = ${zoneId}::int and ${AFFECTING_FINDING}
       order by f.cve, f.device_id, ${severityRank(sql`f.severity`)} desc, f.cvss desc nulls last, f.id
    ), written as (
      insert into cve_device_states as s
        (organization_id, cve, device_id, status, severity, cvss, title, first_seen_at, last_seen_at, updated_at)
      select ${zoneId}::int, cve, device_id, 'open', severity, cvss, title, ${ts(at)}, ${ts(at)}, ${ts(at)} from found
      on conflict (organization_id, cve, device_id) do update set
        last_seen_at = excluded.last_seen_at,
        severity = excluded.severity,
        cvss = coalesce(excluded.cvss, s.cvss),
        title = case when excluded.title = '' then s.title else excluded.title end,
        status = case when s.status in ('remediated', 'remediation_failed') then 'open' else s.status end,
        remediated_at = case when s.status = 'remediated' then null else s.remediated_at end,
        updated_at = excluded.updated_at
      returning s.cve, s.device_id, (s.xmax = 0) as inserted
    )
    insert into cve_events (organization_id, cve, device_id, status, cause, at)
    select ${zoneId}::int, w.cve, w.device_id, 'open', ${`batch:${batchId}`}::text, ${ts(at)}
      from written w
     where w.inserted
        or (w.cve, w.device_id) in (
             select * from unnest(${arrays.text(reopenable.map((r) => r.cve))}::text[],
                                  ${arrays.int(reopenable.map((r) => Number(r.device_id)))}::int[]))
     order by w.cve, w.device_id`);
}

/** CVEs of the batch's findings that are open somewhere in the zone (a state not remediated). */
export async function findOpenCvesOfBatch(exec: Exec, zoneId: number, batchId: number): Promise<Set<string>> {
  const rows = await rowsOf<{ cve: string }>(
    exec,
    sql`select distinct s.cve from cve_device_states s
         where s.organization_id = ${zoneId}::int and s.status <> 'remediated'
           and s.cve = any(array(select distinct cve from remediation_findings where batch_id = ${batchId}::int))`,
  );
  return new Set(rows.map((r) => r.cve));
}

export type OpenCriticalCve = { cve: string; title: string; cvss: number | null; deviceCount: number };

/** The batch's CVEs that are critical and open in the zone, with their open devices. */
export async function findOpenCriticalCvesOfBatch(
  exec: Exec,
  zoneId: number,
  batchId: number,
): Promise<OpenCriticalCve[]> {
  const rows = await rowsOf<{ cve: string; title: string; cvss: number | null; devices: number }>(
    exec,
    sql`select s.cve, max(s.title) as title, max(s.cvss) as cvss, count(*)::int as devices
          from cve_device_states s
         where s.organization_id = ${zoneId}::int and s.status <> 'remediated' and s.severity = 'critical'
           and s.cve = any(array(select distinct cve from remediation_findings where batch_id = ${batchId}::int))
         group by s.cve
         order by s.cve`,
  );
  return rows.map((r) => ({
    cve: r.cve,
    title: r.title,
    cvss: r.cvss === null ? null : Number(r.cvss),
    deviceCount: Number(r.devices),
  }));
}

/**
 * Sets the status of the (cve, device) states remediation jobs cover, for one device or the
 * many devices of one task in one statement (executing, cancelling or timing out a task over
 * 10,000 devices), with an event for each state that changed. Only states the scanner opened
 * are touched (a patch may fix CVEs the device was never reported for). A remediated state
 * stays remediated when a later job on it starts or fails: only a new scanner report opens it
 * again. `open` puts back states a canceled job left `remediating`, and touches no other.
 */
export async function setRemediationStatus(
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
  const isRemediated = input.status === 'remediated';
  // The device list travels as one array literal, however many devices.
  const devices = arrays.int(input.deviceIds);
  const onlyFrom =
    input.status === 'open' ? sql`and status = 'remediating'` : isRemediated ? sql`` : sql`and status <> 'remediated'`;
  await exec.execute(sql`
    with changed as (
      update cve_device_states set
        status = ${input.status}::text,
        remediated_at = ${isRemediated ? ts(input.at) : sql`null`},
        updated_at = ${ts(input.at)}
      where organization_id = ${input.zoneId}::int and device_id = any(${devices}::int[])
        and cve = any(${textArray(input.cves)})
        and status <> ${input.status}::text
        ${onlyFrom}
      returning cve, device_id
    )
    insert into cve_events (organization_id, cve, device_id, status, cause, at)
    select ${input.zoneId}::int, cve, device_id, ${input.status}::text, ${input.cause}::text, ${ts(input.at)}
      from changed
  `);
}

/**
 * `remediating` for the states the jobs of many tasks cover, in one statement: what
 * setRemediationStatus does task after task, where a (cve, device) several tasks cover changes
 * once and its event names the first of them (`tasks` order). Each task's devices and CVEs
 * travel as two pairs of arrays joined by the task's position, not as every CVE on every device.
 */
export async function setRemediatingForTasks(
  exec: Exec,
  input: { zoneId: number; tasks: Array<{ taskId: number; deviceIds: number[]; cves: string[] }>; at: Date },
): Promise<void> {
  const jobOrd: number[] = [];
  const jobDevice: number[] = [];
  const cveOrd: number[] = [];
  const cves: string[] = [];
  input.tasks.forEach((task, i) => {
    for (const id of task.deviceIds) {
      jobOrd.push(i + 1);
      jobDevice.push(id);
    }
    for (const cve of task.cves) {
      cveOrd.push(i + 1);
      cves.push(cve);
    }
  });
  if (jobOrd.length === 0 || cves.length === 0) return;
  const taskIds = input.tasks.map((t) => t.taskId);
  await exec.execute(sql`
    with jd as (select * from unnest(${arrays.int(jobOrd)}::int[], ${arrays.int(jobDevice)}::int[]) as j(ord, device_id)),
    tc as (select * from unnest(${arrays.int(cveOrd)}::int[], ${textArray(cves)}) as c(ord, cve)),
    hit as (
      select distinct on (s.cve, s.device_id) s.cve, s.device_id, tc.ord
        from cve_device_states s
        join jd on jd.device_id = s.device_id
        join tc on tc.ord = jd.ord and tc.cve = s.cve
       where s.organization_id = ${input.zoneId}::int and s.status not in ('remediating', 'remediated')
       order by s.cve, s.device_id, tc.ord
    ),
    changed as (
      update cve_device_states s set status = 'remediating', remediated_at = null, updated_at = ${ts(input.at)}
        from hit
       where s.organization_id = ${input.zoneId}::int and s.cve = hit.cve and s.device_id = hit.device_id
      returning s.cve, s.device_id, hit.ord
    )
    insert into cve_events (organization_id, cve, device_id, status, cause, at)
    select ${input.zoneId}::int, cve, device_id, 'remediating',
           'task:' || (${arrays.int(taskIds)}::int[])[ord], ${ts(input.at)}
      from changed order by ord, cve, device_id
  `);
}

/**
 * A device's new inventory no longer lists any pending patch for CVEs it is still affected by:
 * those the scanner's batch matched to a patch to install on it (so the inventory did list one
 * then) are remediated, patched outside a task. CVEs fixed by a worklet, or with no known fix,
 * are left to jobs and scanners. One indexed statement per inventory; returns how many changed.
 */
export async function markPatchedOutsideTasks(exec: Exec, deviceId: number, at: Date): Promise<number> {
  const result = (await exec.execute(sql`
    with fixed as (
      update cve_device_states s set status = 'remediated', remediated_at = ${ts(at)}, updated_at = ${ts(at)}
       where s.device_id = ${deviceId}::int
         and s.status in ('open', 'remediating', 'remediation_failed')
         and s.organization_id = (select d.organization_id from devices d where d.id = ${deviceId}::int)
         and exists (
           select 1 from remediation_findings f
             join remediation_batches b on b.id = f.batch_id and b.status = 'approved'
             join remediation_solutions sol on sol.id = f.solution_id and sol.kind = 'patch-now'
            where f.organization_id = s.organization_id and f.cve = s.cve and f.device_id = s.device_id)
         and not exists (select 1 from device_patches p where p.device_id = s.device_id and s.cve = any(p.cves))
      returning s.organization_id, s.cve
    ), events as (
      insert into cve_events (organization_id, cve, device_id, status, cause, at)
      select organization_id, cve, ${deviceId}::int, 'remediated', 'inventory', ${ts(at)} from fixed
      returning 1
    )
    select count(*)::int as n from events
  `)) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n ?? 0);
}
