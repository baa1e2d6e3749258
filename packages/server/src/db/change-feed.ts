/**
 * What other statements changed, for the caches a node keeps in memory (signed-in sessions,
 * profiles, zones' device counts): triggers (migration 20261128140340_cache_notifications)
 * send NOTIFY on {@link CACHE_CHANNEL} for every change to what those caches hold, whoever
 * makes it, and this feed hands each payload to the caches of that database.
 *
 * When the answer is trusted:
 * - PGlite is one process: its notifications arrive before the statement's promise resolves.
 * - PostgreSQL: every pooled connection listens too, so this node's own writes are seen
 *   before their promise resolves (PostgreSQL sends a session its own notifications at
 *   commit, before ReadyForQuery). Other nodes' writes arrive on a dedicated connection,
 *   within milliseconds of their commit; while it is not listening the feed is untrusted and
 *   the caches are bypassed, and every (re)connection empties them.
 */
export const CACHE_CHANNEL = 'patchwell_cache';

export type ChangeFeed = {
  /** Whether a change made anywhere reaches this feed; caches serve nothing while it is false. */
  readonly trusted: boolean;
  /**
   * Bumped by every payload and every change of trust: a read that began at another version
   * may have raced with a change, so its result must not be kept.
   */
  readonly version: number;
  /** Calls `fn` with every payload (`*` also when trust is lost or regained). */
  subscribe(fn: (payload: string) => void): void;
};

/** The feed's writable side, for the database client that owns the connections. */
export type ChangeFeedSource = ChangeFeed & {
  dispatch(payload: string): void;
  setTrusted(trusted: boolean): void;
};

export function createChangeFeed(): ChangeFeedSource {
  const subscribers: ((payload: string) => void)[] = [];
  let trusted = false;
  let version = 0;
  const dispatch = (payload: string) => {
    version++;
    for (const fn of subscribers) fn(payload);
  };
  return {
    get trusted() {
      return trusted;
    },
    get version() {
      return version;
    },
    subscribe(fn) {
      subscribers.push(fn);
    },
    dispatch,
    setTrusted(value) {
      trusted = value;
      dispatch('*');
    },
  };
}

// Keyed by the drizzle database object (typed loosely: client.ts, which makes both, imports this file).
const feeds = new WeakMap<object, ChangeFeed>();

export function registerChangeFeed(db: object, feed: ChangeFeed): void {
  feeds.set(db, feed);
}

/** The feed of `db`, or undefined (a database opened without one: nothing may be cached). */
export function changeFeedOf(db: object): ChangeFeed | undefined {
  return feeds.get(db);
}
