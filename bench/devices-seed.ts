/**
 * Bulk seeding for the 100,000-device bench. Enrolling 100,000 devices through HTTP would take
 * most of the bench's time, so after a sample enrols through the real API the rest are
 * written straight to the stopped server's database with the server's own schema and store
 * code: the same columns `upsertEnrolledDevice` fills (system facts from the simulator's
 * machine generator, the default group and its interval, a hashed `pwd_` token), plus what
 * check-ins and an inventory leave behind (last seen, addresses, pending patches, compliance).
 * A share of them get a full inventory through `replaceInventory`, the store function behind
 * `PUT /api/agent/v1/inventory`. `onMachine` sees each generated machine (for its token and check-in body).
 */
import { ZInventoryBody } from '@patchwell/core/agent/agent-protocol.schema';
import { complianceOf } from '@patchwell/core/devices/compliance';
import { inventoryHash } from '@patchwell/agent/jobs/inventory';
import { generateMachine, type SimMachine } from '@patchwell/agent/simulate/inventory';
import { hashDeviceToken } from '../packages/server/src/agent-api/agent.service';
import { replaceInventory } from '../packages/server/src/agent-api/agent.store';
import { openDb } from '../packages/server/src/db/client';
import { queryRows } from '../packages/server/src/db/raw';
import { sql } from 'drizzle-orm';
import { deviceDetails, devicePresence, devices } from '../packages/server/src/db/devices.schema';
import { ONLINE_GRACE_S } from '../packages/server/src/modules/devices/presence.store';
import { ensureDefaultGroup } from '../packages/server/src/modules/devices/groups.store';

/** The fleet's seed: device `i` is the simulator's machine `generateMachine(SEED, i)`. */
export const SEED = 1;
const ROWS_PER_INSERT = 1000;

/** The token of seeded device `i`: the real token's shape (`pwd_` + 40 alphanumerics), derived from `i`. */
export function seededToken(i: number): string {
  return `pwd_bench${String(i).padStart(35, '0')}`;
}

/** The inventory hash a seeded device reports, so its check-ins do not ask for an inventory. */
export function seededHash(m: SimMachine): string {
  return inventoryHash(m.system, m.software, m.patches);
}

/** The enrolment body the agent would send for machine `m` with the zone's access key. */
export function enrollBodyOf(accessKey: string, m: SimMachine) {
  return {
    access_key: accessKey,
    machine_id: m.machineId,
    hostname: m.system.hostname,
    os_family: m.system.os_family,
    os_name: m.system.os_name,
    os_version: m.system.os_version,
    arch: m.system.arch,
    agent_version: m.system.agent_version,
  };
}

/** The inventory body the agent would send for machine `m`. */
export function inventoryOf(m: SimMachine) {
  return { hash: seededHash(m), system: m.system, software: m.software, patches: m.patches };
}

/** The check-in status the agent would send for machine `m`. */
export function statusOf(m: SimMachine) {
  return {
    uptime_s: m.system.uptime_s,
    logged_in_user: m.system.logged_in_user,
    needs_reboot: m.needsReboot,
    ip_addrs: [m.ipPublic],
    ip_addrs_private: [m.ipPrivate],
  };
}

export type SeedReport = { devices: number; seconds: number; inventories: number; inventorySeconds: number };

/**
 * Adds devices `from`…`to - 1` to the zone's default group, as enrolment does, and gives devices `from`…`inventoryTo - 1` a full inventory.
 */
