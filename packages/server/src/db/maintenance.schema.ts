import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { MaintenanceSchedule } from '@patchwell/core/maintenance/maintenance-windows.schema';
import { serverGroups } from './devices.schema';
import { organizations, users } from './schema';

/**
 * Maintenance windows (issue 15, decision 0019), written only by
 * `modules/maintenance-windows`. Times come from the service's clock, as in schema.ts.
 */

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A device group's window. `next_start_at`/`next_end_at` hold the occurrence under way or
 * the next one (core's `occurrenceAt`), written with the window and moved on by the engine's
 * tick once it ended, so the engine asks "is this device inside a window now?" of a whole
 * fleet in one statement; both null when the window will not open again.
 */
export const maintenanceWindows = pgTable(
  'maintenance_windows',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => serverGroups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** IANA timezone the schedule's wall times are read in. */
    timezone: text('timezone').notNull(),
    /** Core's ZMaintenanceSchedule (one-off, weekly or monthly). */
    schedule: jsonb('schedule').$type<MaintenanceSchedule>().notNull(),
    nextStartAt: tstz('next_start_at'),
    nextEndAt: tstz('next_end_at'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull(),
    updatedAt: tstz('updated_at').notNull(),
  },
  (t) => [
    index('maintenance_windows_org_idx').on(t.organizationId, t.id),
    index('maintenance_windows_group_idx').on(t.groupId, t.nextStartAt, t.nextEndAt),
    index('maintenance_windows_next_end_idx').on(t.nextEndAt),
  ],
);
