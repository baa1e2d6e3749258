import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { sha256Hex } from '../domain/sha256';
import type { Db } from './client';
import type { EmbeddedClient } from './pglite-thread';

/** Turns drizzle's `sql` into text and parameters, as the drivers would. */
const dialect = new PgDialect();

/** The driver under a database handle (drizzle keeps it as `$client`): PGlite, or node-postgres' pool. */
function driverOf(db: Db): { pglite: EmbeddedClient; pool?: never } | { pglite?: never; pool: pg.Pool } {
  // A transaction has no `$client`: it reads as neither, and callers take their generic path.
  const client = (db as unknown as { $client?: object }).$client;
  // PGlite, in this thread or its own, has `exec`; node-postgres' pool does not.
  return client && 'exec' in client ? { pglite: client as EmbeddedClient } : { pool: client as pg.Pool };
}

/**
 * Rows of a raw statement. Both drivers answer `db.execute` with an object holding `rows`
 * (PGlite's Results, node-postgres' QueryResult); the shared `Db` type only says unknown.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * The rows of `select` read as one JSON value. On PGlite, whose rows cross from WebAssembly
 * one value at a time, a 10,000-row read costs a quarter as much this way; node-postgres
 * gains too (one value to parse). Values are what JSON makes of them: numbers, strings,
 * arrays, and times as ISO text. `order` (over the select's columns, as `q.<column>`) keeps
 * the rows' order, which an aggregate does not promise otherwise.
 *
 * `prepared`: a prepared statement named by a hash of its text, so a hot read that many
 * requests repeat is planned once, not every time (the device list's first page: 2.8 ms of
 * planning for 1.2 ms of execution on PostgreSQL, 1.1 ms for 1.1 ms on PGlite). On PostgreSQL
 * a named statement of the extended protocol, kept by each pooled connection; on PGlite,
 * whose one session node-postgres' protocol does not reach, `PREPARE` once and `EXECUTE` with
 * the values written as literals (see `executeArgs`). Only for statements whose text takes few
 * shapes (values as parameters, never lists written into the text): each shape stays
 * prepared for the session's life. PostgreSQL keeps the plan of such a statement once a
 * generic plan costs no more than the plans made for the values, which a `limit`/`offset`
 * parameter prevents (it is guessed at a tenth of the rows): write those into the text.
 */
export async function queryRowsAsJson<T>(
  db: Db,
  select: SQL,
  order?: SQL,
  options: { prepared?: boolean } = {},
): Promise<T[]> {
  return JSON.parse((await queryJsonText(db, select, { order, prepared: options.prepared })).json) as T[];
}

/**
 * {@link queryRowsAsJson} as the JSON text the database wrote, and how many rows it holds:
 * for a caller that sends the rows on as they are (the device list's page). `value` picks
 * what each row contributes (a column of the select, as `q.<column>`), else the whole row.
 */
export async function queryJsonText(
  db: Db,
  select: SQL,
  options: { order?: SQL; value?: SQL; prepared?: boolean } = {},
): Promise<{ json: string; count: number }> {
  const { order, value } = options;
  const query = sql`select coalesce(json_agg(${value ?? sql`q`}${order ? sql` order by ${order}` : sql``})::text, '[]') as json,
                           count(*)::int as count
                      from (${select}) q`;
  type Answer = { json: string; count: number };
  const { pool, pglite } = driverOf(db);
  let answer: Answer | undefined;
  if (options.prepared && (pool || pglite)) {
    const { sql: statement, params } = dialect.sqlToQuery(query);
    const name = `pw_${sha256Hex(statement).slice(0, 24)}`;
    if (pool) {
      answer = (await pool.query<Answer>({ name, text: statement, values: params })).rows[0];
    } else {
      const args = executeArgs(params);
      if (args !== undefined) {
        await prepareOnce(pglite, name, statement);
        answer = (await pglite.query<Answer>(`execute ${name}${args}`)).rows[0];
      }
    }
  }
  answer ??= (await queryRows<Answer>(db, query))[0]!;
  return { json: answer.json, count: Number(answer.count) };
}

/** The statements prepared in each PGlite session, by name: each prepared once, even when first asked for at once. */
const preparedStatements = new WeakMap<EmbeddedClient, Map<string, Promise<unknown>>>();

function prepareOnce(pglite: EmbeddedClient, name: string, statement: string): Promise<unknown> {
  let names = preparedStatements.get(pglite);
  if (!names) preparedStatements.set(pglite, (names = new Map()));
  let prepared = names.get(name);
  if (!prepared) {
    const known = names;
    prepared = pglite.exec(`prepare ${name} as ${statement}`).catch((error: unknown) => {
      known.delete(name);
      throw error;
    });
    names.set(name, prepared);
  }
  return prepared;
}

