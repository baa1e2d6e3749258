import type {
  Batch,
  BatchAcceptResult,
  BatchList,
  BatchListQuery,
  BatchUploadQuery,
} from '@patchwell/core/remediation/batches.schema';
import { scannerFormatList } from '@patchwell/core/remediation/scanner-formats';
import type { ScannerFormat } from '@patchwell/core/remediation/scanners.schema';
import type { Action } from '@patchwell/core/zones/permissions';
import type { AppContext } from '../../../context';
import type { Authz } from '../../../domain/authz';
import { appError, notFound } from '../../../domain/errors';
import { logActivity } from '../../activity/activity.service';
import { requireZone } from '../../zones/zone-access.service';
import { recordAcceptedBatch } from '../cves/cves.service';
import { createTasksForBatch } from '../tasks/tasks.service';
import type { BatchBuilder } from './batch-builder';
import { parseScannerCsv, type UploadStream } from './batch-upload.parse';
import { findCsvRows, markRemovedDevicesUnsupported, stageFindings, type CsvFindingRow } from './batch-findings.store';
import { findAllSolutions, findBatch, findBatches, insertBatch, updateBatch, type BatchListRow } from './batches.store';

/**
 * Scanner batches (issue 11): uploading a scanner's CSV export, the list and detail, and the
 * decision on a batch: accepting it creates its tasks and opens its CVEs in the zone's view
 * in one transaction; rejecting it is final. Permission `Task` in the path's zone first.
 */

export type BatchContext = AppContext & { batchBuilder: BatchBuilder };

/**
 * The path's zone once the caller may do `action` on its tasks; `o`, when given, must name
 * it too (a mismatch reveals nothing: 404).
 */
export async function batchZone(ctx: AppContext, authz: Authz, orgId: number, o: number | undefined, action: Action) {
  const zone = await requireZone(ctx, authz, orgId, 'Task', action);
  if (o !== undefined && o !== orgId) throw notFound();
  return zone;
}

/** The zone's batch, or 404 (another zone's batch is not there for the caller). */
export async function zoneBatch(ctx: AppContext, zoneId: number, batchId: number): Promise<BatchListRow> {
  const batch = await findBatch(ctx.db, zoneId, batchId);
  if (!batch) throw notFound();
  return batch;
}

const user = (id: number | null, email: string | null) => ({ id, email });

