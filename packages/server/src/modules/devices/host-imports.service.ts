import type {
  HostImport,
  HostImportList,
  HostImportQuery,
  HostImportResult,
  HostImportRow,
  ListHostImportsQuery,
} from '@patchwell/core/devices/host-imports.schema';
import type { AppContext } from '../../context';
import { logActivity } from '../activity/activity.service';
import type { Db } from '../../db/client';
import type { devices } from '../../db/devices.schema';
import { notFound, AppError } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { requireZone } from '../zones/zone-access.service';
import { mapColumns, normalizeHostname, parseRow, readCsv, shortName, type ParsedHostRow } from './host-imports.parse';
import {
  applyImportToDevice,
  deleteAwaitingHostImport,
  findAwaitingByShortNames,
  findDevicesByShortName,
  findGroupsByName,
  findHostImport,
  findHostImports,
  findZoneGroup,
  insertHostImports,
  lockAwaitingByShortName,
  markEnrolled,
  type HostImportListRow,
  type NewHostImport,
} from './host-imports.store';

type DeviceRow = typeof devices.$inferSelect;

/**
 * Whether two lowercased host names name the same machine: equal, or one is the other's
 * short name (an AD export's `WEB01` and the agent's `web01.corp.example`). Two FQDNs in
 * different domains are different machines.
 */
export function isSameHost(a: string, b: string): boolean {
  if (a === b) return true;
  return shortName(a) === shortName(b) && (!a.includes('.') || !b.includes('.'));
}

/** Looks hosts up by their short name, so a 5,000-row file does not compare every pair. */
function hostIndex<T>() {
  const byShort = new Map<string, { host: string; value: T }[]>();
  return {
    add(host: string, value: T): void {
      const list = byShort.get(shortName(host)) ?? [];
      list.push({ host, value });
      byShort.set(shortName(host), list);
    },
    /** The value of an exact match, else of the first host {@link isSameHost} accepts. */
    find(host: string): T | undefined {
      const list = byShort.get(shortName(host)) ?? [];
      return (list.find((e) => e.host === host) ?? list.find((e) => isSameHost(e.host, host)))?.value;
    },
  };
}

function toRowResult(row: ParsedHostRow, extra: Partial<HostImportRow> = {}): HostImportRow {
  return {
    line: row.line,
    hostname: row.hostname,
    ip_addrs: row.ipAddrs,
    os_family: row.osFamily,
    server_group_id: null,
    group_name: row.groupName,
    tags: row.tags,
    serial: row.serial,
    notes: row.notes,
    status: row.errors.length ? 'error' : 'new',
    errors: row.errors,
    warnings: row.warnings,
    device_id: null,
    ...extra,
  };
}

/**
 * Each row's fate in the zone: cell errors and unknown groups are `error`; a host earlier
 * in the file or already awaiting its agent is `duplicate`; one that is already a device
 * is `matches_device`; the rest are `new`. Reads only; `db` may be a transaction.
 */
async function evaluate(db: Db, zoneId: number, parsed: ParsedHostRow[]): Promise<HostImportRow[]> {
  const groups = await findGroupsByName(db, zoneId);
  const valid = parsed.filter((r) => r.isHostnameValid);
  const shorts = [...new Set(valid.map((r) => shortName(r.hostname)))];
  const enrolled = hostIndex<number>();
  for (const d of await findDevicesByShortName(db, zoneId, shorts)) enrolled.add(d.hostname, d.id);
  const awaiting = hostIndex<true>();
  for (const host of await findAwaitingByShortNames(db, zoneId, shorts)) awaiting.add(host, true);
  const firstLine = hostIndex<number>();

  return parsed.map((row) => {
    const group = row.groupName ? groups.get(row.groupName.toLowerCase()) : undefined;
    const base = { server_group_id: group?.id ?? null, group_name: group?.name ?? row.groupName };
    if (row.groupName && !group) {
      // A typo must not put the device (and its policies) in the wrong group silently.
      const unknown = `Group “${row.groupName}” does not exist in this zone. Create it first, or leave the cell empty.`;
      return toRowResult(row, { ...base, status: 'error', errors: [...row.errors, unknown] });
    }
    if (row.errors.length) return toRowResult(row, base);

    const earlier = firstLine.find(row.hostname);
    if (earlier !== undefined) {
      return toRowResult(row, {
        ...base,
        status: 'duplicate',
        errors: [`Same host as line ${earlier}; only the first row is imported.`],
      });
    }
    firstLine.add(row.hostname, row.line);
    const deviceId = enrolled.find(row.hostname);
    if (deviceId !== undefined) {
      return toRowResult(row, {
        ...base,
        status: 'matches_device',
        device_id: deviceId,
        errors: [`Already enrolled as device ${deviceId}; not imported.`],
      });
    }
    if (awaiting.find(row.hostname)) {
      return toRowResult(row, {
        ...base,
        status: 'duplicate',
        errors: ['Already imported and awaiting its agent; remove that import to import it again.'],
      });
    }
    return toRowResult(row, base);
  });
}

