import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { activityLog } from '../../db/policies.schema';
import { copyKeysetPages, literal, queryRows } from '../../db/raw';
import { devicePresence, deviceSoftware, devices, serverGroups } from '../../db/devices.schema';

/**
 * What data extracts read, page by page in a stable order (keyset paging, so a page costs
 * the same at the end as at the start): the zone's devices enrolled by the range's end, their
 * software, and its activity log. Read only; the patch history is overview.store.ts's.
 */

const iso = (d: Date) => d.toISOString();
type Num = string | number;

/** SQL: a live device of the zone enrolled before `to`. */
const inventoryWhere = (zoneId: number, to: Date) =>
  sql`d.organization_id = ${zoneId} and d.removed_at is null and d.created_at < ${iso(to)}::timestamptz`;

export type InventoryRow = {
  id: number;
  uuid: string;
  name: string;
  hostname: string;
  osFamily: string;
  osName: string;
  osVersion: string;
  arch: string;
  agentVersion: string;
  groupName: string;
  tags: string[];
  ipAddrs: string[];
  ipAddrsPrivate: string[];
  lastSeenAt: string | Date | null;
  needsReboot: boolean;
  pendingPatches: number;
  compliance: string;
  complianceReason: string;
  createdAt: string | Date;
};

export async function countInventory(db: Db, zoneId: number, to: Date): Promise<number> {
  const [row] = await queryRows<{ n: Num }>(
    db,
    sql`select count(*) as n from ${devices} d where ${inventoryWhere(zoneId, to)}`,
  );
  return Number(row?.n ?? 0);
}

/** Up to `limit` devices after device `afterId`, by id. */
export async function findInventoryAfter(
  db: Db,
  zoneId: number,
  to: Date,
  afterId: number,
  limit: number,
): Promise<InventoryRow[]> {
  return queryRows<InventoryRow>(
    db,
    sql`select d.id, d.uuid, coalesce(d.custom_name, d.hostname) as name, d.hostname, d.os_family as "osFamily",
               d.os_name as "osName", d.os_version as "osVersion", d.arch, d.agent_version as "agentVersion",
               g.name as "groupName", d.tags, d.ip_addrs as "ipAddrs", d.ip_addrs_private as "ipAddrsPrivate",
               pr.last_seen_at as "lastSeenAt", d.needs_reboot as "needsReboot", d.pending_patches as "pendingPatches",
               d.compliance, d.compliance_reason as "complianceReason", d.created_at as "createdAt"
          from ${devices} d
          join ${serverGroups} g on g.id = d.group_id
          left join ${devicePresence} pr on pr.device_id = d.id
         where ${inventoryWhere(zoneId, to)} and d.id > ${afterId}
         order by d.id
         limit ${limit}`,
  );
}

