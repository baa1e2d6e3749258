import { sql, type SQL } from 'drizzle-orm';
import { PATCH_COMMAND_TYPES, type PatchOutcome } from '@patchwell/core/reports/reports.schema';
import type { OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import type { Db } from '../../db/client';
import { policies, policyDeviceResults } from '../../db/policies.schema';
import { copyKeysetPages, literal, queryRows } from '../../db/raw';
import { isoCellSql, textCellSql, type CsvPage } from './extract-sources.store';
import { complianceSnapshots } from '../../db/reports.schema';
import { organizations } from '../../db/schema';
import { deviceCommands, devicePresence, devices } from '../../db/devices.schema';

/**
 * The overview's SQL: the zone's devices by state now, the compliance snapshots of past
 * days (and the one statement that writes them), and the install commands behind the daily
 * patch figures and the patch history.
 */

const iso = (d: Date) => d.toISOString();
const PATCH_TYPES = sql.join(
  PATCH_COMMAND_TYPES.map((t) => sql`${t}`),
  sql`, `,
);

/**
 * SQL: the command was a dry run. An agent without --allow-changes says so in the result's
 * data; the policy engine also records it on the policy result the command carried out.
 * Queries using it join the result as `r`.
 */
const SIMULATED_TEXT = `(coalesce(c.data->>'simulated', 'false') = 'true' or coalesce(r.simulated, false))`;
const SIMULATED = sql.raw(SIMULATED_TEXT);
/** The commands with the policy result each carries out (for {@link SIMULATED}). */
const COMMANDS = sql`${deviceCommands} c left join ${policyDeviceResults} r on r.id = c.policy_result_id`;
/** SQL: what one successful install command counts for: the updates it names, else one. */
const PATCHES_OF = sql`case when jsonb_typeof(c.args->'names') = 'array' then jsonb_array_length(c.args->'names') else 1 end`;
const INSTALLED = sql`c.status = 'success' and not ${SIMULATED}`;
const FAILED = sql`c.status in ('error', 'timed_out')`;

export type DeviceStateCounts = {
  total: number;
  online: number;
  needsReboot: number;
  compliant: number;
  pending: number;
  needsAttention: number;
  withPendingPatches: number;
};

/**
 * The zone's enrolled devices now, by state: the states from the devices alone (their
 * index holds every column counted, so no table page is read), the online ones from the
 * presence rows still online joined to the live devices.
 */
export async function countDeviceStates(db: Db, zoneId: number, now: Date): Promise<DeviceStateCounts> {
  const [[row], [online]] = await Promise.all([
    queryRows<Record<Exclude<keyof DeviceStateCounts, 'online'>, string | number>>(
      db,
      sql`select count(*) as "total",
                 count(*) filter (where d.needs_reboot) as "needsReboot",
                 count(*) filter (where d.compliance = 'compliant') as "compliant",
                 count(*) filter (where d.compliance = 'pending') as "pending",
                 count(*) filter (where d.compliance = 'needs_attention') as "needsAttention",
                 count(*) filter (where d.pending_patches > 0) as "withPendingPatches"
            from ${devices} d
           where d.organization_id = ${zoneId} and d.removed_at is null`,
    ),
    queryRows<{ n: string | number }>(
      db,
      sql`select count(*) as n
            from ${devicePresence} p join ${devices} d on d.id = p.device_id
           where p.organization_id = ${zoneId} and p.online_until > ${iso(now)}::timestamptz
             and d.organization_id = ${zoneId} and d.removed_at is null`,
    ),
  ]);
  const n = (v: string | number | undefined) => Number(v ?? 0);
  return {
    total: n(row?.total),
    online: n(online?.n),
    needsReboot: n(row?.needsReboot),
    compliant: n(row?.compliant),
    pending: n(row?.pending),
    needsAttention: n(row?.needsAttention),
    withPendingPatches: n(row?.withPendingPatches),
  };
}

export type SnapshotRow = { day: string; compliant: number; pending: number; needsAttention: number; total: number };

/** The zone's snapshots of the days `fromDay`…`toDay` (YYYY-MM-DD, both included). */
export async function findSnapshots(db: Db, zoneId: number, fromDay: string, toDay: string): Promise<SnapshotRow[]> {
  const rows = await queryRows<SnapshotRow & { day: string | Date }>(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, compliant, pending, needs_attention as "needsAttention", total
          from ${complianceSnapshots}
         where organization_id = ${zoneId} and day between ${fromDay}::date and ${toDay}::date
         order by day`,
  );
  return rows.map((r) => ({ ...r, day: String(r.day) }));
}

/**
 * Writes `day`'s snapshot of every zone from its devices now (zones without devices get
 * zeros), in one statement. A row of the day already written by a later clock is kept.
 * Returns the zones written.
 */
export async function upsertSnapshots(db: Db, day: string, now: Date): Promise<number> {
  const rows = await queryRows<{ organization_id: number }>(
    db,
    sql`insert into ${complianceSnapshots} as s
               (organization_id, day, compliant, pending, needs_attention, total, taken_at)
        select o.id, ${day}::date,
               count(d.id) filter (where d.compliance = 'compliant'),
               count(d.id) filter (where d.compliance = 'pending'),
               count(d.id) filter (where d.compliance = 'needs_attention'),
               count(d.id),
               ${iso(now)}::timestamptz
          from ${organizations} o
          left join ${devices} d on d.organization_id = o.id and d.removed_at is null
         group by o.id
        on conflict (organization_id, day) do update
           set compliant = excluded.compliant, pending = excluded.pending,
               needs_attention = excluded.needs_attention, total = excluded.total, taken_at = excluded.taken_at
         where s.taken_at <= excluded.taken_at
        returning organization_id`,
  );
  return rows.length;
}

export type PatchDay = { day: string; installed: number; failures: number };

/** Patches installed and failed install commands per UTC day of `from` ≤ finished < `to`. */
export async function countPatchDays(db: Db, zoneId: number, from: Date, to: Date): Promise<PatchDay[]> {
  const rows = await queryRows<{ day: string; installed: string | number | null; failures: string | number }>(
    db,
    sql`select to_char(c.finished_at at time zone 'UTC', 'YYYY-MM-DD') as day,
               sum(${PATCHES_OF}) filter (where ${INSTALLED}) as installed,
               count(*) filter (where ${FAILED}) as failures
          from ${COMMANDS}
         where c.organization_id = ${zoneId} and c.finished_at is not null
           and c.finished_at >= ${iso(from)}::timestamptz and c.finished_at < ${iso(to)}::timestamptz
           and c.type in (${PATCH_TYPES})
         group by 1`,
  );
  return rows.map((r) => ({ day: r.day, installed: Number(r.installed ?? 0), failures: Number(r.failures) }));
}

export type PatchHistoryRow = {
  commandId: number;
  deviceId: number;
  deviceName: string;
  osFamily: OsFamily;
  type: string;
  names: unknown;
  pkg: string | null;
  status: string;
  simulated: boolean;
  exitCode: number | null;
  finishedAt: string | Date;
  policyId: number | null;
  policyName: string | null;
};

function historyWhere(zoneId: number, range: { from: Date; to: Date }, outcome?: PatchOutcome): SQL {
  const outcomeSql =
    outcome === 'installed' ? sql` and ${INSTALLED}` : outcome === 'failed' ? sql` and ${FAILED}` : sql``;
  return sql`c.organization_id = ${zoneId} and c.finished_at is not null
             and c.finished_at >= ${iso(range.from)}::timestamptz and c.finished_at < ${iso(range.to)}::timestamptz
             and c.type in (${PATCH_TYPES})${outcomeSql}`;
}

const HISTORY_COLUMNS = sql`c.id as "commandId", c.device_id as "deviceId",
       coalesce(d.custom_name, d.hostname) as "deviceName", d.os_family as "osFamily", c.type,
       c.args->'names' as names, c.args->>'package' as pkg, c.status, ${SIMULATED} as simulated,
       c.exit_code as "exitCode", c.finished_at as "finishedAt",
       p.id as "policyId", p.name as "policyName"`;
const HISTORY_JOINS = sql`join ${devices} d on d.id = c.device_id
       left join ${policies} p on p.id = r.policy_id`;

/** A page of install commands that finished in the range, newest first, and how many there are. */
export async function findPatchHistory(
  db: Db,
  zoneId: number,
  range: { from: Date; to: Date },
  options: { outcome?: PatchOutcome; offset: number; limit: number },
): Promise<{ rows: PatchHistoryRow[]; size: number }> {
  const where = historyWhere(zoneId, range, options.outcome);
  const [rows, [count]] = await Promise.all([
    queryRows<PatchHistoryRow>(
      db,
      sql`select ${HISTORY_COLUMNS} from ${COMMANDS} ${HISTORY_JOINS}
           where ${where}
           order by c.finished_at desc, c.id desc
           limit ${options.limit} offset ${options.offset}`,
    ),
    queryRows<{ n: string | number }>(db, sql`select count(*) as n from ${COMMANDS} where ${where}`),
  ]);
  return { rows, size: Number(count?.n ?? 0) };
}

/**
 * The install commands that finished in the range by (`finished_at`, `id`), oldest first,
 * as the patch-history extract's CSV lines through COPY, `pageRows` a page:
 * the cells `patchHistoryCells` and `csvCell` make (extracts.test.ts compares them). The
 * patches are the string elements of `names`, else the package.
 */
export function copyPatchHistoryPages(
  db: Db,
  zoneId: number,
  range: { from: Date; to: Date },
  pageRows: number,
): AsyncGenerator<CsvPage, void, void> {
  const patches = `coalesce((select string_agg(n.v #>> '{}', ' ' order by n.i)
                               from jsonb_array_elements(case when jsonb_typeof(c.args->'names') = 'array'
                                                              then c.args->'names' end) with ordinality n(v, i)
                              where jsonb_typeof(n.v) = 'string'),
                            c.args->>'package')`;
  return copyKeysetPages(
    db,
    {
      columns: `${isoCellSql('c.finished_at')}, c.device_id, ${textCellSql('coalesce(d.custom_name, d.hostname)')},
              ${textCellSql('d.os_family')}, nullif(c.type, ''), ${textCellSql(patches)}, nullif(c.status, ''),
              ${SIMULATED_TEXT}::text, c.exit_code, p.id, ${textCellSql('p.name')}, c.id`,
      from: `device_commands c left join policy_device_results r on r.id = c.policy_result_id
           join devices d on d.id = c.device_id left join policies p on p.id = r.policy_id`,
      keyFrom: 'device_commands c',
      where:
        `c.organization_id = ${literal.int(zoneId)} and c.finished_at is not null` +
        ` and c.finished_at >= ${literal.timestamptz(range.from)} and c.finished_at < ${literal.timestamptz(range.to)}` +
        ` and c.type in (${PATCH_COMMAND_TYPES.map(literal.word).join(', ')})`,
      key: [
        { expr: 'c.finished_at', type: 'timestamptz' },
        { expr: 'c.id', type: 'int' },
      ],
    },
    pageRows,
  );
}

/** Install commands that finished in the range. */
export async function countPatchHistory(db: Db, zoneId: number, range: { from: Date; to: Date }): Promise<number> {
  const [row] = await queryRows<{ n: string | number }>(
    db,
    sql`select count(*) as n from ${COMMANDS} where ${historyWhere(zoneId, range)}`,
  );
  return Number(row?.n ?? 0);
}