export function toBatch(row: BatchListRow): Batch {
  return {
    id: row.id,
    organization_id: row.organizationId,
    type: row.type,
    source: row.source,
    report_source: row.fileName,
    status: row.status,
    error: row.error,
    impacted_device_count: row.impactedDeviceCount,
    statistics: row.statistics,
    created_by_user: user(row.createdBy, row.createdByEmail),
    updated_by_user: row.decidedAt ? user(row.decidedBy, row.decidedByEmail) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** `GET .../tasks/{type}/batches/formats` (Task.read): the providers and the columns read from each. */
export async function listScannerFormats(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  o: number | undefined,
): Promise<ScannerFormat[]> {
  await batchZone(ctx, authz, orgId, o, 'read');
  return scannerFormatList();
}

/** Spec B section 5: no spaces; only letters, digits and `_ - . ~`. */
const FILE_NAME = /^[A-Za-z0-9_.~-]{1,255}$/;
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/comma-separated-values', 'text/plain']);

export type UploadedFile = { filename: string; mimetype: string; upload: UploadStream };

/** The upload's name and kind, checked before a byte of it is read; a refused file is drained. */
function checkFile(file: UploadedFile): void {
  const refuse = (err: ReturnType<typeof appError>) => {
    file.upload.stream.resume();
    return err;
  };
  if (!FILE_NAME.test(file.filename)) {
    throw refuse(
      appError('batches.bad_file_name', { fieldErrors: { file: [appError('batches.bad_file_name').message] } }),
    );
  }
  // Browsers on Windows send .csv as an Excel type: the name decides then.
  if (!/\.csv$/i.test(file.filename) && !CSV_TYPES.has(file.mimetype.toLowerCase())) {
    throw refuse(appError('batches.not_csv'));
  }
}

/**
 * `POST .../tasks/{type}/batches/upload?source=` (Task.create): reads the scanner's export as
 * it streams in and, once the whole file is read, stores the batch `building` with its
 * findings staged in one transaction, then hands them to this node's build for once
 * `answered` settles (the route's answer is sent). A refused file stores nothing.
 */
export async function uploadBatch(
  ctx: BatchContext,
  authz: Authz,
  params: { orgId: number; type: 'patch' },
  query: BatchUploadQuery,
  readFile: () => Promise<UploadedFile>,
  answered?: Promise<unknown>,
): Promise<Batch> {
  const zone = await batchZone(ctx, authz, params.orgId, query.o, 'create');
  const file = await readFile();
  checkFile(file);
  const parsed = await parseScannerCsv(query.source, file.upload);
  const now = ctx.clock.now();
  const batchId = await ctx.db.transaction(async (tx) => {
    const batch = await insertBatch(tx, {
      organizationId: zone.id,
      type: params.type,
      source: query.source,
      fileName: file.filename,
      status: 'building',
      rowCount: parsed.rows,
      createdBy: authz.userId,
      createdAt: now,
      updatedAt: now,
    });
    await stageFindings(tx, batch.id, parsed.findings);
    await logActivity(
      ctx,
      authz,
      zone.id,
      'batch.upload',
      { type: 'batch', id: batch.id },
      { file_name: file.filename, source: query.source, rows: parsed.rows, findings: parsed.findings.length },
      tx,
    );
    return batch.id;
  });
  ctx.batchBuilder.schedule(batchId, answered, parsed.findings);
  return toBatch(await zoneBatch(ctx, zone.id, batchId));
}

/** `GET .../tasks/batches?status:not_in&type:equals&page&limit` (Task.read), newest first. */
export async function listBatches(
  ctx: AppContext,
  authz: Authz,
  orgId: number,
  query: BatchListQuery,
): Promise<BatchList> {
  const zone = await batchZone(ctx, authz, orgId, query.o, 'read');
  const { rows, size } = await findBatches(
    ctx.db,
    zone.id,
    { statusNotIn: query['status:not_in'], type: query['type:equals'] },
    { offset: query.page * query.limit, limit: query.limit },
  );
  return { data: rows.map(toBatch), size };
}

/** `GET .../tasks/batches/{batchId}` (Task.read). */
export async function getBatch(
  ctx: AppContext,
  authz: Authz,
  params: { orgId: number; batchId: number },
  o: number | undefined,
): Promise<Batch> {
  const zone = await batchZone(ctx, authz, params.orgId, o, 'read');
  return toBatch(await zoneBatch(ctx, zone.id, params.batchId));
}

/** 409 for a decision the batch's status does not allow. */
function notDecidable(status: string, wanted: 'accept' | 'reject') {
  if (status === 'building') return appError('batches.building');
  if (wanted === 'accept' && status === 'error') {
    return appError('batches.not_ready', {
      wording: {
        detail:
          'This batch could not be matched to devices, so it cannot be accepted; reject it and upload the file again.',
      },
    });
  }
  return appError('batches.decided');
}

/**
 * `POST .../tasks/batches/{batchId}/accept` (Task.modify), only from `ready`: the batch
 * becomes `approved`, each solution a task with a pending job per device still enrolled, and
 * its findings the zone's open CVEs, all in one transaction with its activity event.
 */
export async function acceptBatch(
  ctx: AppContext,
  authz: Authz,
  params: { orgId: number; batchId: number },
  o: number | undefined,
): Promise<BatchAcceptResult> {
  const zone = await batchZone(ctx, authz, params.orgId, o, 'modify');
  const now = ctx.clock.now();
  const taskIds = await ctx.db.transaction(async (tx) => {
    const batch = await findBatch(tx, zone.id, params.batchId, { lock: true });
    if (!batch) throw notFound();
    if (batch.status !== 'ready') throw notDecidable(batch.status, 'accept');
    // A device removed since the build has nothing left to remediate.
    const removed = new Set(await markRemovedDevicesUnsupported(tx, batch.id));
    const solutions = (await findAllSolutions(tx, batch.id))
      .map((s) => ({ ...s, deviceIds: s.deviceIds.filter((id) => !removed.has(id)) }))
      .filter((s) => s.deviceIds.length > 0);
    await updateBatch(tx, batch.id, { status: 'approved', decidedBy: authz.userId, decidedAt: now, updatedAt: now });
    const ids = await createTasksForBatch(tx, {
      zoneId: zone.id,
      batch: { id: batch.id, source: batch.source },
      solutions,
      userId: authz.userId,
      at: now,
    });
    await recordAcceptedBatch(tx, { zoneId: zone.id, batchId: batch.id, at: now });
    await logActivity(
      ctx,
      authz,
      zone.id,
      'batch.accept',
      { type: 'batch', id: batch.id },
      { file_name: batch.fileName, tasks: ids.length },
      tx,
    );
    return ids;
  });
  return { batch: toBatch(await zoneBatch(ctx, zone.id, params.batchId)), task_ids: taskIds };
}

/**
 * `POST .../tasks/batches/{batchId}/reject` (Task.modify), from `ready` or `error`. Final:
 * running it later needs the file uploaded again.
 */
export async function rejectBatch(
  ctx: AppContext,
  authz: Authz,
  params: { orgId: number; batchId: number },
  o: number | undefined,
): Promise<Batch> {
  const zone = await batchZone(ctx, authz, params.orgId, o, 'modify');
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const batch = await findBatch(tx, zone.id, params.batchId, { lock: true });
    if (!batch) throw notFound();
    if (batch.status !== 'ready' && batch.status !== 'error') throw notDecidable(batch.status, 'reject');
    await updateBatch(tx, batch.id, { status: 'rejected', decidedBy: authz.userId, decidedAt: now, updatedAt: now });
    await logActivity(
      ctx,
      authz,
      zone.id,
      'batch.reject',
      { type: 'batch', id: batch.id },
      { file_name: batch.fileName, previous_status: batch.status },
      tx,
    );
  });
  return toBatch(await zoneBatch(ctx, zone.id, params.batchId));
}

