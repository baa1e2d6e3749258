import type { Db } from '../../db/client';
import { createNotifiedCache, type NotifiedCache } from '../../db/notified-cache';
import { findZone, type ZoneRow } from './zones.store';

/**
 * Zones as every zone-scoped request reads them first (`requireZone`): a zone changes
 * rarely, and reading its row cost a tenth to a half of a short request on PGlite (2.4 ms of
 * a device-list page's 10 ms). The `organizations` trigger of migration 20261128140340 sends
 * `*` on every change to any zone, which empties the cache before the write returns on this
 * node and within milliseconds on others (decision 0020); the lifetime bounds the rest.
 * Callers must not change the row they get.
 */
const ZONE_TTL_MS = 30_000;
const ZONE_CACHE_MAX = 10_000;
const caches = new WeakMap<Db, NotifiedCache<ZoneRow | null>>();

/** {@link findZone}, kept until a zone changes. */
export async function findZoneCached(db: Db, id: number): Promise<ZoneRow | undefined> {
  let cache = caches.get(db);
  if (!cache)
    caches.set(db, (cache = createNotifiedCache<ZoneRow | null>(db, { ttlMs: ZONE_TTL_MS, max: ZONE_CACHE_MAX })));
  const key = String(id);
  const kept = cache.get(key);
  if (kept !== undefined) return kept ?? undefined;
  const since = cache.version();
  const zone = await findZone(db, id);
  // A zone that does not exist is kept too (a probe of ids is answered from memory); its
  // creation is a change to `organizations` like any other.
  cache.set(key, [], Object.freeze(zone ?? null) as ZoneRow | null, since);
  return zone;
}
