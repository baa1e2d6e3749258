import { stringify } from 'csv-stringify/sync';
import { ONE_DAY_MS } from '@patchwell/core/constants';
import { DATA_EXTRACT_TTL_DAYS } from '@patchwell/core/reports/extracts.schema';
import { csvCell } from '@patchwell/core/rules/csv-cell';
import type { AppContext } from '../../context';
import {
  countActivity,
  countInventory,
  countSoftware,
  copyActivityPages,
  copyInventoryPages,
  findInventoryIdsAfter,
  findSoftwareOf,
  type CsvPage,
} from './extract-sources.store';
import { softwareCells } from './extract-formats';
import {
  appendChunk,
  claimExtract,
  deleteChunks,
  failAbandonedExtracts,
  finishExtract,
  requeueExtract,
  setEstimate,
  type Claim,
  type ExtractRow,
} from './extracts.store';
import { copyPatchHistoryPages, countPatchHistory } from './overview.store';

/**
 * The data extracts' worker: every node runs one (reports.jobs.ts). It claims the oldest
 * queued extract (`FOR UPDATE SKIP LOCKED`, so two nodes never build the same one), reads
 * its source page by page in a stable order, and stores each page as CSV lines with the
 * progress, in one transaction per page. Memory stays at one page whatever the size.
 */

/**
 * Rows per page of the extracts COPY writes as CSV in the database (activity, device
 * inventory, patch history): each statement costs about as much to start as 2,000 rows to
 * write, so pages are large (a 1,000,000-event extract on PGlite: 71 s in pages of 2,000,
 * 21 s in pages of 20,000).
 */
export const COPY_PAGE_ROWS = 20_000;
/** Devices per page of the software extract (each has its whole software list). */
const SOFTWARE_DEVICES_PER_PAGE = 25;
/** A running extract whose worker has not written for this long is claimed again (its node died). */
export const EXTRACT_STALE_MS = 2 * 60_000;
/** Claims of one extract before it is given up as failed. */
export const EXTRACT_MAX_ATTEMPTS = 3;

export const EXTRACT_FAILED_MESSAGE = 'The extract could not be built. Request it again.';
const ABANDONED_MESSAGE = 'The server building this extract stopped. Request it again.';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'logger'>;

// This node's worker, by database (reports.jobs.ts registers it): a request starts it at once
// instead of at its next poll. Other nodes still find the extract at theirs.
const localWorkers = new WeakMap<object, () => void>();

/** Registers this node's worker of `db`, run when an extract is queued here. */
export function onExtractQueued(db: object, run: () => void): void {
  localWorkers.set(db, run);
}

/** An extract was queued (its transaction committed): this node's worker starts on it now. */
export function extractQueued(db: object): void {
  localWorkers.get(db)?.();
}
type Source = { estimate: () => Promise<number>; pages: () => AsyncGenerator<CsvPage, void, void> };

/** Rows as a page, every cell through the formula guard. */
const pageOf = (rows: unknown[][]): CsvPage => ({ rows: rows.length, bytes: Buffer.from(csvLines(rows)) });

function sourceOf(ctx: Ctx, extract: ExtractRow, copyPageRows: number): Source {
  const { db } = ctx;
  const zoneId = extract.organizationId;
  const range = { from: extract.rangeFrom, to: extract.rangeTo };
  switch (extract.kind) {
    case 'patch_history':
      return {
        estimate: () => countPatchHistory(db, zoneId, range),
        pages: () => copyPatchHistoryPages(db, zoneId, range, copyPageRows),
      };
    case 'device_inventory':
      return {
        estimate: () => countInventory(db, zoneId, range.to),
        pages: () => copyInventoryPages(db, zoneId, range.to, copyPageRows),
      };
    case 'software':
      return {
        estimate: () => countSoftware(db, zoneId, range.to),
        async *pages() {
          let afterId = 0;
          for (;;) {
            const ids = await findInventoryIdsAfter(db, zoneId, range.to, afterId, SOFTWARE_DEVICES_PER_PAGE);
            if (!ids.length) return;
            const rows = await findSoftwareOf(db, ids);
            if (rows.length) yield pageOf(rows.map(softwareCells));
            afterId = ids[ids.length - 1]!;
          }
        },
      };
    case 'activity':
      return {
        estimate: () => countActivity(db, zoneId, range),
        pages: () => copyActivityPages(db, zoneId, range, copyPageRows),
      };
  }
}

