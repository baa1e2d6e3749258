import { sql, type SQL } from 'drizzle-orm';
import type { Compliance } from '@patchwell/core/devices/devices.schema';
import type { Db } from '../db/client';
import { queryRows } from '../db/raw';
import { devicePolicyStatus, policyDeviceResults, type ResultStatus } from '../db/policies.schema';
import type { Tx } from './engine.store';
import { STANDING_MERGE } from './results.store';

/**
 * A run's targets as a table of the transaction (`run_targets`, dropped at commit), for the
 * set-based dispatch of a patch_all run (dispatch-all.ts): one row per targeted device with
 * what its result depends on, written and read by the database alone. A 100,000-device run
 * then never turns its devices, their patch names or their results into JavaScript values.
 */

export type RunTargetsQuery = {
  zoneId: number;
  policyId: number;
  runId: number;
  /** The policy's groups (null: `ids` chose the devices). */
  groupIds: number[] | null;
  /** Devices chosen by id (a "Run now" on some devices, or the JavaScript device filters' choice). */
  ids: number[] | null;
  /** A local-time slot's timezone: only devices in it. */
  tzKey: string | null;
  now: Date;
  /** Count the deferrals each device spent on a waiting result of the policy (notices with deferrals). */
  withDeferrals: boolean;
};

/** The notice and reboot arguments a run adds to each device's update names (dispatch-all.ts `noticeExtras`). */
export type RunExtras = {
  /** By `<mac|other>:<deferrals used>`, deferrals capped at `deferralsMax`. */
  extras: Record<string, unknown>;
  deferralsMax: number;
};

/**
 * A device's `install_updates` arguments, over a `run_targets` row aliased `t`: its names and
 * the extras for its OS and the deferrals it used. Written where the arguments are stored (the
 * results that wait, the commands), not kept in `run_targets`: building and storing them there
 * for every device was half the time of filling it on PGlite.
 */
export function runArgsSql(run: RunExtras): SQL {
  return sql`(jsonb_build_object('names', to_jsonb(t.names))
              || coalesce(${JSON.stringify(run.extras)}::jsonb
                          -> ((case when t.os_family = 'mac' then 'mac' else 'other' end) || ':' || least(t.used, ${run.deferralsMax})),
                          '{}'::jsonb))`;
}

/** Most update names in one `install_updates` (the protocol's limit; plans.ts NAMES_MAX). */
const NAMES_MAX = 1000;

/**
 * Fills `run_targets`: each targeted live device, whether online, the run of this policy
 * still open on it (`busy_run`: it is skipped), and for the others its patch names (each
 * once, in the inventory's order, as `device_patch_names` keeps them, at most the protocol's
 * limit) and the deferrals it used (for its arguments, {@link runArgsSql}).
 * Returns how many devices are skipped and the open runs that skip them.
 */
export async function fillRunTargets(tx: Tx, q: RunTargetsQuery): Promise<{ busy: number; openRuns: number[] }> {
  const db = tx as unknown as Db;
  const now = q.now.toISOString();
  await db.execute(sql`drop table if exists pg_temp.run_targets`);
  await db.execute(sql`
    create temp table run_targets (
      device_id int primary key, group_id int not null, os_family text not null, tz text not null,
      online boolean not null, busy_run int, names text[], used int not null
    ) on commit drop`);
  const where = [
    sql`d.organization_id = ${q.zoneId}`,
    sql`d.removed_at is null`,
    q.groupIds ? sql`d.group_id = any(${sql.param(q.groupIds)}::int[])` : undefined,
    q.ids ? sql`d.id = any(${sql.param(q.ids)}::int[])` : undefined,
    q.tzKey !== null ? sql`coalesce(d.timezone, 'UTC') = ${q.tzKey}` : undefined,
  ].filter((part) => part !== undefined);
  const used = q.withDeferrals
    ? sql`(select coalesce(max(r.deferrals_used), 0) from policy_device_results r
            where r.policy_id = ${q.policyId} and r.device_id = c.device_id and r.status = 'pending'
              and r.command_id is null and r.deferrals_used > 0)`
    : sql`0`;
  await db.execute(sql`
    insert into run_targets (device_id, group_id, os_family, tz, online, busy_run, names, used)
    select n.device_id, n.group_id, n.os_family, n.tz, n.online, n.busy_run, n.names, n.used
      from (
        select c.*,
               case when c.busy_run is null then coalesce(c.all_names[1:${NAMES_MAX}], '{}') end as names,
               case when c.busy_run is null then ${used} else 0 end as used
          from (
            select d.id as device_id, d.group_id, d.os_family, coalesce(d.timezone, 'UTC') as tz,
                   coalesce(pr.online_until > ${now}::timestamptz, false) as online,
                   b.run_id as busy_run, pn.names as all_names
              from devices d
              left join device_presence pr on pr.device_id = d.id
              left join device_patch_names pn on pn.device_id = d.id
              -- A lateral join, looked up once per device: as a scalar subquery in the select list,
              -- PostgreSQL copied it into each of the outer query's references (five lookups a device).
              left join lateral (
                select r.run_id from policy_device_results r
                 where r.policy_id = ${q.policyId} and r.device_id = d.id and r.status in ('pending', 'in_progress')
                   and r.command_id is not null and r.run_id <> ${q.runId}
                 order by r.id desc limit 1) b on true
             where ${sql.join(where, sql` and `)}
          ) c
      ) n`);
  // A temporary table has no statistics until analyzed: the joins below would be planned for a few rows.
  // Only the columns they join and filter on: the names took most of the analyze's time.
  await db.execute(sql`analyze run_targets (device_id, group_id, busy_run)`);
  const [row] = await queryRows<{ busy: number | string; runs: string | null }>(
    db,
    sql`select count(*) as busy, string_agg(distinct busy_run::text, ',') as runs
          from run_targets where busy_run is not null`,
  );
  return { busy: Number(row?.busy ?? 0), openRuns: row?.runs ? row.runs.split(',').map(Number) : [] };
}

