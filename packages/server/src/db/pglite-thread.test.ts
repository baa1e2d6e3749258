import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_CHANNEL, changeFeedOf } from './change-feed';
import { usePglite, type DbHandle } from './client';
import { isDatabaseUnavailable, isUniqueViolation } from './errors';
import { PGLITE_OPTIONS } from './pglite-options';
import { PgliteThread } from './pglite-thread';
import { copyCsv, copyRowsIn, queryRows } from './raw';

const TABLE = `create table t (
  id int primary key, at timestamptz, day date, span interval, tags text[], doc jsonb,
  big bigint, amount numeric(10, 2), raw bytea, flag boolean)`;
const ROW = `insert into t values (1, '2026-03-02 10:00:00+00', '2026-03-02', '90 minutes', '{a,"b c"}',
  '{"k": [1, 2]}', 9007199254740993, 12.5, '\\x00ff', true)`;

describe('PGlite in a thread of its own (decision 0029)', () => {
  let here: DbHandle;
  let there: DbHandle;
  beforeAll(async () => {
    here = await usePglite(await PGlite.create(PGLITE_OPTIONS), { migrate: false });
    there = await usePglite(await PgliteThread.open({}), { migrate: false });
    for (const h of [here, there]) {
      await h.db.execute(sql.raw(TABLE));
      await h.db.execute(sql.raw(ROW));
    }
  });
  afterAll(async () => {
    await here.close();
    await there.close();
  });

  it('answers drizzle with the same rows as PGlite in the server’s thread', async () => {
    const statements = [
      sql`select * from t`,
      sql`select id, at, day, span from t where id = ${1}`,
      sql`select ${'x'}::text as p, ${'{1,2}'}::int[] as a, ${new Date('2026-01-01T00:00:00Z')}::timestamptz as d`,
    ];
    for (const statement of statements) {
      expect(await queryRows(there.db, statement)).toEqual(await queryRows(here.db, statement));
    }
    // drizzle keeps times as PostgreSQL writes them: the worker must too, though its parsers cannot cross.
    const [row] = await queryRows<{ at: unknown }>(there.db, sql`select at from t`);
    expect(row!.at).toBe('2026-03-02 10:00:00+00');
  });

  it('keeps PostgreSQL’s fields on an error, which callers read', async () => {
    const err = await there.db.execute(sql.raw(ROW)).catch((e: unknown) => e);
    expect(isUniqueViolation(err, 't_pkey')).toBe(true);
    expect((err as { cause: unknown }).cause).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't' });
  });

  it('commits a transaction that resolves and rolls back one that throws, savepoints included', async () => {
    await there.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t (id) values (2)`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into t (id) values (3)`);
          throw new Error('inner fails');
        })
        .catch(() => undefined);
    });
    await expect(
      there.db.transaction(async (tx) => {
        await tx.execute(sql`insert into t (id) values (4)`);
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    const ids = await queryRows<{ id: number }>(there.db, sql`select id from t where id > 1 order by id`);
    expect(ids.map((r) => r.id)).toEqual([2]);
  });

  it('delivers a notification before the answer to the statement that sent it', async () => {
    const feed = changeFeedOf(there.db)!;
    const heard: string[] = [];
    feed.subscribe((payload) => heard.push(payload));
    await there.db.execute(sql`select pg_notify(${CACHE_CHANNEL}, 'zone:7')`);
    expect(heard).toContain('zone:7');
  });

  it('copies rows in and out as CSV through the worker', async () => {
    await copyRowsIn(
      there.db,
      't',
      ['id', 'tags', 'flag'],
      [
        [10, ['x', 'y,z'], true],
        [11, null, false],
      ],
    );
    const { csv, rows } = await copyCsv(there.db, 'select id, tags, flag from t where id >= 10 order by id');
    expect(rows).toBe(2);
    expect(csv).toBe('10,"{x,""y,z""}",t\n11,,f\n');
  });

  it('lets the event loop run while a statement runs', async () => {
    let turns = 0;
    let counting = true;
    const spin = () => {
      turns++;
      if (counting) setImmediate(spin);
    };
    setImmediate(spin);
    await there.db.execute(sql`select count(*) from generate_series(1, 2000000)`);
    counting = false;
    // In the server's thread the statement holds the loop: one turn at most, taken before it.
    expect(turns).toBeGreaterThan(10);
  });

  it('keeps a data directory’s rows across a close and an open', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pw-thread-'));
    try {
      const first = await usePglite(await PgliteThread.open({ dataDir: dir }), { migrate: false });
      await first.db.execute(sql.raw(TABLE));
      await first.db.execute(sql.raw(ROW));
      await first.close();
      const again = await usePglite(await PgliteThread.open({ dataDir: dir }), { migrate: false });
      expect(await queryRows(again.db, sql`select id from t`)).toEqual([{ id: 1 }]);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to open what is not a data directory, and refuses statements once closed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pw-thread-'));
    const file = path.join(dir, 'not-a-dir');
    writeFileSync(file, 'x');
    try {
      await expect(PgliteThread.open({ dataDir: file })).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const thread = await PgliteThread.open({});
    await thread.close();
    const refused = await thread.query('select 1').catch((e: unknown) => e);
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });

  it('fails a statement whose thread stops under it as a database that is down (503), and every one after', async () => {
    const thread = await PgliteThread.open({});
    const running = thread.query('select count(*) from generate_series(1, 50000000)').catch((e: unknown) => e);
    // As a crash would: the thread goes away while the statement runs.
    await (thread as unknown as { worker: Worker }).worker.terminate();
    expect(isDatabaseUnavailable(await running)).toBe(true);
    expect(isDatabaseUnavailable(await thread.exec('select 1').catch((e: unknown) => e))).toBe(true);
    await thread.close();
  });
});