export async function seedDevices(
  config: { databaseUrl?: string; pgliteDataDir: string },
  zoneId: number,
  range: { from: number; to: number; inventoryTo: number },
  now: Date,
  onMachine: (m: SimMachine) => void,
): Promise<SeedReport> {
  const handle = await openDb(config);
  const { db } = handle;
  try {
    const group = await ensureDefaultGroup(db, zoneId, now);
    const t0 = performance.now();
    const withInventory: { id: number; machine: SimMachine }[] = [];
    for (let start = range.from; start < range.to; start += ROWS_PER_INSERT) {
      const machines: SimMachine[] = [];
      for (let i = start; i < Math.min(range.to, start + ROWS_PER_INSERT); i++) {
        const m = generateMachine(SEED, i);
        onMachine(m);
        machines.push(m);
      }
      // Nine in ten checked in within the last two minutes (online); the rest days ago.
      const lastSeen = (m: SimMachine) =>
        new Date(now.getTime() - (m.index % 10 === 9 ? 86_400_000 * (1 + (m.index % 7)) : (m.index * 7919) % 120_000));
      const rows = machines.map((m) => ({
        organizationId: zoneId,
        groupId: group.id,
        checkinIntervalS: group.checkinIntervalS,
        machineId: m.machineId,
        hostname: m.system.hostname,
        osFamily: m.system.os_family,
        osName: m.system.os_name,
        osVersion: m.system.os_version,
        arch: m.system.arch,
        agentVersion: m.system.agent_version,
        tokenHash: hashDeviceToken(seededToken(m.index)),
        ipAddrs: [m.ipPublic],
        ipAddrsPrivate: [m.ipPrivate],
        needsReboot: m.needsReboot,
        inventoryHash: m.index < range.inventoryTo ? null : seededHash(m),
        lastInventoryAt: m.index < range.inventoryTo ? null : now,
        // What replaceInventory writes: the details (below), and these columns from them.
        timezone: m.system.timezone ?? null,
        loggedInUser: m.system.logged_in_user ?? null,
        compliance: complianceOf(m.patches.map((p) => p.severity)),
        pendingPatches: m.patches.length,
        createdAt: new Date(now.getTime() - 86_400_000 * 30 + m.index * 1000),
      }));
      const inserted = await db.insert(devices).values(rows).returning({ id: devices.id });
      await db
        .insert(deviceDetails)
        .values(inserted.map((row, k) => ({ deviceId: row.id, detail: machines[k]!.system, updatedAt: now })));
      // What a check-in writes (agent.store writeLastSeen).
      await db.insert(devicePresence).values(
        inserted.map((row, k) => {
          const at = lastSeen(machines[k]!);
          return {
            deviceId: row.id,
            organizationId: zoneId,
            lastSeenAt: at,
            onlineUntil: new Date(at.getTime() + (group.checkinIntervalS + ONLINE_GRACE_S) * 1000),
            uptimeS: machines[k]!.system.uptime_s ?? null,
          };
        }),
      );
      inserted.forEach((row, k) => {
        const machine = machines[k]!;
        if (machine.index < range.inventoryTo) withInventory.push({ id: row.id, machine });
      });
    }
    const seconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    for (const { id, machine } of withInventory) {
      await replaceInventory(db, id, ZInventoryBody.parse(inventoryOf(machine)), now);
    }
    // What autovacuum does after a bulk load (PGlite has none; the server analyzes there,
    // and this machine's PostgreSQL runs with autovacuum off).
    await db.execute(sql`vacuum analyze`);
    return {
      devices: range.to - range.from,
      seconds,
      inventories: withInventory.length,
      inventorySeconds: (performance.now() - t1) / 1000,
    };
  } finally {
    await handle.close();
  }
}

/** Writes each machine's pending patches and their names as the inventory endpoint would, two JSON statements per 5,000 devices. */
export async function seedPatches(config: { databaseUrl?: string; pgliteDataDir: string }, machines: SimMachine[]) {
  const handle = await openDb(config);
  const { db } = handle;
  let rows = 0;
  try {
    const ids = new Map<string, number>();
    const found = await queryRows<{ id: number; machine_id: string }>(db, sql`select id, machine_id from devices`);
    for (const r of found) ids.set(r.machine_id, Number(r.id));
    for (let i = 0; i < machines.length; i += 5000) {
      const json = machines.slice(i, i + 5000).flatMap((m) =>
        m.patches.map((p) => ({
          device_id: ids.get(m.machineId)!,
          name: p.name,
          current_version: p.current_version,
          version: p.version,
          severity: p.severity,
          cves: p.cves,
          kb: p.kb,
          source: p.source,
          reboot_required: p.reboot_required,
          published_at: p.published_at,
        })),
      );
      rows += json.length;
      await db.execute(sql`
        insert into device_patches (device_id, name, current_version, version, severity, cves, kb, source,
               reboot_required, published_at)
        select device_id, name, current_version, version, severity, cves, kb, source, reboot_required, published_at
          from jsonb_to_recordset(${JSON.stringify(json)}::jsonb) as v(device_id int, name text,
               current_version text, version text, severity text, cves text[], kb text, source text,
               reboot_required boolean, published_at timestamptz)`);
      // Each device's names once, in order, as the inventory endpoint keeps them for patch_all runs.
      const names = machines
        .slice(i, i + 5000)
        .map((m) => ({ device_id: ids.get(m.machineId)!, names: [...new Set(m.patches.map((p) => p.name))] }));
      await db.execute(sql`
        insert into device_patch_names (device_id, names)
        select device_id, names from jsonb_to_recordset(${JSON.stringify(names)}::jsonb) as v(device_id int, names text[])
        on conflict (device_id) do update set names = excluded.names`);
    }
    await db.execute(sql`vacuum analyze`);
  } finally {
    await handle.close();
  }
  return rows;
}