/** Ids of up to `limit` devices after `afterId`, by id (the software extract walks devices, then their software). */
export async function findInventoryIdsAfter(
  db: Db,
  zoneId: number,
  to: Date,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select d.id from ${devices} d where ${inventoryWhere(zoneId, to)} and d.id > ${afterId} order by d.id limit ${limit}`,
  );
  return rows.map((r) => r.id);
}

export async function countSoftware(db: Db, zoneId: number, to: Date): Promise<number> {
  const [row] = await queryRows<{ n: Num }>(
    db,
    sql`select count(*) as n from ${deviceSoftware} s join ${devices} d on d.id = s.device_id
         where ${inventoryWhere(zoneId, to)}`,
  );
  return Number(row?.n ?? 0);
}

export type SoftwareRow = {
  deviceId: number;
  deviceName: string;
  hostname: string;
  osFamily: string;
  name: string;
  version: string;
  source: string | null;
  arch: string | null;
};

/** The installed software of these devices, by device and name. */
export async function findSoftwareOf(db: Db, deviceIds: number[]): Promise<SoftwareRow[]> {
  if (!deviceIds.length) return [];
  return queryRows<SoftwareRow>(
    db,
    sql`select s.device_id as "deviceId", coalesce(d.custom_name, d.hostname) as "deviceName", d.hostname,
               d.os_family as "osFamily", s.name, s.version, s.source, s.arch
          from ${deviceSoftware} s join ${devices} d on d.id = s.device_id
         where s.device_id in (${sql.join(
           deviceIds.map((id) => sql`${id}`),
           sql`, `,
         )})
         order by s.device_id, s.name, s.id`,
  );
}

const activityWhere = (zoneId: number, range: { from: Date; to: Date }) =>
  sql`a.organization_id = ${zoneId} and a.created_at >= ${iso(range.from)}::timestamptz
      and a.created_at < ${iso(range.to)}::timestamptz`;

export async function countActivity(db: Db, zoneId: number, range: { from: Date; to: Date }): Promise<number> {
  const [row] = await queryRows<{ n: Num }>(
    db,
    sql`select count(*) as n from ${activityLog} a where ${activityWhere(zoneId, range)}`,
  );
  return Number(row?.n ?? 0);
}

/** JavaScript's `\s` spelled out (PostgreSQL's depends on the locale), and the signs a formula starts with. */
const SPACE_CHARS = [
  ...'\t\n\v\f\r\u0020\u00a0\u1680',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
  ...'\u2028\u2029\u202f\u205f\u3000\ufeff',
];
const SIGN_CHARS = [...'\u002d=+@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b\u2212'];
/** Characters as a bracket expression's escapes (`\u2000`). */
const escaped = (chars: string[]) => chars.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const FORMULA_START_SQL = `'^([\\t\\r\\n]|[${escaped(SPACE_CHARS)}]*[${escaped(SIGN_CHARS)}])'`;
/** The characters a formula-like text can start with, as an SQL text (none of them a quote). */
const MAY_START_SQL = `'${[...SPACE_CHARS, ...SIGN_CHARS].join('')}'`;

/**
 * The formula guard of core's `csvCell` (rules/csv-formula.ts) as SQL, for cells COPY writes:
 * the same characters; extracts.test.ts checks it against `looksLikeFormula`. The pattern runs
 * only on a text whose first character may start a formula, found with `strpos`: a regular
 * expression on every cell was a third of the device export's time on PGlite (a pattern match
 * turns the whole text into wide characters first).
 */
export const guardedCellSql = (expr: string) =>
  `case when strpos(${MAY_START_SQL}, left(${expr}, 1)) = 0 then ${expr}` +
  ` when ${expr} ~ ${FORMULA_START_SQL} then '''' || ${expr} else ${expr} end`;

/** A text cell as csvCell writes it: nothing for null or empty text, formula-like text guarded. */
export const textCellSql = (expr: string) => guardedCellSql(`nullif(${expr}, '')`);
/** A time cell as the JavaScript extracts write it: ISO 8601 in UTC with milliseconds (nothing for null). */
export const isoCellSql = (expr: string) => `to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A list cell (csvCell joins lists with spaces; a null element is empty text). */
export const listCellSql = (expr: string) => textCellSql(`array_to_string(${expr}, ' ', '')`);

/**
 * An event's details as a cell: an object's text starts with `{`, so it is never formula-like
 * and the guard is skipped (it would turn the jsonb into text three times: a tenth of a
 * million-event extract's time).
 */
const DETAILS_CELL_SQL =
  `case jsonb_typeof(a.details) when 'object' then nullif(a.details::text, '{}')` +
  ` else ${guardedCellSql(`nullif(a.details::text, '')`)} end`;

/** A page of an extract as COPY wrote it: CSV lines (UTF-8, no header) and how many. */
export type CsvPage = { bytes: Buffer; rows: number };

/**
 * The range's events, oldest first, as the extract's CSV lines, `pageRows` a page (COPY: no
 * row becomes a JavaScript value). Cells as `activityCells` and `csvCell` make them: ISO times, nothing for null or `{}`
 * details, formula-like text guarded; via, action and object type are the server's own words.
 */
export function copyActivityPages(
  db: Db,
  zoneId: number,
  range: { from: Date; to: Date },
  pageRows: number,
): AsyncGenerator<CsvPage, void, void> {
  return copyKeysetPages(
    db,
    {
      columns: `${isoCellSql('a.created_at')}, a.id,
              ${guardedCellSql(`nullif(coalesce(u.email, a.actor_name), '')`)}, a.via::text, a.action, a.object_type,
              ${guardedCellSql(`nullif(a.object_id, '')`)}, ${DETAILS_CELL_SQL}`,
      from: 'activity_log a left join users u on u.id = a.user_id',
      keyFrom: 'activity_log a',
      where:
        `a.organization_id = ${literal.int(zoneId)} and a.created_at >= ${literal.timestamptz(range.from)}` +
        ` and a.created_at < ${literal.timestamptz(range.to)}`,
      key: [
        { expr: 'a.created_at', type: 'timestamptz' },
        { expr: 'a.id', type: 'int' },
      ],
    },
    pageRows,
  );
}

/**
 * The device inventory by id, as the extract's CSV lines through COPY, `pageRows` a page: the cells `inventoryCells` and `csvCell` make (extracts.test.ts compares them).
 */
export function copyInventoryPages(
  db: Db,
  zoneId: number,
  to: Date,
  pageRows: number,
): AsyncGenerator<CsvPage, void, void> {
  return copyKeysetPages(
    db,
    {
      columns: `d.id, ${textCellSql('d.uuid::text')}, ${textCellSql('coalesce(d.custom_name, d.hostname)')},
              ${textCellSql('d.hostname')}, ${textCellSql('d.os_family')}, ${textCellSql('d.os_name')},
              ${textCellSql('d.os_version')}, ${textCellSql('d.arch')}, ${textCellSql('d.agent_version')},
              ${textCellSql('g.name')}, ${listCellSql('d.tags')}, ${listCellSql('d.ip_addrs')},
              ${listCellSql('d.ip_addrs_private')}, ${isoCellSql('pr.last_seen_at')}, d.needs_reboot::text,
              d.pending_patches, nullif(d.compliance, ''), ${textCellSql('d.compliance_reason')},
              ${isoCellSql('d.created_at')}`,
      from: `devices d join server_groups g on g.id = d.group_id left join device_presence pr on pr.device_id = d.id`,
      keyFrom: 'devices d',
      where:
        `d.organization_id = ${literal.int(zoneId)} and d.removed_at is null` +
        ` and d.created_at < ${literal.timestamptz(to)}`,
      key: [{ expr: 'd.id', type: 'int' }],
    },
    pageRows,
  );
}
