import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { DataExtractKind } from '@patchwell/core/reports/extracts.schema';
import type { DateRangePreset } from '@patchwell/core/reports/date-range';
import { organizations, users } from './schema';

/**
 * The reports' own tables (issue 12), written only by `modules/reports`. Times come from
 * the service's clock, as in schema.ts.
 */

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A zone's device compliance at the end of a UTC day (the last snapshot taken that day):
 * the overview's "compliance over time". Devices keep only their state now, so past days
 * need these rows; every node upserts today's row for every zone once an hour and at start,
 * which any number of nodes may do at once (the last write of the day wins, and all of them
 * count the same table).
 */
export const complianceSnapshots = pgTable(
  'compliance_snapshots',
  {
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    compliant: integer('compliant').notNull(),
    pending: integer('pending').notNull(),
    needsAttention: integer('needs_attention').notNull(),
    total: integer('total').notNull(),
    takenAt: tstz('taken_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

/**
 * A report's figures computed over a whole zone, kept for a few minutes: summing a
 * 100,000-device zone's million pending patches takes longer than a page may (the prepatch
 * summary). The answer says when they were computed; a stale row is recomputed on read.
 */
export const reportCaches = pgTable(
  'report_caches',
  {
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    report: text('report').notNull(),
    computedAt: tstz('computed_at').notNull(),
    payload: jsonb('payload').notNull(),
    /** When someone last asked for the report (written at most once a TTL): zones looked at are computed ahead. */
    requestedAt: tstz('requested_at'),
    /** A node computing the report ahead holds it from then (another node leaves it alone until it expires). */
    refreshClaimedAt: tstz('refresh_claimed_at'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.report] })],
);

export const DATA_EXTRACT_ROW_STATUSES = ['queued', 'running', 'ready', 'error'] as const;
export type DataExtractRowStatus = (typeof DATA_EXTRACT_ROW_STATUSES)[number];

/**
 * A requested data extract, built by whichever node's worker claims it first
 * (`FOR UPDATE SKIP LOCKED`). `heartbeat_at` moves with each page written; a running
 * extract whose heartbeat stopped (its node died) is claimed again and restarted.
 */
export const dataExtracts = pgTable(
  'data_extracts',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<DataExtractKind>().notNull(),
    preset: text('preset').$type<DateRangePreset>().notNull(),
    /** The range's instants, half-open: `range_from` ≤ t < `range_to`. */
    rangeFrom: tstz('range_from').notNull(),
    rangeTo: tstz('range_to').notNull(),
    status: text('status').$type<DataExtractRowStatus>().notNull().default('queued'),
    /** 0–100. */
    progress: integer('progress').notNull().default(0),
    /** Rows the source had when the job started, for the progress. */
    rowEstimate: integer('row_estimate'),
    rowCount: integer('row_count').notNull().default(0),
    /** Times a worker claimed it (a restart after a lost node counts again). */
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull(),
    startedAt: tstz('started_at'),
    heartbeatAt: tstz('heartbeat_at'),
    finishedAt: tstz('finished_at'),
    expiresAt: tstz('expires_at'),
  },
  (t) => [
    index('data_extracts_org_idx').on(t.organizationId, t.createdAt),
    index('data_extracts_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    index('data_extracts_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} is not null`),
  ],
);

/**
 * An extract's CSV, in pages of data lines (the header is written at download), so the
 * download streams it page by page from any node without holding it in memory.
 */
export const dataExtractChunks = pgTable(
  'data_extract_chunks',
  {
    extractId: integer('extract_id')
      .notNull()
      .references(() => dataExtracts.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    rows: integer('rows').notNull(),
    /** The lines as they are: pages written before `body_gz` (extracts live 7 days). */
    body: text('body'),
    /**
     * The lines gzipped (by Node, off the event loop) in base64, stored as they are (the
     * migration sets `STORAGE EXTERNAL`): a million-event extract is 125 MB of CSV that the
     * database would otherwise compress, split and log page by page on the build's time;
     * zipped it is about 16 MB.
     */
    bodyGz: text('body_gz'),
  },
  (t) => [
    primaryKey({ columns: [t.extractId, t.seq] }),
    check('data_extract_chunks_one_body', sql`num_nonnulls(${t.body}, ${t.bodyGz}) = 1`),
  ],
);
