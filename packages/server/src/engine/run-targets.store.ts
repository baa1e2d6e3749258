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
  /** Groups whose maintenance windows are all closed now: their devices' results wait for one. */
  closedGroupIds: number[];
  /** Devices offline now keep a `pending` result for their next check-in ("Run now", or catch-up asked for). */
  catchUp: boolean;
};

/** The notice and reboot arguments a run adds to each device's update names (dispatch-all.ts `noticeExtras`). */
export type RunExtras = {
  /** By `<mac|other>:<deferrals used>`, deferrals capped at `deferralsMax`. */
  extras: Record<string, unknown>;
  deferralsMax: number;
};

/** Most update names in one `install_updates` (the protocol's limit; plans.ts NAMES_MAX). */
const NAMES_MAX = 1000;

/**
 * The run's targets with their patch names (each once, in the inventory's order, as
 * `device_patch_names` keeps them): `t` and `pn`, read by the results and the commands. The
 * names are joined where they are written rather than kept in `run_targets`: with them, the
 * table outgrew PGlite's temporary buffers and every statement over it went through the file
 * system.
 */
const TARGETS_FROM = sql`run_targets t left join device_patch_names pn on pn.device_id = t.device_id`;

/**
 * A target's update names ({@link TARGETS_FROM}), at most the protocol's limit. Sliced only
 * when longer: a slice copies every array, 40 ms of 100,000 on PGlite.
 */
const TARGET_NAMES = sql`case when cardinality(pn.names) > ${NAMES_MAX} then pn.names[1:${NAMES_MAX}] else coalesce(pn.names, '{}') end`;

/**
 * A device's `install_updates` arguments, over a `run_targets` row `t` and its update names
 * (`names`): the names and the extras for its OS and the deferrals it used. Written where the
 * arguments are stored (the results that wait, the commands), not kept in `run_targets`:
 * building and storing them there for every device was half the time of filling it on PGlite.
 * Each combination of extras is its own `jsonb_build_object` with them as constants, chosen by
 * a `CASE`: the names concatenated to the extras looked up per row cost twice as much (an
 * object decoded and encoded again per device, 0.4 s of 100,000 on PGlite).
 */
