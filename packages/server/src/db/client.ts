import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { CACHE_CHANNEL, createChangeFeed, registerChangeFeed, type ChangeFeedSource } from './change-feed';
import { PGLITE_OPTIONS } from './pglite-options';
import { seedFromTemplate } from './pglite-template';
import { PgliteThread, type EmbeddedClient } from './pglite-thread';
import * as schema from './schema';
import type { Config } from '../config';
import { PACKAGE_ROOT } from '../package-root';

/** One type for both drivers (STACK 4.2): services never know which database they talk to. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open database and how to close it. PGlite keeps the process alive until closed. */
export type DbHandle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
};

export const MIGRATIONS_FOLDER = path.join(PACKAGE_ROOT, 'drizzle');

/**
 * The planner's cost of reading a page out of order, against 1 for reading the next one.
 * PostgreSQL's default of 4 prices a disk head's seek; on SSDs, with the working set
 * cached, it makes a 100,000-device zone's seq scan (46 MB) look cheaper than the
 * index-only scan that reads a tenth of it, three times as fast (the device list).
 */
const RANDOM_PAGE_COST = 1.1;

/** Longest run of back-to-back PGlite statements before the event loop gets a turn. */
const PGLITE_TURN_MS = 10;

/**
 * PGlite runs each statement synchronously in WebAssembly and resolves its promise as a
 * microtask, so a job issuing statement after statement (a data extract's 500 pages, a batch
 * build) never lets the event loop reach its I/O phase: every HTTP request, `/readyz`
 * included, waited for the whole job (a 1,000,000-row extract held them for 220 s and the
 * bench's poll was reset). Each statement outside a transaction first yields to the event
 * loop when the last yield is older than PGLITE_TURN_MS; a transaction stays one piece.
 */
function yieldBetweenStatements(client: PGlite): void {
  let lastTurn = performance.now();
  const turn = async () => {
    if (performance.now() - lastTurn < PGLITE_TURN_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    lastTurn = performance.now();
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (async (...args: Parameters<typeof query>) => {
    await turn();
    return query(...args);
  }) as typeof client.query;
  client.exec = async (...args: Parameters<typeof exec>) => {
    await turn();
    return exec(...args);
  };
  client.transaction = (async (...args: Parameters<typeof transaction>) => {
    await turn();
    return transaction(...args);
  }) as typeof client.transaction;
}

/** Wraps an open PGlite (tests pass a clone), in this thread or its own, and applies pending migrations. */
export async function usePglite(client: EmbeddedClient, options: { migrate?: boolean } = {}): Promise<DbHandle> {
  if (client instanceof PGlite) yieldBetweenStatements(client);
  // PGlite has a single session, so a session setting holds for the whole database.
  await client.exec(`set random_page_cost = ${RANDOM_PAGE_COST}`);
  // drizzle calls only what EmbeddedClient holds (pglite-thread.ts).
  const db = drizzlePglite({ client: client as PGlite, schema });
  if (options.migrate !== false) await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  // One process, one session: a notification arrives before the statement that caused it returns.
  const feed = createChangeFeed();
  await client.listen(CACHE_CHANNEL, feed.dispatch);
  feed.setTrusted(true);
  registerChangeFeed(db as unknown as Db, feed);
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}

/** Connects a node-postgres pool to `url` and applies pending migrations. */
export async function usePostgres(url: string, options: { migrate?: boolean } = {}): Promise<DbHandle> {
  if (options.migrate !== false) await migratePostgres(url);
  const feed = createChangeFeed();
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: `-c random_page_cost=${RANDOM_PAGE_COST}`,
    Client: listeningClient(feed),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema });
  registerChangeFeed(db as unknown as Db, feed);
  const listener = listenForOtherNodes(url, feed);
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    close: async () => {
      listener.stop();
      await pool.end();
    },
  };
}

/**
 * Pooled connections that LISTEN on the cache channel before their first query, so that a
 * write made here drops what it changed before its promise resolves (a session receives its
 * own notifications at commit, before the statement's end reaches the client).
 */
function listeningClient(feed: ChangeFeedSource): typeof pg.Client {
  return class extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('notification', (message) => {
        if (message.channel === CACHE_CHANNEL) feed.dispatch(message.payload ?? '*');
      });
    }
    // The pool connects with a callback and hands the client out after it: LISTEN comes first.
    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error | null, client?: pg.Client) => void): void;
    override connect(callback?: (err: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
      const ready = super.connect().then(async () => {
        await this.query(`LISTEN ${CACHE_CHANNEL}`);
        return this as pg.Client;
      });
      if (!callback) return ready;
      ready.then(
        (client) => callback(null, client),
        (err: Error) => callback(err),
      );
    }
  } as typeof pg.Client;
}

const LISTEN_RETRY_MS = 5000;

/**
 * A connection of its own that listens while the pool may have none open (idle pools
 * close theirs): the feed is trusted only while it listens, and each (re)connection
 * empties the caches, since a change may have come and gone meanwhile.
 */
function listenForOtherNodes(url: string, feed: ChangeFeedSource): { stop(): void } {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const lost = (which: pg.Client) => {
    if (stopped || client !== which) return;
    client = undefined;
    feed.setTrusted(false);
    void which.end().catch(() => undefined);
    retry = setTimeout(connect, LISTEN_RETRY_MS);
    retry.unref();
  };
  function connect() {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (message) => {
      if (message.channel === CACHE_CHANNEL) feed.dispatch(message.payload ?? '*');
    });
    c.connect()
      .then(() => c.query(`LISTEN ${CACHE_CHANNEL}`))
      .then(() => {
        if (client === c && !stopped) feed.setTrusted(true);
      })
      .catch(() => lost(c));
  }
  connect();
  return {
    stop() {
      stopped = true;
      clearTimeout(retry);
      feed.setTrusted(false);
      void client?.end().catch(() => undefined);
    },
  };
}

// Any constant works; it only has to be the same on every node.
const MIGRATION_LOCK_ID = 7_461_009;

/** Runs migrations on one connection holding an advisory lock, so nodes starting together take turns. */
async function migratePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.end();
  }
}

/**
 * Opens the configured database and brings its schema up to date: PostgreSQL when
 * `databaseUrl` is set, otherwise PGlite in `pgliteDataDir` (or in memory for `memory://`),
 * in a thread of its own unless `pgliteThread` is `main` (decision 0029).
 * Migrations are forward-only and idempotent, so every node may run them at start.
 */
export async function openDb(
  config: Pick<Config, 'pgliteDataDir'> & { databaseUrl?: string; pgliteThread?: Config['pgliteThread'] },
): Promise<DbHandle> {
  if (config.databaseUrl) return usePostgres(config.databaseUrl);
  const inMemory = config.pgliteDataDir === 'memory://';
  if (!inMemory) {
    // An empty directory starts from the build's migrated template when there is one (pglite-template.ts).
    seedFromTemplate(config.pgliteDataDir, MIGRATIONS_FOLDER);
    await mkdir(config.pgliteDataDir, { recursive: true });
  }
  const dataDir = inMemory ? undefined : config.pgliteDataDir;
  if (config.pgliteThread === 'main') return usePglite(await PGlite.create(dataDir, PGLITE_OPTIONS));
  return usePglite(await PgliteThread.open({ dataDir }));
}
