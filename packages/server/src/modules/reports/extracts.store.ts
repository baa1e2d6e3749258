import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { dataExtractChunks, dataExtracts } from '../../db/reports.schema';
import { users } from '../../db/schema';
import type { Exec } from '../commands/commands.store';

/** The only SQL that writes `data_extracts` and `data_extract_chunks`. */

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export type ExtractRow = typeof dataExtracts.$inferSelect;
export type ExtractWithRequester = ExtractRow & { requestedByEmail: string | null };
type NewExtract = typeof dataExtracts.$inferInsert;

export async function insertExtract(db: Exec, row: NewExtract): Promise<ExtractRow> {
  const [created] = await db.insert(dataExtracts).values(row).returning();
  return created!;
}

/**
 * Serialises requests of one zone until the transaction ends, so the count of extracts in
 * progress and the insert that follows it see the same rows.
 */
export async function lockZoneExtracts(tx: Exec, zoneId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('data_extracts'), ${zoneId})`);
}

/** Queued or running extracts of the zone. */
export async function countOpenExtracts(db: Exec, zoneId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(dataExtracts)
    .where(and(eq(dataExtracts.organizationId, zoneId), inArray(dataExtracts.status, ['queued', 'running'])));
  return row?.n ?? 0;
}

/** A page of the zone's extracts, newest first, with who asked for each. */
export async function findExtracts(
  db: Db,
  zoneId: number,
  options: { offset: number; limit: number },
): Promise<{ rows: ExtractWithRequester[]; size: number }> {
  const [rows, [count]] = await Promise.all([
    db
      .select({ extract: dataExtracts, requestedByEmail: users.email })
      .from(dataExtracts)
      .leftJoin(users, eq(users.id, dataExtracts.requestedBy))
      .where(eq(dataExtracts.organizationId, zoneId))
      .orderBy(desc(dataExtracts.createdAt), desc(dataExtracts.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(dataExtracts)
      .where(eq(dataExtracts.organizationId, zoneId)),
  ]);
  return {
    rows: rows.map((r) => ({ ...r.extract, requestedByEmail: r.requestedByEmail })),
    size: count?.n ?? 0,
  };
}

/** One extract of the zone. */
export async function findExtract(db: Db, zoneId: number, id: number): Promise<ExtractWithRequester | undefined> {
  const [row] = await db
    .select({ extract: dataExtracts, requestedByEmail: users.email })
    .from(dataExtracts)
    .leftJoin(users, eq(users.id, dataExtracts.requestedBy))
    .where(and(eq(dataExtracts.organizationId, zoneId), eq(dataExtracts.id, id)));
  return row && { ...row.extract, requestedByEmail: row.requestedByEmail };
}

/**
 * Claims the oldest extract waiting for a worker, or one whose worker stopped beating
 * before `staleBefore` (its node died) with attempts left: it becomes `running` under a new
 * attempt number, which fences off the old worker's writes. Several nodes may claim at once:
 * a row another transaction holds is skipped.
 */
export async function claimExtract(
  db: Db,
  now: Date,
  staleBefore: Date,
  maxAttempts: number,
): Promise<ExtractRow | undefined> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`update ${dataExtracts} e
           set status = 'running', attempts = e.attempts + 1, started_at = ${now.toISOString()}::timestamptz,
               heartbeat_at = ${now.toISOString()}::timestamptz, progress = 0, row_count = 0, error = null
         where e.id = (select id from ${dataExtracts}
                        where status = 'queued'
                           or (status = 'running' and heartbeat_at < ${staleBefore.toISOString()}::timestamptz
                               and attempts < ${maxAttempts})
                        order by created_at, id
                        limit 1
                        for update skip locked)
        returning e.id`,
  );
  if (!row) return undefined;
  const [claimed] = await db.select().from(dataExtracts).where(eq(dataExtracts.id, row.id));
  return claimed;
}

/** Running extracts whose worker stopped beating and that used up their attempts become `error`. */
export async function failAbandonedExtracts(
  db: Db,
  staleBefore: Date,
  maxAttempts: number,
  fields: { error: string; finishedAt: Date; expiresAt: Date },
): Promise<number> {
  const rows = await db
    .update(dataExtracts)
    .set({ status: 'error', ...fields })
    .where(
      and(
        eq(dataExtracts.status, 'running'),
        sql`${dataExtracts.heartbeatAt} < ${staleBefore.toISOString()}::timestamptz`,
        sql`${dataExtracts.attempts} >= ${maxAttempts}`,
      ),
    )
    .returning({ id: dataExtracts.id });
  return rows.length;
}

/** The claim an attempt holds: its writes apply only while the extract is still its own. */
export type Claim = { id: number; attempt: number };
const held = (claim: Claim) =>
  and(eq(dataExtracts.id, claim.id), eq(dataExtracts.status, 'running'), eq(dataExtracts.attempts, claim.attempt));

/** Drops the pages an earlier attempt wrote. */
export async function deleteChunks(db: Db, extractId: number): Promise<void> {
  await db.delete(dataExtractChunks).where(eq(dataExtractChunks.extractId, extractId));
}

/** Records the source's size for the progress; false when the claim is lost. */
export async function setEstimate(db: Db, claim: Claim, estimate: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(dataExtracts)
    .set({ rowEstimate: estimate, heartbeatAt: now })
    .where(held(claim))
    .returning({ id: dataExtracts.id });
  return rows.length > 0;
}

/**
 * Writes one page of CSV lines and the progress in one transaction; false (nothing written)
 * when the claim is lost: another worker restarted the extract, or it was deleted.
 */
export async function appendChunk(
  db: Db,
  claim: Claim,
  chunk: { seq: number; rows: number; lines: Buffer },
  progress: { rowCount: number; progress: number; now: Date },
): Promise<boolean> {
  // Zipped in Node's thread pool, while the event loop (and PGlite) go on.
  const bodyGz = (await gzipAsync(chunk.lines, { level: 1 })).toString('base64');
  return db.transaction(async (tx) => {
    // A page need not reach the disk on its own commit: `finishExtract` commits synchronously,
    // which flushes the log up to it, pages included; a crash before that restarts the extract,
    // whose next attempt deletes the pages written so far.
    await tx.execute(sql`set local synchronous_commit = off`);
    const rows = await tx
      .update(dataExtracts)
      .set({ rowCount: progress.rowCount, progress: progress.progress, heartbeatAt: progress.now })
      .where(held(claim))
      .returning({ id: dataExtracts.id });
    if (!rows.length) return false;
    await tx.insert(dataExtractChunks).values({ extractId: claim.id, seq: chunk.seq, rows: chunk.rows, bodyGz });
    return true;
  });
}

/** Ends an attempt as `ready` or `error`; false when the claim is lost. */
export async function finishExtract(
  db: Db,
  claim: Claim,
  fields: Pick<ExtractRow, 'status' | 'progress' | 'rowCount' | 'error' | 'finishedAt' | 'expiresAt'>,
): Promise<boolean> {
  const rows = await db.update(dataExtracts).set(fields).where(held(claim)).returning({ id: dataExtracts.id });
  return rows.length > 0;
}

/**
 * Gives a claimed extract back to the queue (its node is shutting down); the attempt does
 * not count. The next claim deletes the pages written so far.
 */
export async function requeueExtract(db: Db, claim: Claim): Promise<boolean> {
  const rows = await db
    .update(dataExtracts)
    .set({
      status: 'queued',
      attempts: sql`${dataExtracts.attempts} - 1`,
      progress: 0,
      rowCount: 0,
      startedAt: null,
      heartbeatAt: null,
    })
    .where(held(claim))
    .returning({ id: dataExtracts.id });
  return rows.length > 0;
}

/** Up to `limit` pages of the extract after page `afterSeq`, in order, as their CSV lines. */
export async function findChunks(
  db: Db,
  extractId: number,
  afterSeq: number,
  limit: number,
): Promise<{ seq: number; lines: Buffer }[]> {
  const rows = await db
    .select({ seq: dataExtractChunks.seq, body: dataExtractChunks.body, bodyGz: dataExtractChunks.bodyGz })
    .from(dataExtractChunks)
    .where(and(eq(dataExtractChunks.extractId, extractId), sql`${dataExtractChunks.seq} > ${afterSeq}`))
    .orderBy(dataExtractChunks.seq)
    .limit(limit);
  return Promise.all(
    rows.map(async ({ seq, body, bodyGz }) => ({
      seq,
      lines: bodyGz === null ? Buffer.from(body ?? '') : await gunzipAsync(Buffer.from(bodyGz, 'base64')),
    })),
  );
}

/** Deletes extracts past their expiry (their pages go with them). */
export async function deleteExpiredExtracts(db: Db, now: Date): Promise<number> {
  const rows = await db
    .delete(dataExtracts)
    .where(sql`${dataExtracts.expiresAt} < ${now.toISOString()}::timestamptz`)
    .returning({ id: dataExtracts.id });
  return rows.length;
}
