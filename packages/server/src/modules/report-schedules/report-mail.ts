import { stringify } from 'csv-stringify/sync';
import { REPORT_SCHEDULE_KIND_LABELS } from '@patchwell/core/reports/schedules.schema';
import { previousDueAt, type DueSchedule } from '@patchwell/core/reports/schedule-due';
import { csvCell } from '@patchwell/core/rules/csv-cell';
import type { AppContext } from '../../context';
import { ACTIVITY_CSV_COLUMNS, activityPages } from '../activity/activity-list.service';
import {
  complianceCounts,
  NEEDS_ATTENTION_CSV_COLUMNS,
  needsAttentionPages,
  PREPATCH_CSV_COLUMNS,
  prepatchPages,
} from '../reports/device-reports.service';
import type { ScheduleRow } from './schedules.store';

/**
 * What a scheduled report mails: the report's CSV, built by the same producers, columns and
 * formula guard as its download (`GET /api/reports/prepatch/csv`, `…/needs-attention/csv`,
 * `/api/events/csv`) with their default filters, and a short summary for the body.
 */

type Columns<T> = [string, (row: T) => unknown][];
const byKey = <T>(columns: [keyof T, string][]): Columns<T> => columns.map(([key, header]) => [header, (r) => r[key]]);

/** The CSV exactly as the download writes it: header, then every row's cells through the formula guard. */
async function csvOf<T>(columns: Columns<T>, pages: AsyncGenerator<T[], void, void>) {
  const rows: unknown[][] = [];
  for await (const page of pages) for (const row of page) rows.push(columns.map(([, cell]) => csvCell(cell(row))));
  return { csv: stringify(rows, { header: true, columns: columns.map(([header]) => header) }), rowCount: rows.length };
}

export type ReportContent = { csv: string; rowCount: number; summary: string };

/** A stored schedule as core's due-time arithmetic reads it. */
export function dueScheduleOf(row: ScheduleRow): DueSchedule {
  return {
    frequency: row.frequency,
    day_of_week: row.dayOfWeek,
    day_of_month: row.dayOfMonth,
    time: row.time,
    timezone: row.timezone,
  };
}

type Zone = { id: number; name: string; accountId: number };

const percent = (part: number, total: number) => (total ? `${Math.round((part * 100) / total)}%` : '—');

/**
 * Builds the mail of `schedule` for the due time `dueAt` in zone `zone`: the report's rows
 * now (device reports), or the activity of the period that ends at `dueAt`.
 */
export async function buildReportContent(
  ctx: Pick<AppContext, 'db'>,
  schedule: ScheduleRow,
  zone: Zone,
  dueAt: Date,
): Promise<ReportContent> {
  const counts = await complianceCounts(ctx, zone.id);
  const devices = counts.compliant + counts.pending + counts.needs_attention;
  const label = REPORT_SCHEDULE_KIND_LABELS[schedule.kind];
  const lines = [
    `${label} report of zone ${zone.name}, as of ${dueAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
    '',
    `Compliance: ${percent(counts.compliant, devices)} (${counts.compliant} of ${devices} devices compliant)`,
    `Devices needing attention: ${counts.needs_attention}`,
    `Devices with pending patches: ${counts.pending}`,
  ];
  let built: { csv: string; rowCount: number };
  switch (schedule.kind) {
    case 'prepatch':
      built = await csvOf(byKey(PREPATCH_CSV_COLUMNS), await prepatchPages(ctx, zone.id, {}, dueAt));
      lines.push(`Devices in the attached CSV: ${built.rowCount}`);
      break;
    case 'needs_attention':
      built = await csvOf(byKey(NEEDS_ATTENTION_CSV_COLUMNS), await needsAttentionPages(ctx, zone.id, {}));
      lines.push(`Devices in the attached CSV: ${built.rowCount}`);
      break;
    case 'activity_log': {
      const from = previousDueAt(dueScheduleOf(schedule), dueAt);
      built = await csvOf(
        ACTIVITY_CSV_COLUMNS,
        activityPages(
          ctx,
          { zoneId: zone.id, accountId: zone.accountId, allAccountEvents: false },
          { from, to: dueAt },
        ),
      );
      lines.push(`Events from ${from.toISOString()} to ${dueAt.toISOString()}: ${built.rowCount}`);
      break;
    }
  }
  lines.push('', `Sent by Patchwell for the scheduled report “${schedule.name}”.`);
  return { ...built, summary: lines.join('\n') };
}

/** The mail's subject and the attachment's file name. */
export function reportMailNames(schedule: ScheduleRow, zone: Zone, dueAt: Date) {
  const day = dueAt.toISOString().slice(0, 10);
  return {
    filename: `${schedule.kind.replace('_', '-')}-${day}.csv`,
    subject: `${schedule.name} — ${REPORT_SCHEDULE_KIND_LABELS[schedule.kind]}, ${zone.name}, ${day}`,
  };
}
