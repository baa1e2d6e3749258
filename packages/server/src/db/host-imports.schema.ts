import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import type { HostImportStatus } from '@patchwell/core/devices/host-imports.schema';
import { organizations, users } from './schema';
import { devices, serverGroups } from './devices.schema';

/**
 * Hosts imported from another tool's CSV (the add-devices menu's third-party import),
 * waiting for their agent. When an agent enrols in the zone with a matching host name, the
 * new device takes the import's group, tags and notes and the row becomes `enrolled`.
 * Kept in its own file so the devices schema stays readable; drizzle.config.ts lists it.
 */
export const deviceImports = pgTable(
  'device_imports',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Lowercased (host names are case-insensitive); FQDN or short name as the file gave it. */
    hostname: text('hostname').notNull(),
    ipAddrs: text('ip_addrs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    osFamily: text('os_family').$type<OsFamily>(),
    /** Null: the zone's default group (where enrolment puts devices anyway). */
    groupId: integer('group_id').references(() => serverGroups.id, { onDelete: 'set null' }),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    serial: text('serial').notNull().default(''),
    notes: text('notes').notNull().default(''),
    importedBy: integer('imported_by').references(() => users.id, { onDelete: 'set null' }),
    importedAt: timestamp('imported_at', { withTimezone: true, mode: 'date' }).notNull(),
    enrolledDeviceId: integer('enrolled_device_id').references(() => devices.id, { onDelete: 'set null' }),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true, mode: 'date' }),
    status: text('status').$type<HostImportStatus>().notNull().default('awaiting_agent'),
  },
  (t) => [
    // One awaiting row per host name and zone: importing the same file twice cannot double it.
    uniqueIndex('device_imports_org_awaiting_hostname_unique')
      .on(t.organizationId, t.hostname)
      .where(sql`${t.status} = 'awaiting_agent'`),
    // Enrolment matches on the short name (web01 ↔ web01.corp.example), on every enrolment.
    index('device_imports_org_awaiting_short_idx')
      .on(t.organizationId, sql`split_part(${t.hostname}, '.', 1)`)
      .where(sql`${t.status} = 'awaiting_agent'`),
    index('device_imports_org_imported_idx').on(t.organizationId, t.importedAt),
  ],
);
