/**
 * A small in-memory cache whose entries the change feed drops (see change-feed.ts): each
 * entry carries tags (`u:12`, `z:3`), a payload equal to a tag drops the entries carrying it
 * and `*` drops all. Entries also expire after `ttlMs`, the bound on anything the triggers
 * could not see (a write made with triggers disabled, a connection that stalled unnoticed).
 */
import { changeFeedOf, type ChangeFeed } from './change-feed';
import type { Db } from './client';

type Entry<V> = { value: V; tags: readonly string[]; expiresAt: number };

export type NotifiedCache<V> = {
  /** The kept value, or undefined (none, expired, or the feed is not trusted). */
  get(key: string): V | undefined;
  /**
   * Keeps `value`, read by a query begun at feed version `since`, unless a change arrived
   * meanwhile (it may not be in the value) or the feed is not trusted.
   */
  set(key: string, tags: readonly string[], value: V, since: number): void;
  /** The feed's version now, to pass to {@link set} after the read. */
  version(): number;
  delete(key: string): void;
};

/** A cache for `db`, or one that keeps nothing when `db` has no change feed. */
export function createNotifiedCache<V>(db: Db, options: { ttlMs: number; max: number }): NotifiedCache<V> {
  const feed: ChangeFeed | undefined = changeFeedOf(db);
  const entries = new Map<string, Entry<V>>();
  const byTag = new Map<string, Set<string>>();

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    for (const tag of entry.tags) {
      const keys = byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) byTag.delete(tag);
    }
  };

  feed?.subscribe((payload) => {
    if (payload === '*') {
      entries.clear();
      byTag.clear();
      return;
    }
    for (const key of byTag.get(payload) ?? []) remove(key);
  });

  return {
    get(key) {
      if (!feed?.trusted) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= performance.now()) {
        remove(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, tags, value, since) {
      if (!feed?.trusted || feed.version !== since) return;
      remove(key);
      // The oldest entry goes first (a Map iterates in insertion order).
      if (entries.size >= options.max) remove(entries.keys().next().value!);
      entries.set(key, { value, tags, expiresAt: performance.now() + options.ttlMs });
      for (const tag of tags) {
        let keys = byTag.get(tag);
        if (!keys) byTag.set(tag, (keys = new Set()));
        keys.add(key);
      }
    },
    version: () => feed?.version ?? 0,
    delete: remove,
  };
}
