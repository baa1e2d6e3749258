/** Collects the inventory through a platform adapter and hashes what matters for change detection. */
import { createHash } from 'node:crypto';
import type { Inventory, Patch, SoftwareItem, SystemInfo } from '../protocol.js';
import type { Platform } from '../platform/platform.js';

/** Rows beyond the server's limits are dropped (20,000 software rows, 5,000 patches). */
export const MAX_SOFTWARE = 20_000;
export const MAX_PATCHES = 5_000;

/**
 * Uptime and the logged-in user change all the time and travel with every check-in anyway;
 * leaving them out of the hash keeps an unchanged machine from re-sending its inventory.
 */
export function inventoryHash(system: SystemInfo, software: SoftwareItem[], patches: Patch[]): string {
  const { uptime_s: _uptime, logged_in_user: _user, ...stable } = system;
  const key = (a: { name: string; version: string }, b: { name: string; version: string }) =>
    a.name === b.name ? (a.version < b.version ? -1 : 1) : a.name < b.name ? -1 : 1;
  const h = createHash('sha256');
  h.update(JSON.stringify(stable));
  for (const s of [...software].sort(key))
    h.update(`s\u0000${s.name}\u0000${s.version}\u0000${s.arch}\u0000${s.source}\n`);
  for (const p of [...patches].sort(key)) h.update(`p\u0000${JSON.stringify(p)}\n`);
  return h.digest('hex');
}

const cut = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);
const cutOrNull = (value: string | null, max: number) => (value === null ? null : cut(value, max));

/** Fits rows into the shared schema's field limits (names 300, versions 200, sources 50). */
export function fitSoftware(rows: SoftwareItem[]): SoftwareItem[] {
  return rows.slice(0, MAX_SOFTWARE).map((s) => ({
    name: cut(s.name, 300),
    version: cut(s.version, 200),
    source: cut(s.source, 50),
    arch: cutOrNull(s.arch, 50),
  }));
}

export function fitPatches(rows: Patch[]): Patch[] {
  return rows.slice(0, MAX_PATCHES).map((p) => ({
    ...p,
    name: cut(p.name, 300),
    version: cut(p.version, 200),
    current_version: cutOrNull(p.current_version, 200),
    source: cut(p.source, 50),
    kb: cutOrNull(p.kb, 50),
    cves: p.cves.slice(0, 1000),
  }));
}

export async function collectInventory(platform: Platform): Promise<Inventory> {
  const [system, software, patches] = await Promise.all([platform.system(), platform.software(), platform.patches()]);
  const sw = fitSoftware(software);
  const pt = fitPatches(patches);
  return { hash: inventoryHash(system, sw, pt), system, software: sw, patches: pt };
}