/**
 * `EXECUTE`'s argument list for `params` (`(1, '2026-12-06T…', '{1,2}')`), or undefined for a
 * value it does not write (the caller then runs the statement unprepared). Text is quoted by
 * doubling its quotes, which is the whole of escaping with `standard_conforming_strings` on
 * (PostgreSQL's default since 9.1, never changed here); a NUL, which no text value holds, is refused.
 */
export function executeArgs(params: unknown[]): string | undefined {
  const out: string[] = [];
  for (const value of params) {
    const written = argLiteral(value);
    if (written === undefined) return undefined;
    out.push(written);
  }
  return out.length ? `(${out.join(', ')})` : '';
}

function argLiteral(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'string') return value.includes('\0') ? undefined : `'${value.replaceAll("'", "''")}'`;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'number' && Number.isFinite(v))) return `'{${value.join(',')}}'`;
    if (value.every((v) => typeof v === 'string')) return argLiteral(arrays.text(value));
  }
  return undefined;
}

/**
 * A row of `table` from the JSON PostgreSQL makes of it (`row_to_json(t)`, as read by
 * {@link queryRowsAsJson}): keys renamed to drizzle's and timestamps made Dates again, so
 * callers get what `db.select().from(table)` returns, at the cost of one JSON value instead of
 * one value per column crossing from PGlite's WebAssembly. Numbers, text, booleans, arrays
 * and json columns come through JSON as they are.
 */
export function tableRowFromJson<T extends PgTable>(table: T, json: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const { key, name, isDate } of jsonColumnsOf(table)) {
    const value = json[name];
    row[key] = isDate && typeof value === 'string' ? new Date(value) : (value ?? null);
  }
  return row as T['$inferSelect'];
}

/**
 * Each table's columns as `tableRowFromJson` reads them, listed once: `getTableColumns` copies
 * the table's columns into a new object per call, which a 25-row page paid 25 times.
 */
const jsonColumns = new WeakMap<PgTable, { key: string; name: string; isDate: boolean }[]>();
function jsonColumnsOf(table: PgTable) {
  let columns = jsonColumns.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({
      key,
      name: column.name,
      isDate: column.dataType === 'date',
    }));
    jsonColumns.set(table, columns);
  }
  return columns;
}

/**
 * Runs `COPY (<select>) TO … WITH (FORMAT csv)` and answers the CSV text and its row count.
 * The rows never become JavaScript values: on PGlite, whose rows cross from WebAssembly one
 * value at a time, this reads a page of a million-row extract about ten times as fast as a
 * select. COPY takes no bind parameters, so `select` must be built only from trusted values
 * (see `literal` below); it must not end with a semicolon.
 */
export async function copyCsv(db: Db, select: string): Promise<{ csv: string; rows: number }> {
  const { bytes, rows } = await copyCsvBytes(db, select);
  return { csv: bytes.toString('utf8'), rows };
}

/**
 * {@link copyCsv} as the bytes COPY wrote (UTF-8), for a caller that sends them on as they
 * are (a streamed export): no string of the page is made.
 */
export async function copyCsvBytes(db: Db, select: string): Promise<{ bytes: Buffer; rows: number }> {
  const { pglite, pool } = driverOf(db);
  if (pglite) {
    const result = await pglite.query(`copy (${select}) to '/dev/blob' with (format csv)`);
    return {
      bytes: result.blob ? Buffer.from(await result.blob.arrayBuffer()) : Buffer.alloc(0),
      rows: result.affectedRows ?? 0,
    };
  }
  const connection = await pool.connect();
  try {
    const stream = connection.query(copyTo(`copy (${select}) to stdout with (format csv)`));
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    return { bytes: Buffer.concat(parts), rows: stream.rowCount ?? 0 };
  } finally {
    connection.release();
  }
}

/** A keyset column of a COPY walk: its expression and type (the walk's order is the keys'). */
export type KeyColumn = { expr: string; type: 'timestamptz' | 'int' };
/** A row's key, each column as the database's text (a timestamp keeps its microseconds). */
export type PageKey = string[];
const KEY_TEXT: Record<KeyColumn['type'], RegExp> = { timestamptz: /^[\d :.+-]+$/, int: /^-?\d+$/ };

/**
 * A walk through rows in key order, written page by page by COPY. `keyFrom` is the table the
 * keys and `where` read (its alias as in `from`); `from` adds the joins the columns need and
 * must keep its rows (left joins, or joins every row has a partner in).
 */
export type KeysetWalk = { columns: string; from: string; keyFrom: string; where: string; key: KeyColumn[] };

const keyLiteral = (walk: KeysetWalk, value: PageKey): string => {
  if (value.length !== walk.key.length || value.some((v, i) => !KEY_TEXT[walk.key[i]!.type].test(v))) {
    throw new Error(`not a key: ${JSON.stringify(value)}`);
  }
  return `(${value.map((v, i) => `'${v}'::${walk.key[i]!.type === 'int' ? 'bigint' : 'timestamptz'}`).join(', ')})`;
};

