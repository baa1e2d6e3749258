/** The connection settings the app's queries are planned with, on whichever database runs the tests. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDbHandle } from '../test/db';
import { openDb } from './client';
import { PGLITE_SHARED_BUFFERS } from './pglite-options';
import { queryRows } from './raw';

let handle: TestDbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe('the database connection', () => {
  it('plans with the random page cost of cached SSD storage on every connection', async () => {
    // Several at once, so a pool opens more than one connection.
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        queryRows<{ c: string }>(handle.db, sql`select current_setting('random_page_cost') as c`),
      ),
    );
    expect(answers.map((rows) => rows[0]!.c)).toEqual(['1.1', '1.1', '1.1', '1.1']);
  });

  it('reads a page deep in a large zone’s device list from the index alone', async () => {
    const rows = await queryRows<{ 'QUERY PLAN': string }>(
      handle.db,
      sql`explain select id from devices where organization_id = 1 and removed_at is null
            order by lower(coalesce(custom_name, hostname)), id limit 100 offset 40000`,
    );
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('Index Only Scan using devices_org_name_idx');
  });
});

describe('a long run of statements on PGlite in the server’s thread (PGLITE_THREAD=main)', () => {
  it('leaves the event loop turns to answer other work while it runs', async () => {
    const inThread = await openDb({ pgliteDataDir: 'memory://', pgliteThread: 'main' });
    // A job issuing statement after statement (an extract's pages): a timer due now must fire
    // before the job's last statement, not after it. On PGlite, whose statements resolve as
    // microtasks, the timer used to wait for the whole job.
    let statements = 0;
    let statementsWhenTimerFired = -1;
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        statementsWhenTimerFired = statements;
        resolve();
      }, 0),
    );
    try {
      for (let i = 0; i < 400; i++) {
        await queryRows(inThread.db, sql`select count(*) from generate_series(1, 2000)`);
        statements += 1;
      }
    } finally {
      await inThread.close();
    }
    await timer;
    expect(statementsWhenTimerFired).toBeGreaterThanOrEqual(0);
    expect(statementsWhenTimerFired).toBeLessThan(400);
  });
});

describe('the embedded database', () => {
  it.each(['worker', 'main'] as const)(
    'runs with the shared buffers decision 0026 gives it, not PostgreSQL’s default (%s thread)',
    async (pgliteThread) => {
      const pglite = await openDb({ pgliteDataDir: 'memory://', pgliteThread });
      try {
        const [row] = await queryRows<{ s: string }>(pglite.db, sql`select current_setting('shared_buffers') as s`);
        expect(row!.s).toBe(PGLITE_SHARED_BUFFERS);
        expect(PGLITE_SHARED_BUFFERS).not.toBe('128MB');
      } finally {
        await pglite.close();
      }
    },
  );
});