function summarize(rows: HostImportRow[], imported: number, dryRun: boolean, ignored: string[]): HostImportResult {
  const countOf = (status: HostImportRow['status']) => rows.filter((r) => r.status === status).length;
  return {
    dry_run: dryRun,
    rows,
    summary: {
      total: rows.length,
      new: countOf('new'),
      matches_device: countOf('matches_device'),
      duplicate: countOf('duplicate'),
      error: countOf('error'),
      imported,
    },
    ignored_columns: ignored,
  };
}

// The 400 of an all-invalid file lists this many rows' errors; the dry run shows them all.
const MAX_ERROR_ROWS_IN_400 = 200;

function allInvalid(rows: HostImportRow[]): AppError {
  const errors: Record<string, string[]> = {};
  for (const row of rows.slice(0, MAX_ERROR_ROWS_IN_400)) {
    errors[`rows.${row.line}`] = row.errors.map((e) => `Line ${row.line}: ${e}`);
  }
  if (rows.length > MAX_ERROR_ROWS_IN_400) {
    errors.rows = [`…and ${rows.length - MAX_ERROR_ROWS_IN_400} more rows with errors.`];
  }
  return new AppError('host_imports.all_invalid', { fieldErrors: errors });
}

/**
 * `POST /api/servers/imports?o=&dry_run=` (Endpoint.add). Permission first, then the file
 * is read (`readFile` throws for a missing, oversized or non-CSV upload). A dry run writes
 * nothing; an import writes every `new` row in one transaction, or answers 400 when every
 * row has errors (skipped duplicates and devices are not errors: re-sending a file is fine).
 */
export async function importHosts(
  ctx: AppContext,
  authz: Authz,
  query: HostImportQuery,
  readFile: () => Promise<Buffer>,
): Promise<HostImportResult> {
  const zone = await requireZone(ctx, authz, query.o, 'Endpoint', 'add');
  const { headers, records } = readCsv(await readFile());
  const { index, ignored } = mapColumns(headers);
  if (index.hostname === undefined) {
    throw new AppError('host_imports.no_hostname_column');
  }
  const parsed = records.map((r) => parseRow(r.cells, index, r.line));
  if (query.dry_run) return summarize(await evaluate(ctx.db, zone.id, parsed), 0, true, ignored);

  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const rows = await evaluate(tx, zone.id, parsed);
    const fresh = rows.filter((r) => r.status === 'new');
    const errorRows = rows.filter((r) => r.status === 'error');
    if (errorRows.length === rows.length) throw allInvalid(errorRows);
    const values: NewHostImport[] = fresh.map((r) => ({
      organizationId: zone.id,
      hostname: r.hostname,
      ipAddrs: r.ip_addrs,
      osFamily: r.os_family,
      groupId: r.server_group_id,
      tags: r.tags,
      serial: r.serial,
      notes: r.notes,
      importedBy: authz.userId,
      importedAt: now,
    }));
    const written = await insertHostImports(tx, values);
    const writtenHosts = new Set(written.map((w) => w.hostname));
    await logActivity(
      ctx,
      authz,
      zone.id,
      'host_import.create',
      { type: 'host_import', id: null, name: `${written.length} hosts` },
      { imported: written.length, rows: rows.length, errors: errorRows.length },
      tx,
    );
    // A row another import wrote meanwhile lost the race on the unique index: say so.
    const settled = rows.map((r): HostImportRow =>
      r.status === 'new' && !writtenHosts.has(r.hostname)
        ? { ...r, status: 'duplicate', errors: ['Imported meanwhile by another upload.'] }
        : r,
    );
    return summarize(settled, written.length, false, ignored);
  });
}

