/**
 * The devices' CSV export as COPY writes it: a page of devices (ids in the list's order) as
 * CSV lines made by the database, so no row becomes a JavaScript value. The cells are what
 * `toDevice` and core's `csvCell` make of a list row (devices.service.ts, http/csv.ts):
 * device-export.test.ts compares the two byte for byte.
 */
import type { Db } from '../../db/client';
import { copyCsvBytes, literal } from '../../db/raw';
import { isoCellSql, listCellSql, textCellSql } from '../reports/extract-sources.store';

/** The export's columns: header and cell (SQL over `d` devices, `g` its group, `pr` its presence). */
export function exportColumns(now: Date): [string, string][] {
  return [
    ['ID', 'd.id'],
    // display_name: `custom_name || hostname` (an empty custom name shows the host name).
    ['Name', textCellSql(`coalesce(nullif(d.custom_name, ''), d.hostname)`)],
    ['Hostname', textCellSql('d.hostname')],
    ['OS family', textCellSql('d.os_family')],
    ['OS', textCellSql('d.os_name')],
    ['OS version', textCellSql('d.os_version')],
    ['Agent version', textCellSql('d.agent_version')],
    ['Group', textCellSql('g.name')],
    ['Tags', listCellSql('d.tags')],
    ['IP addresses', listCellSql('d.ip_addrs')],
    ['Private IP addresses', listCellSql('d.ip_addrs_private')],
    // presence.store's onlineAt.
    ['Online', `coalesce(pr.online_until > ${literal.timestamptz(now)}, false)::text`],
    ['Last seen', isoCellSql('pr.last_seen_at')],
    ['Needs reboot', 'd.needs_reboot::text'],
    ['Pending patches', 'd.pending_patches'],
    ['Compliance', textCellSql('d.compliance')],
    ['Created', isoCellSql('d.created_at')],
  ];
}

/**
 * The zone's live devices among `ids`, in the order of `ids`, as CSV lines (no header). The
 * ids are the server's own integers (findAllDeviceIds), written into the statement: COPY
 * takes no parameters.
 */
export async function copyDevicePage(db: Db, zoneId: number, ids: number[], now: Date): Promise<Buffer> {
  if (!ids.length) return Buffer.alloc(0);
  const cells = exportColumns(now)
    .map(([, cell]) => cell)
    .join(', ');
  const { bytes } = await copyCsvBytes(
    db,
    `select ${cells}
       from unnest('{${ids.map(literal.int).join(',')}}'::int[]) with ordinality as u(id, ord)
       join devices d on d.id = u.id
       join server_groups g on g.id = d.group_id
       left join device_presence pr on pr.device_id = d.id
      where d.organization_id = ${literal.int(zoneId)} and d.removed_at is null
      order by u.ord`,
  );
  return bytes;
}
