/** The raw helpers' round trips, on whichever database runs the tests. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDbHandle } from '../test/db';
import { bigint, boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { copyRowsIn, executeArgs, queryRows, queryRowsAsJson, tableRowFromJson, type CopyValue } from './raw';

let handle: TestDbHandle;
beforeAll(async () => {
  handle = await createTestDb();
  await handle.db.execute(sql`create table raw_copy_probe (id int, label text, tags text[], score real, flag boolean)`);
});
afterAll(async () => {
  await handle.close();
});

// What scanner exports put in cells: quotes, commas, both line ends, backslashes, braces,
// an empty text (which is not a null), a formula, and text beyond ASCII.
const ROWS: CopyValue[][] = [
  [1, 'plain', ['10.0.0.1', 'fe80::1'], 7.5, true],
  [2, 'a "quoted", comma\r\nand a line', ['a "b"', 'c,d', 'back\\slash', '{brace}'], null, false],
  [3, '', [], 0, null],
  [4, null, null, -1.25, true],
  [5, '=HYPERLINK("x")', ['NULL'], 9.8, false],
  [6, 'Ünïcödé 漢字 😀', ['é'], 1e-3, true],
];

describe('copyRowsIn', () => {
  it('writes every value as itself, nulls and empty texts apart, in one COPY', async () => {
    await copyRowsIn(handle.db, 'raw_copy_probe', ['id', 'label', 'tags', 'score', 'flag'], ROWS);
    const back = await queryRows<{
      id: number;
      label: string | null;
      tags: string[] | null;
      score: number | null;
      flag: boolean | null;
    }>(handle.db, sql`select id, label, tags, score, flag from raw_copy_probe order by id`);
    // A real comes back as its shortest text (9.8, not 9.800000190734863).
    expect(back.map((r) => [r.id, r.label, r.tags, r.score === null ? null : Number(r.score), r.flag])).toEqual(ROWS);
  });

  it('runs on the caller’s transaction: a rollback leaves nothing', async () => {
    await handle.db
      .transaction(async (tx) => {
        await copyRowsIn(tx, 'raw_copy_probe', ['id', 'label'], [[100, 'rolled back']]);
        const inside = await queryRows<{ n: number }>(
          tx as never,
          sql`select count(*)::int as n from raw_copy_probe where id = 100`,
        );
        expect(inside[0]!.n).toBe(1);
        throw new Error('roll back');
      })
      .catch((err: Error) => expect(err.message).toBe('roll back'));
    const after = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from raw_copy_probe where id = 100`,
    );
    expect(after[0]!.n).toBe(0);
  });
});

describe('queryRowsAsJson', () => {
  it('reads rows as one value, in the order asked for', async () => {
    const rows = await queryRowsAsJson<{ id: number; tags: string[] | null }>(
      handle.db,
      sql`select id, tags from raw_copy_probe`,
      sql`q.id desc`,
    );
    expect(rows.map((r) => r.id)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(rows.find((r) => r.id === 2)?.tags).toEqual(['a "b"', 'c,d', 'back\\slash', '{brace}']);
    expect(await queryRowsAsJson(handle.db, sql`select id from raw_copy_probe where false`)).toEqual([]);
  });

  it('answers the same as a prepared statement, reused with other values and side by side', async () => {
    const read = (ids: number[], prepared: boolean) =>
      queryRowsAsJson<{ id: number; label: string | null }>(
        handle.db,
        sql`select id, label from raw_copy_probe where id = any(${sql.param(ids)}::int[])`,
        sql`q.id`,
        { prepared },
      );
    // More at once than one pooled connection: every connection prepares it the first time.
    const cases = [[1, 2], [3], [4, 5, 6], [], [2, 6], [1], [5], [6, 3]];
    const prepared = await Promise.all(cases.map((ids) => read(ids, true)));
    const plain = await Promise.all(cases.map((ids) => read(ids, false)));
    expect(prepared).toEqual(plain);
    expect(prepared[2]!.map((r) => r.id)).toEqual([4, 5, 6]);
    expect(prepared[3]).toEqual([]);
  });

  // On PGlite the values are written into EXECUTE as literals: every text must arrive as itself.
  it('finds every text by itself through a prepared statement: quotes, backslashes, lines, arrays, nulls', async () => {
    const labels = ROWS.map((r) => r[1] as string | null);
    for (const label of [...labels, "O'Brien", "''; drop table raw_copy_probe; --", '\\x41']) {
      const read = (prepared: boolean) =>
        queryRowsAsJson<{ id: number }>(
          handle.db,
          sql`select id from raw_copy_probe where label is not distinct from ${label}::text`,
          sql`q.id`,
          { prepared },
        );
      expect(await read(true)).toEqual(await read(false));
    }
    const tags = ROWS.flatMap((r) => (r[2] as string[] | null) ?? []);
    const byTag = (prepared: boolean) =>
      queryRowsAsJson<{ id: number }>(
        handle.db,
        sql`select id from raw_copy_probe where tags && ${sql.param(tags)}::text[] and ${true} and score > ${-2.5}`,
        sql`q.id`,
        { prepared },
      );
    expect((await byTag(true)).map((r) => r.id)).toEqual([1, 5, 6]);
    expect(await byTag(true)).toEqual(await byTag(false));
  });

  it('reads inside a transaction, prepared or not', async () => {
    await handle.db.transaction(async (tx) => {
      const rows = await queryRowsAsJson<{ id: number }>(
        tx as never,
        sql`select id from raw_copy_probe where id = ${3}`,
        undefined,
        { prepared: true },
      );
      expect(rows).toEqual([{ id: 3 }]);
    });
  });
});

describe('executeArgs', () => {
  it('writes numbers, booleans, nulls, texts and arrays as literals, and refuses what it cannot write', () => {
    expect(executeArgs([1, -2.5, true, null, "it's", [1, 2], ['a"b', 'c']])).toBe(
      `(1, -2.5, true, null, 'it''s', '{1,2}', '{"a\\"b","c"}')`,
    );
    expect(executeArgs([])).toBe('');
    expect(executeArgs(['nul\0byte'])).toBeUndefined();
    expect(executeArgs([Number.NaN])).toBeUndefined();
    expect(executeArgs([{ a: 1 }])).toBeUndefined();
    expect(executeArgs([[1, 'mixed']])).toBeUndefined();
  });
});

describe('tableRowFromJson', () => {
  it('gives back what a select of the table gives, dates, arrays, json and nulls alike', async () => {
    const probe = pgTable('raw_json_probe', {
      id: integer('id').primaryKey(),
      seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }),
      tags: text('tags').array(),
      detail: jsonb('detail'),
      uptimeS: bigint('uptime_s', { mode: 'number' }),
      flag: boolean('flag'),
    });
    await handle.db.execute(
      sql`create table raw_json_probe (id int primary key, seen_at timestamptz, tags text[], detail jsonb, uptime_s bigint, flag boolean)`,
    );
    await handle.db.insert(probe).values([
      {
        id: 1,
        seenAt: new Date('2026-05-09T10:00:00.123Z'),
        tags: ['a', 'b,c'],
        detail: { x: [1, 'y'] },
        uptimeS: 2 ** 40,
        flag: true,
      },
      { id: 2, seenAt: null, tags: [], detail: null, uptimeS: null, flag: null },
    ]);
    const selected = await handle.db.select().from(probe).orderBy(probe.id);
    const json = await queryRowsAsJson<{ r: Record<string, unknown> }>(
      handle.db,
      sql`select row_to_json(raw_json_probe) as r, id from raw_json_probe`,
      sql`q.id`,
    );
    expect(json.map((row) => tableRowFromJson(probe, row.r))).toEqual(selected);
  });
});
