import { resolveDateRange, utcDay, addDays } from '@patchwell/core/reports/date-range';
import {
  DATA_EXTRACT_OPEN_MAX,
  type CreateDataExtractBody,
  type DataExtract,
  type DataExtractList,
} from '@patchwell/core/reports/extracts.schema';
import type { AppContext } from '../../context';
import { AppError, notFound, validationError } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { logActivity } from '../activity/activity.service';
import { requireZone } from '../zones/zone-access.service';
import { EXTRACT_HEADERS } from './extract-formats';
import { extractQueued } from './extracts.worker';
import {
  countOpenExtracts,
  deleteExpiredExtracts,
  findChunks,
  findExtract,
  findExtracts,
  insertExtract,
  lockZoneExtracts,
  type ExtractWithRequester,
} from './extracts.store';

/**
 * Stored pages the download reads per query: one, since a page of the COPY extracts holds
 * 20,000 rows (2.5 MB of activity), so the download holds about one page whatever the size.
 */
const DOWNLOAD_PAGES = 1;

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toExtract(row: ExtractWithRequester, now: Date): DataExtract {
  const isExpired = row.expiresAt !== null && row.expiresAt <= now;
  return {
    id: row.id,
    kind: row.kind,
    preset: row.preset,
    start_date: utcDay(row.rangeFrom),
    // The range is half-open: its last day is the one before `range_to`.
    end_date: utcDay(addDays(row.rangeTo, -1)),
    status: isExpired ? 'expired' : row.status,
    progress: row.progress,
    row_count: row.rowCount,
    error: row.error,
    requested_by: row.requestedByEmail,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    expires_at: iso(row.expiresAt),
  };
}

/**
 * `POST /api/reports/data-extracts` (Report.read): queues an extract of the zone's data over
 * a preset or custom range (at most 90 days back, not in the future). A worker builds it
 * (extracts.worker.ts). 409 while the zone already has {@link DATA_EXTRACT_OPEN_MAX} in progress.
 */
export async function requestExtract(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  body: CreateDataExtractBody,
): Promise<DataExtract> {
  const zone = await requireZone(ctx, authz, o, 'Report', 'read');
  const now = ctx.clock.now();
  const resolved = resolveDateRange(body, now);
  if (resolved.errors) throw validationError(resolved.errors);
  const extract = await ctx.db.transaction(async (tx) => {
    await lockZoneExtracts(tx, zone.id);
    if ((await countOpenExtracts(tx, zone.id)) >= DATA_EXTRACT_OPEN_MAX) {
      throw new AppError('reports.extracts_busy');
    }
    const row = await insertExtract(tx, {
      organizationId: zone.id,
      kind: body.kind,
      preset: body.preset,
      rangeFrom: resolved.range.from,
      rangeTo: resolved.range.to,
      requestedBy: authz.userId,
      createdAt: now,
    });
    await logActivity(
      ctx,
      authz,
      zone.id,
      'data_extract.request',
      { type: 'data_extract', id: row.id },
      {
        kind: row.kind,
        preset: row.preset,
        start_date: utcDay(row.rangeFrom),
        end_date: utcDay(addDays(row.rangeTo, -1)),
      },
      tx,
    );
    return row;
  });
  extractQueued(ctx.db);
  const created = await findExtract(ctx.db, zone.id, extract.id);
  return toExtract(created ?? { ...extract, requestedByEmail: null }, now);
}

/** `GET /api/reports/data-extracts` (Report.read): the zone's extracts, newest first. */
export async function listExtracts(
  ctx: AppContext,
  authz: Authz,
  query: { o: number | undefined; page: number; limit: number },
): Promise<DataExtractList> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  const now = ctx.clock.now();
  const { rows, size } = await findExtracts(ctx.db, zone.id, { offset: query.page * query.limit, limit: query.limit });
  return { data: rows.map((r) => toExtract(r, now)), size };
}

async function extractOr404(ctx: AppContext, authz: Authz, o: number | undefined, id: number) {
  const zone = await requireZone(ctx, authz, o, 'Report', 'read');
  const row = await findExtract(ctx.db, zone.id, id);
  if (!row) throw notFound();
  return row;
}

/** `GET /api/reports/data-extracts/{extractId}` (Report.read): its status and progress. */
export async function getExtract(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
): Promise<DataExtract> {
  const row = await extractOr404(ctx, authz, o, id);
  return toExtract(row, ctx.clock.now());
}

export type ExtractDownload = {
  fileName: string;
  header: string[];
  /** The stored CSV lines (UTF-8), a page at a time. */
  pages: AsyncGenerator<Buffer, void, void>;
};

/**
 * `GET /api/reports/data-extracts/{extractId}/csv` (Report.read): the CSV of a ready
 * extract, streamed from the database page by page. 409 while it is being built or after
 * it failed, 410 once it expired.
 */
export async function openExtractDownload(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
): Promise<ExtractDownload> {
  const row = await extractOr404(ctx, authz, o, id);
  const extract = toExtract(row, ctx.clock.now());
  if (extract.status === 'expired') throw new AppError('reports.extract_expired');
  if (extract.status === 'error') throw new AppError('reports.extract_failed');
  if (extract.status !== 'ready') throw new AppError('reports.extract_not_ready');
  async function* pages(): AsyncGenerator<Buffer, void, void> {
    let after = 0;
    for (;;) {
      const chunks = await findChunks(ctx.db, row.id, after, DOWNLOAD_PAGES);
      for (const chunk of chunks) yield chunk.lines;
      if (chunks.length < DOWNLOAD_PAGES) return;
      after = chunks[chunks.length - 1]!.seq;
    }
  }
  return {
    fileName: `${row.kind.replace('_', '-')}-${extract.start_date}-to-${extract.end_date}-${row.id}.csv`,
    header: EXTRACT_HEADERS[row.kind],
    pages: pages(),
  };
}

/** Deletes expired extracts (hourly, reports.jobs.ts). */
export async function sweepExpiredExtracts(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<number> {
  return deleteExpiredExtracts(ctx.db, ctx.clock.now());
}