/**
 * The keys of every `every`-th row of the walk: its page boundaries, read in one pass over
 * the keys alone (an index-only scan where an index holds them). Reading each page's last key
 * after the page instead cost a second walk over each page's rows.
 */
async function keysetBoundaries(db: Db, walk: KeysetWalk, every: number): Promise<PageKey[]> {
  const keys = walk.key.map((k) => k.expr).join(', ');
  const rows = await queryRows<Record<string, string>>(
    db,
    sql.raw(
      `select ${walk.key.map((_, i) => `k${i}::text as k${i}`).join(', ')}
         from (select ${walk.key.map((k, i) => `${k.expr} as k${i}`).join(', ')},
                      row_number() over (order by ${keys}) as n
                 from ${walk.keyFrom} where ${walk.where}) s
        where n % ${literal.int(every)} = 0 order by n`,
    ),
  );
  return rows.map((row) => walk.key.map((_, i) => String(row[`k${i}`])));
}

/**
 * The walk's CSV, about `pageRows` rows a page (a page holds the rows between two boundaries
 * read first; rows written meanwhile join the page their key falls in), as COPY wrote it.
 * Every text of the walk must be built from trusted values, as for {@link copyCsv}.
 */
export async function* copyKeysetPages(
  db: Db,
  walk: KeysetWalk,
  pageRows: number,
): AsyncGenerator<{ bytes: Buffer; rows: number }, void, void> {
  const keys = `(${walk.key.map((k) => k.expr).join(', ')})`;
  const bounds = await keysetBoundaries(db, walk, pageRows);
  for (let i = 0; i <= bounds.length; i += 1) {
    const after = i > 0 ? ` and ${keys} > ${keyLiteral(walk, bounds[i - 1]!)}` : '';
    const upTo = i < bounds.length ? ` and ${keys} <= ${keyLiteral(walk, bounds[i]!)}` : '';
    const page = await copyCsvBytes(
      db,
      `select ${walk.columns} from ${walk.from} where ${walk.where}${after}${upTo} order by ${keys.slice(1, -1)}`,
    );
    if (page.rows) yield page;
  }
}

/** A value of a row {@link copyRowsIn} writes: null, a number, text, or a list of text. */
export type CopyValue = string | number | boolean | null | string[];

const csvCell = (v: CopyValue): string => {
  if (v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const text = Array.isArray(v) ? arrays.text(v) : v;
  return `"${text.replace(/"/g, '""')}"`;
};

/**
 * Inserts `rows` into `table` (`columns` in their order) with `COPY … FROM` in CSV: PostgreSQL's
 * bulk path, about a fifth cheaper than an insert from unnested arrays on PGlite and cheaper
 * still on PostgreSQL. Runs on the caller's transaction when `exec` is one. `table` and
 * `columns` must be this server's identifiers, never request text; values may be anything.
 */
export async function copyRowsIn(exec: unknown, table: string, columns: string[], rows: CopyValue[][]): Promise<void> {
  if (!rows.length) return;
  const csv = rows.map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
  const statement = `copy ${table} (${columns.join(', ')}) from`;
  // Drizzle's database and its transactions hold the driver's client (the transaction's own
  // connection inside one) in their session.
  const client = (exec as { session: { client: unknown } }).session.client;
  // PGlite and its transactions have `exec`; node-postgres' pool and clients do not.
  if ('exec' in (client as object)) {
    await (client as EmbeddedClient).query(`${statement} '/dev/blob' with (format csv)`, [], { blob: new Blob([csv]) });
    return;
  }
  const pool = client as pg.Pool | pg.PoolClient;
  const connection = 'release' in pool ? pool : await pool.connect();
  try {
    await pipeline(Readable.from([csv]), connection.query(copyFrom(`${statement} stdin with (format csv)`)));
  } finally {
    if (connection !== pool) connection.release();
  }
}

/** SQL literals of values this server made (never of request text): for statements without parameters. */
export const literal = {
  int(n: number): string {
    if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
    return String(n);
  },
  /** A word of the server's own (a command type, a status): letters, digits, `_`, `.` and `-`. */
  word(w: string): string {
    if (!/^[\w.-]+$/.test(w)) throw new Error(`not a word: ${w}`);
    return `'${w}'`;
  },
  timestamptz(d: Date): string {
    // toISOString writes only digits, '-', ':', '.', 'T' and 'Z'.
    return `'${d.toISOString()}'::timestamptz`;
  },
};

/**
 * Array literals for one bind parameter (`${arrays.int(ids)}::int[]`): however many values,
 * a statement carries one parameter, the same on PGlite and node-postgres.
 */
export const arrays = {
  int(values: number[]): string {
    return `{${values.map((n) => literal.int(Math.trunc(n))).join(',')}}`;
  },
  /** Quotes and backslashes escaped, so any string travels as itself. */
  text(values: string[]): string {
    return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  },
};