function runArgsSql(run: RunExtras, names: SQL): SQL {
  const argsOf = (key: string) => {
    const extra = Object.entries((run.extras[key] ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined);
    const pairs = extra.map(([k, v]) => sql`, ${k}::text, ${JSON.stringify(v)}::jsonb`);
    return sql`jsonb_build_object('names', ${names}${sql.join(pairs, sql``)})`;
  };
  const byUsed = (os: 'mac' | 'other') => {
    if (run.deferralsMax === 0) return argsOf(`${os}:0`);
    const used = Array.from({ length: run.deferralsMax + 1 }, (_, n) => sql`when ${n} then ${argsOf(`${os}:${n}`)}`);
    return sql`case least(t.used, ${run.deferralsMax}) ${sql.join(used, sql` `)} end`;
  };
  return sql`case when t.os_family = 'mac' then ${byUsed('mac')} else ${byUsed('other')} end`;
}

/** The next value of a table's serial id, its sequence looked up once per statement. */
const nextId = (table: string) => sql.raw(`nextval((select pg_get_serial_sequence('${table}', 'id'))::regclass)`);

/**
 * Fills `run_targets`: each targeted live device and what becomes of it (`kind`):
 * - `busy`: a run of this policy is still open on it (`busy_run`), it is skipped;
 * - `nothing`: no patch to install;
 * - `window`: its group's maintenance windows are all closed, its result waits for one;
 * - `queue`: online, it gets a command now;
 * - `catchup`: offline, its result waits for its next check-in;
 * - `missed`: offline, and the run does not catch up.
 * Besides: its result's status, the ids of its result and of its command (`queue` only),
 * drawn here so that the results, the commands and the standings each read this table
 * alone (the names apart, {@link TARGETS_FROM}), and for the others the deferrals it
 * used (for its arguments, {@link runArgsSql}).
 * Returns how many devices are skipped and the open runs that skip them.
 */
export async function fillRunTargets(tx: Tx, q: RunTargetsQuery): Promise<{ busy: number; openRuns: number[] }> {
  const db = tx as unknown as Db;
  const now = q.now.toISOString();
  // PostgreSQL compiled the run's statements over 100,000 rows before running them (0.3 s of
  // JIT, session 27's EXPLAIN); set-based statements this simple gain nothing from it.
  await db.execute(sql`set local jit = off`);
  await db.execute(sql`drop table if exists pg_temp.run_targets`);
  await db.execute(sql`
    create temp table run_targets (
      device_id int primary key, group_id int not null, os_family text not null, tz text not null,
      busy_run int, used int not null, kind text not null, status text not null,
      result_id int not null, command_id int
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
    insert into run_targets (device_id, group_id, os_family, tz, busy_run, used, kind, status, result_id, command_id)
    select k.device_id, k.group_id, k.os_family, k.tz, k.busy_run, k.used, k.kind,
           case k.kind when 'busy' then 'canceled' when 'nothing' then 'success' when 'missed' then 'canceled' else 'pending' end,
           ${nextId('policy_device_results')},
           case when k.kind = 'queue' then ${nextId('device_commands')} end
      from (
        select n.*,
               case when n.busy_run is not null then 'busy'
                    when n.no_names then 'nothing'
                    when n.group_id = any(${sql.param(q.closedGroupIds)}::int[]) then 'window'
                    when n.online then 'queue'
                    when ${q.catchUp} then 'catchup'
                    else 'missed' end as kind
          from (
            select c.device_id, c.group_id, c.os_family, c.tz, c.online, c.busy_run, c.no_names,
                   case when c.busy_run is null then ${used} else 0 end as used
              from (
                select d.id as device_id, d.group_id, d.os_family, coalesce(d.timezone, 'UTC') as tz,
                       coalesce(pr.online_until > ${now}::timestamptz, false) as online,
                       b.run_id as busy_run, coalesce(cardinality(pn.names), 0) = 0 as no_names
                  from devices d
                  left join device_presence pr on pr.device_id = d.id
                  left join device_patch_names pn on pn.device_id = d.id
                  -- The policy's open runs, read once from the index of open results and joined by
                  -- device: looked up per device (a lateral join), an empty table still cost 0.7 s
                  -- on PGlite for 100,000 devices.
                  left join (
                    select distinct on (r.device_id) r.device_id, r.run_id from policy_device_results r
                     where r.policy_id = ${q.policyId} and r.status in ('pending', 'in_progress')
                       and r.command_id is not null and r.run_id <> ${q.runId}
                     order by r.device_id, r.id desc) b on b.device_id = d.id
                 where ${sql.join(where, sql` and `)}
              ) c
             -- Not merged into the outer query, which would copy the deferrals' and the kind's
             -- expressions into each of their references.
             offset 0
          ) n
         offset 0
      ) k`);
  // A temporary table has no statistics until analyzed: the joins below would be planned for a few rows.
  await db.execute(sql`analyze run_targets (device_id, kind, result_id, command_id)`);
  const [row] = await queryRows<{ busy: number | string; runs: string | null }>(
    db,
    sql`select count(*) as busy, string_agg(distinct busy_run::text, ',') as runs
          from run_targets where busy_run is not null`,
  );
  return { busy: Number(row?.busy ?? 0), openRuns: row?.runs ? row.runs.split(',').map(Number) : [] };
}

/** What the results of a set-based patch_all run say, besides the kinds' fixed texts (dispatch-all.ts). */
export type RunResultsPlan = {
  runId: number;
  policyId: number;
  zoneId: number;
  now: Date;
  /** Groups whose maintenance windows are all closed now, each with its result's waiting message. */
  closedGroups: { groupId: number; message: string }[];
  texts: { nothing: string; offline: string; missed: string };
  /** The notice and reboot arguments, kept with the names by the results that wait without a command. */
  extras: RunExtras;
  /**
   * The statement inserting the run's commands (commands.service.ts `runCommandsSql`, over
   * {@link runCommandsSource}), run inside the results' statement: both read the devices' names
   * from one snapshot, so a command carries the names its result lists even while an inventory
   * replaces them, and the commands need not read the results back.
   */
  commands: SQL;
};

/** What a set-based run's results count (skipped devices apart), for its row and its activity event. */
export type RunCounts = { planned: number; success: number; failed: number; open: number; commands: number };

/**
 * The results of a set-based patch_all run, one per row of `run_targets` (filled with each
 * device's outcome, {@link fillRunTargets}), with the ids drawn there, and the run's commands,
 * in one statement: a skipped device's result says which run is open, a queued one's points at
 * its command, one that waits keeps its arguments. Returns the counts and the devices that get
 * a command (to wake once committed).
 */
export async function insertRunResults(tx: Tx, p: RunResultsPlan): Promise<RunCounts & { wake: number[] }> {
  const db = tx as unknown as Db;
  const now = sql`${p.now.toISOString()}::timestamptz`;
  const waiting = Object.fromEntries(p.closedGroups.map((c) => [c.groupId, c.message]));
  await db.execute(sql`
    with queued as (${p.commands})
    insert into ${policyDeviceResults} (id, run_id, policy_id, organization_id, device_id, status, command_id,
           command_type, args, selected_patches, message, created_at, queued_at, finished_at)
    select t.result_id, ${p.runId}, ${p.policyId}, ${p.zoneId}, t.device_id, t.status, t.command_id,
           case when t.kind in ('busy', 'nothing') then null else 'install_updates' end,
           -- The arguments travel once, on the command, when there is one.
           case when t.kind in ('window', 'catchup', 'missed') then ${runArgsSql(p.extras, TARGET_NAMES)} else '{}'::jsonb end,
           case when t.kind in ('busy', 'nothing') then '{}'::text[] else ${TARGET_NAMES} end,
           case t.kind
             when 'busy' then 'Skipped: run ' || t.busy_run || ' of this policy is still open on this device.'
             when 'nothing' then ${p.texts.nothing}
             when 'window' then ${JSON.stringify(waiting)}::jsonb ->> t.group_id::text
             when 'catchup' then ${p.texts.offline}
             when 'missed' then ${p.texts.missed}
           end,
           ${now},
           case when t.kind = 'queue' then ${now} end,
           case when t.kind in ('busy', 'nothing', 'missed') then ${now} end
      from ${TARGETS_FROM}`);
  const [row] = await queryRows<Record<keyof RunCounts, number | string> & { wake: string | null }>(
    db,
    sql`select count(*) filter (where kind <> 'busy') as planned,
               count(*) filter (where kind <> 'busy' and status = 'success') as success,
               count(*) filter (where kind <> 'busy' and status = 'error') as failed,
               count(*) filter (where kind <> 'busy' and status in ('pending', 'in_progress')) as open,
               count(command_id) as commands,
               string_agg(device_id::text, ',') filter (where command_id is not null) as wake
          from run_targets`,
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
 * What the run's commands are written from (commands.store.ts `runCommandsInsertSql`), inside
 * the results' statement ({@link insertRunResults}): each target with its update names, as the
 * results read them, and its arguments.
 */
export function runCommandsSource(extras: RunExtras): { from: SQL; args: SQL } {
  return { from: TARGETS_FROM, args: runArgsSql(extras, TARGET_NAMES) };
}

/**
 * The standings a set-based run leaves (as {@link upsertStandings} writes them), from
 * `run_targets`, which its results were written from: a device given a command type stands
 * as core's `standingOf` its result's status says (`standings`, none for a status absent
 * there), one with nothing to install stands `nothing`; skipped devices keep theirs. `nextByTz` is the next patch time by device timezone (`*`: every device).
 * Returns the devices whose compliance must be recomputed: the caller does it after the
 * commit (scheduler.ts `dispatchCreatedRuns`).
 */
export async function upsertRunStandings(
  tx: Tx,
  run: { policyId: number; zoneId: number; now: Date },
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
  // One statement: the chosen targets are read once, for the standings and for the devices to
  // recompute (as upsertStandings: every device with a standing to write, written or not).
  // A device with nothing to install has a result without a command type.
  const [all] = await queryRows<{ ids: string | null }>(
    tx as unknown as Db,
    sql`with chosen as materialized (
          select t.device_id, t.result_id, t.status, t.kind, t.tz
            from run_targets t
           where t.kind = 'nothing' or (t.kind <> 'busy' and t.status = any(${sql.param(entries.map(([status]) => status))}::text[]))
        ), written as (
          insert into ${devicePolicyStatus} as s (device_id, policy_id, organization_id, status, last_result_id,
                 last_result_status, last_run_at, next_patch_time, updated_at)
          select c.device_id, ${run.policyId}, ${run.zoneId},
                 case when c.kind = 'nothing' then ${nothing} else (case c.status ${statusOf} end) end,
                 c.result_id, c.status, ${now},
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

/**
 * Results of earlier runs of the policy still waiting for a device the run plans for (not
 * skipped): the run replaces them. Returns the runs whose results it canceled, for the
 * caller to note last (results.store.ts `cancelSuperseded`).
 */
export async function cancelSupersededOfRun(tx: Tx, policyId: number, now: Date): Promise<number[]> {
  const rows = await queryRows<{ run_id: number }>(
    tx as unknown as Db,
    sql`with changed as (
          update ${policyDeviceResults} set status = 'canceled', message = 'Superseded by a later run of the policy.',
                 finished_at = ${now.toISOString()}::timestamptz
           where policy_id = ${policyId} and status = 'pending' and command_id is null
             and device_id in (select device_id from run_targets where kind <> 'busy')
          returning run_id)
        select distinct run_id from changed`,
  );
  return rows.map((r) => Number(r.run_id));
}