function toHostImport(row: HostImportListRow): HostImport {
  return {
    id: row.id,
    hostname: row.hostname,
    ip_addrs: row.ipAddrs,
    os_family: row.osFamily,
    server_group_id: row.groupId,
    group_name: row.groupName,
    tags: row.tags,
    serial: row.serial,
    notes: row.notes,
    imported_by: row.importedBy,
    imported_at: row.importedAt.toISOString(),
    status: row.status,
    enrolled_device_id: row.enrolledDeviceId,
    enrolled_at: row.enrolledAt?.toISOString() ?? null,
  };
}

/** `GET /api/servers/imports?o=&status=&search=&page=&limit=` (Endpoint.read), newest first. */
export async function listHostImports(
  ctx: AppContext,
  authz: Authz,
  query: ListHostImportsQuery,
): Promise<HostImportList> {
  const zone = await requireZone(ctx, authz, query.o, 'Endpoint', 'read');
  const { rows, size } = await findHostImports(
    ctx.db,
    zone.id,
    { status: query.status, search: query.search },
    { offset: query.page * query.limit, limit: query.limit },
  );
  return { data: rows.map(toHostImport), size };
}

/** `DELETE /api/servers/imports/{id}?o=` (Endpoint.add): only while it awaits its agent. */
export async function removeHostImport(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
): Promise<void> {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'add');
  const hostname = await deleteAwaitingHostImport(ctx.db, zone.id, id);
  if (hostname !== null) {
    await logActivity(ctx, authz, zone.id, 'host_import.delete', { type: 'host_import', id, name: hostname });
    return;
  }
  const row = await findHostImport(ctx.db, zone.id, id);
  if (!row) throw notFound();
  throw new AppError('host_imports.enrolled');
}

/**
 * The enrolment hook: when `hostname` matches an import awaiting its agent in the zone,
 * the device takes the import's group, tags and notes, and the import becomes `enrolled`.
 * Returns the device as it now is. Zones without a match pay one indexed read.
 */
export async function applyHostImport(
  db: Db,
  zoneId: number,
  device: DeviceRow,
  hostname: string,
  now: Date,
): Promise<DeviceRow> {
  const host = normalizeHostname(hostname);
  if (!host) return device;
  const short = shortName(host);
  const candidates = await findAwaitingByShortNames(db, zoneId, [short]);
  if (!candidates.some((c) => isSameHost(c, host))) return device;

  return db.transaction(async (tx) => {
    const locked = await lockAwaitingByShortName(tx, zoneId, short);
    const match = locked.find((c) => c.hostname === host) ?? locked.find((c) => isSameHost(c.hostname, host));
    if (!match) return device;
    const group = match.groupId === null ? undefined : await findZoneGroup(tx, zoneId, match.groupId);
    const tags = [...device.tags];
    for (const tag of match.tags) {
      if (!tags.some((t) => t.toLowerCase() === tag.toLowerCase())) tags.push(tag);
    }
    const notes =
      !match.notes || device.notes.includes(match.notes)
        ? device.notes
        : [device.notes, match.notes].filter(Boolean).join('\n');
    const updated = await applyImportToDevice(tx, device.id, {
      ...(group ? { groupId: group.id, checkinIntervalS: group.checkinIntervalS } : {}),
      tags,
      notes,
    });
    await markEnrolled(tx, match.id, device.id, now);
    return updated ?? device;
  });
}