const CSV_PAGE = 5000;

/**
 * `GET .../tasks/batches/{batchId}/csv` (Task.read): the file's rows as processed, page by
 * page. Not while the batch is building (409): its rows are not matched yet.
 */
export async function exportBatchCsv(
  ctx: AppContext,
  authz: Authz,
  params: { orgId: number; batchId: number },
  o: number | undefined,
): Promise<{ fileName: string; pages: AsyncGenerator<CsvFindingRow[], void, void> }> {
  const zone = await batchZone(ctx, authz, params.orgId, o, 'read');
  const batch = await zoneBatch(ctx, zone.id, params.batchId);
  if (batch.status === 'building') {
    throw appError('batches.building', {
      wording: { detail: 'This batch is still being matched to devices; its CSV can be downloaded once it is ready.' },
    });
  }
  async function* pages(): AsyncGenerator<CsvFindingRow[], void, void> {
    for (let after = 0; ;) {
      const rows = await findCsvRows(ctx.db, batch.id, after, CSV_PAGE);
      if (rows.length) yield rows;
      if (rows.length < CSV_PAGE) return;
      after = Number(rows[rows.length - 1]!.id);
    }
  }
  return { fileName: `${batch.fileName.replace(/\.csv$/i, '')}-batch-${batch.id}.csv`, pages: pages() };
}