/** The groups of the run's targets that still get a plan (their maintenance windows are decided per group). */
export async function runTargetGroups(tx: Tx): Promise<number[]> {
  const rows = await queryRows<{ g: string | null }>(
    tx as unknown as Db,
    sql`select string_agg(distinct group_id::text, ',') as g from run_targets where busy_run is null`,
  );
  return rows[0]?.g ? rows[0].g.split(',').map(Number) : [];
}

/** What the results of a set-based patch_all run say, besides the kinds' fixed texts (dispatch-all.ts). */
export type RunResultsPlan = {
  runId: number;
  policyId: number;
  zoneId: number;
  now: Date;
  /** Devices offline now keep a `pending` result for their next check-in ("Run now", or catch-up asked for). */
  catchUp: boolean;
  /** Groups whose maintenance windows are all closed now, each with its result's waiting message. */
  closedGroups: { groupId: number; message: string }[];
  texts: { nothing: string; offline: string; missed: string };
  /** The devices' arguments ({@link runArgsSql}), kept by the results that wait without a command. */
  args: SQL;
};

/** What a set-based run's results count (skipped devices apart), for its row and its activity event. */
export type RunCounts = { planned: number; success: number; failed: number; open: number; commands: number };

/**
 * The results of a set-based patch_all run, one per row of `run_targets` (run-targets.store.ts),
 * in one statement, as dispatch.ts decides them per device: skipped (another run is open),
 * nothing to install, waiting for a window, queued (online: its command id drawn here, the
 * command inserted after), waiting for the device, or missed. The same statement counts them
 * and lists the devices that get a command (to wake once committed), from the rows it inserted
 * rather than by reading them again.
 */
export async function insertRunResults(tx: Tx, p: RunResultsPlan): Promise<RunCounts & { wake: number[] }> {
  const now = sql`${p.now.toISOString()}::timestamptz`;
  const closed = p.closedGroups;
  const [row] = await queryRows<Record<keyof RunCounts, number | string> & { wake: string | null }>(
    tx as unknown as Db,
    sql`
    with inserted as (
      insert into ${policyDeviceResults} (run_id, policy_id, organization_id, device_id, status, command_id,
             command_type, args, selected_patches, message, created_at, queued_at, finished_at)
      select ${p.runId}, ${p.policyId}, ${p.zoneId}, k.device_id,
             case k.kind when 'busy' then 'canceled' when 'nothing' then 'success' when 'missed' then 'canceled' else 'pending' end,
             case when k.kind = 'queue' then nextval((select pg_get_serial_sequence('device_commands', 'id'))::regclass) end,
             case when k.kind in ('busy', 'nothing') then null else 'install_updates' end,
             -- The arguments travel once, on the command, when there is one.
             case when k.kind in ('window', 'catchup', 'missed') then k.args else '{}'::jsonb end,
             case when k.kind in ('busy', 'nothing') then '{}'::text[] else k.names end,
             case k.kind
               when 'busy' then 'Skipped: run ' || k.busy_run || ' of this policy is still open on this device.'
               when 'nothing' then ${p.texts.nothing}
               when 'window' then k.waiting
               when 'catchup' then ${p.texts.offline}
               when 'missed' then ${p.texts.missed}
             end,
             ${now},
             case when k.kind = 'queue' then ${now} end,
             case when k.kind in ('busy', 'nothing', 'missed') then ${now} end
        from (
          select t.device_id, t.names, ${p.args} as args, t.busy_run, w.message as waiting,
                 case when t.busy_run is not null then 'busy'
                      when cardinality(t.names) = 0 then 'nothing'
                      when w.message is not null then 'window'
                      when t.online then 'queue'
                      when ${p.catchUp} then 'catchup'
                      else 'missed' end as kind
            from run_targets t
            left join unnest(${sql.param(closed.map((c) => c.groupId))}::int[], ${sql.param(closed.map((c) => c.message))}::text[])
                 as w(group_id, message) on w.group_id = t.group_id
        ) k
       order by k.device_id
      returning device_id, status, command_id)
    select count(*) filter (where t.busy_run is null) as planned,
           count(*) filter (where t.busy_run is null and r.status = 'success') as success,
           count(*) filter (where t.busy_run is null and r.status = 'error') as failed,
           count(*) filter (where t.busy_run is null and r.status in ('pending', 'in_progress')) as open,
           count(r.command_id) as commands,
           string_agg(r.device_id::text, ',') filter (where r.command_id is not null) as wake
      from inserted r join run_targets t on t.device_id = r.device_id`,
  );
  return {
    planned: Number(row?.planned ?? 0),
    success: Number(row?.success ?? 0),
    failed: Number(row?.failed ?? 0),
    open: Number(row?.open ?? 0),
    commands: Number(row?.commands ?? 0),
    wake: row?.wake ? row.wake.split(',').map(Number) : [],
  };
}

