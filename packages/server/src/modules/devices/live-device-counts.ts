import type { Db } from '../../db/client';
import { createNotifiedCache, type NotifiedCache } from '../../db/notified-cache';
import { countLiveDevices } from './device-list.store';

/**
 * Each zone's count of live devices, as the unfiltered list shows it (`size`): counting
 * 100,000 index entries was most of the first page's cost, and the count changes only when
 * a device is enrolled, moved or removed. The change feed drops a zone's count on each such
 * write (the `devices` triggers of migration 20261128140340), before the write returns on
 * this node and within milliseconds on others (decision 0020); the lifetime bounds the rest.
 */
const COUNT_TTL_MS = 30_000;
const COUNT_CACHE_MAX = 10_000;
const caches = new WeakMap<Db, NotifiedCache<number>>();

/** {@link countLiveDevices}, kept until the zone's devices change. */
export async function cachedLiveDeviceCount(db: Db, zoneId: number): Promise<number> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = createNotifiedCache<number>(db, { ttlMs: COUNT_TTL_MS, max: COUNT_CACHE_MAX })));
  const key = String(zoneId);
  const kept = cache.get(key);
  if (kept !== undefined) return kept;
  const since = cache.version();
  const count = await countLiveDevices(db, zoneId);
  cache.set(key, [`z:${zoneId}`], count, since);
  return count;
}
