import { sql } from 'drizzle-orm';
import { PATCH_COMMAND_TYPES } from '@patchwell/core/reports/reports.schema';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { users } from '../../db/schema';
import { deviceCommands, devices } from '../../db/devices.schema';

/**
 * What the quick start guide's steps read (it writes nothing here): whether the zone has a
 * device, an inventory, a real patch install, and whether the user opened a report.
 */

export type OnboardingFacts = { devices: boolean; scanned: boolean; patched: boolean; reviewed: boolean };

export async function findOnboardingFacts(
  db: Db,
  zoneId: number,
  userId: number,
  reviewFlags: readonly string[],
): Promise<OnboardingFacts> {
  const types = sql.join(
    PATCH_COMMAND_TYPES.map((t) => sql`${t}`),
    sql`, `,
  );
  const flags = sql.join(
    reviewFlags.map((f) => sql`coalesce(u.metadata->>${f}, 'false') = 'true'`),
    sql` or `,
  );
  const [row] = await queryRows<OnboardingFacts>(
    db,
    sql`select
          exists (select 1 from ${devices} d where d.organization_id = ${zoneId} and d.removed_at is null) as devices,
          exists (select 1 from ${devices} d where d.organization_id = ${zoneId} and d.removed_at is null
                    and d.last_inventory_at is not null) as scanned,
          -- A real install: successful and not a dry run of an agent without --allow-changes.
          exists (select 1 from ${deviceCommands} c where c.organization_id = ${zoneId} and c.status = 'success'
                    and c.type in (${types}) and coalesce(c.data->>'simulated', 'false') <> 'true') as patched,
          coalesce((select ${flags} from ${users} u where u.id = ${userId}), false) as reviewed`,
  );
  return {
    devices: Boolean(row?.devices),
    scanned: Boolean(row?.scanned),
    patched: Boolean(row?.patched),
    reviewed: Boolean(row?.reviewed),
  };
}