/**
 * The standings a set-based run leaves (as {@link upsertStandings} writes them): a result
 * with a command type stands as core's `standingOf` its status says (`standings`, none for
 * a status absent there), one without stands `compliant` (nothing to install); skipped
 * devices keep theirs. `nextByTz` is the next patch time by device timezone (`*`: every device).
 * Returns the devices whose compliance must be recomputed: the caller does it after the
 * commit (scheduler.ts `dispatchCreatedRuns`).
 */
export async function upsertRunStandings(
  tx: Tx,
  run: { runId: number; policyId: number; zoneId: number; now: Date },
  standings: Partial<Record<ResultStatus, Compliance>>,
  nothing: Compliance,
  nextByTz: { tz: string; at: Date | null }[],
): Promise<number[]> {
  const now = sql`${run.now.toISOString()}::timestamptz`;
  const entries = Object.entries(standings);
  const statusOf = sql.join(
    entries.map(([status, standing]) => sql`when ${status} then ${standing}`),
    sql` `,
  );
  const everyTz = nextByTz.find((n) => n.tz === '*');
  const counted = sql`(r.command_type is null or r.status = any(${sql.param(entries.map(([status]) => status))}::text[]))`;
  // One statement: the chosen results are read once, for the standings and for the devices to
  // recompute (as upsertStandings: every device with a standing to write, written or not).
  const [all] = await queryRows<{ ids: string | null }>(
    tx as unknown as Db,
    sql`with chosen as materialized (
          select r.device_id, r.id, r.status, r.command_type, t.tz
            from ${policyDeviceResults} r join run_targets t on t.device_id = r.device_id
           where r.run_id = ${run.runId} and t.busy_run is null and ${counted}
        ), written as (
          insert into ${devicePolicyStatus} as s (device_id, policy_id, organization_id, status, last_result_id,
                 last_result_status, last_run_at, next_patch_time, updated_at)
          select c.device_id, ${run.policyId}, ${run.zoneId},
                 case when c.command_type is null then ${nothing} else (case c.status ${statusOf} end) end,
                 c.id, c.status, ${now},
                 ${
                   everyTz
                     ? sql`${everyTz.at?.toISOString() ?? null}::timestamptz`
                     : sql`(select n.at from unnest(${sql.param(nextByTz.map((n) => n.tz))}::text[],
                              ${sql.param(nextByTz.map((n) => n.at?.toISOString() ?? null))}::timestamptz[]) as n(tz, at)
                             where n.tz = c.tz)`
                 },
                 ${now}
            from chosen c
          ${STANDING_MERGE}
        )
        select string_agg(device_id::text, ',') as ids from chosen`,
  );
  return all?.ids ? all.ids.split(',').map(Number) : [];
}

/** Results of earlier runs of the policy still waiting for a device the run plans for (not skipped): the run replaces them. */
export async function cancelSupersededOfRun(tx: Tx, policyId: number, now: Date): Promise<void> {
  await tx.execute(sql`
    update ${policyDeviceResults} set status = 'canceled', message = 'Superseded by a later run of the policy.',
           finished_at = ${now.toISOString()}::timestamptz
     where policy_id = ${policyId} and status = 'pending' and command_id is null
       and device_id in (select device_id from run_targets where busy_run is null)`);
}