/**
 * Reads the next page while the current one is turned into CSV and stored, so on PostgreSQL
 * the read and the write overlap. A consumer that stops early leaves no read in flight.
 */
async function* readAhead<T>(pages: AsyncGenerator<T, void, void>): AsyncGenerator<T, void, void> {
  let next = pages.next();
  try {
    for (;;) {
      const current = await next;
      if (current.done) return;
      next = pages.next();
      yield current.value;
    }
  } finally {
    await next.catch(() => undefined);
    await pages.return();
  }
}

/** Rows as CSV lines (no header), every cell through the formula guard. */
export function csvLines(page: unknown[][]): string {
  return stringify(page.map((row) => row.map(csvCell)));
}

type Outcome = 'ready' | 'error' | 'lost' | 'stopped';
/** `copyPageRows`: tests page a few thousand rows as a million would be. */
type RunOptions = { max?: number; signal?: AbortSignal; copyPageRows?: number };

/** Builds one claimed extract. */
async function build(ctx: Ctx, extract: ExtractRow, options: RunOptions): Promise<Outcome> {
  const { signal } = options;
  const claim: Claim = { id: extract.id, attempt: extract.attempts };
  const expiresAt = () => new Date(ctx.clock.now().getTime() + DATA_EXTRACT_TTL_DAYS * ONE_DAY_MS);
  try {
    // A restarted extract starts over: the earlier attempt's pages go.
    await deleteChunks(ctx.db, extract.id);
    const source = sourceOf(ctx, extract, options.copyPageRows ?? COPY_PAGE_ROWS);
    const estimate = await source.estimate();
    if (!(await setEstimate(ctx.db, claim, estimate, ctx.clock.now()))) return 'lost';
    let seq = 0;
    let rowCount = 0;
    for await (const page of readAhead(source.pages())) {
      if (signal?.aborted) {
        await requeueExtract(ctx.db, claim);
        return 'stopped';
      }
      seq += 1;
      rowCount += page.rows;
      const progress = Math.min(99, Math.floor((rowCount * 100) / Math.max(estimate, rowCount, 1)));
      const written = await appendChunk(
        ctx.db,
        claim,
        { seq, rows: page.rows, lines: page.bytes },
        { rowCount, progress, now: ctx.clock.now() },
      );
      if (!written) return 'lost';
    }
    const now = ctx.clock.now();
    const done = await finishExtract(ctx.db, claim, {
      status: 'ready',
      progress: 100,
      rowCount,
      error: null,
      finishedAt: now,
      expiresAt: expiresAt(),
    });
    return done ? 'ready' : 'lost';
  } catch (err) {
    ctx.logger.error({ err, extract: extract.id, kind: extract.kind }, 'data extract failed');
    await finishExtract(ctx.db, claim, {
      status: 'error',
      progress: 0,
      rowCount: 0,
      error: EXTRACT_FAILED_MESSAGE,
      finishedAt: ctx.clock.now(),
      expiresAt: expiresAt(),
    }).catch((e: unknown) => ctx.logger.warn({ err: e, extract: extract.id }, 'cannot record a failed extract'));
    return 'error';
  }
}

/**
 * Builds queued extracts one after another until none is left (or `max` were built, or
 * `signal` aborts: the extract in progress goes back to the queue). Returns what happened
 * to each extract this worker claimed.
 */
export async function runExtractJobs(ctx: Ctx, options: RunOptions = {}): Promise<{ id: number; outcome: Outcome }[]> {
  const done: { id: number; outcome: Outcome }[] = [];
  while (done.length < (options.max ?? Infinity) && !options.signal?.aborted) {
    const now = ctx.clock.now();
    const extract = await claimExtract(ctx.db, now, new Date(now.getTime() - EXTRACT_STALE_MS), EXTRACT_MAX_ATTEMPTS);
    if (!extract) break;
    done.push({ id: extract.id, outcome: await build(ctx, extract, options) });
  }
  return done;
}

/** Extracts abandoned by their node after the last attempt become errors. */
export async function failAbandoned(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<number> {
  const now = ctx.clock.now();
  return failAbandonedExtracts(ctx.db, new Date(now.getTime() - EXTRACT_STALE_MS), EXTRACT_MAX_ATTEMPTS, {
    error: ABANDONED_MESSAGE,
    finishedAt: now,
    expiresAt: new Date(now.getTime() + DATA_EXTRACT_TTL_DAYS * ONE_DAY_MS),
  });
}
