import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations, users } from './schema';

/**
 * Installers uploaded for required-software policies. The bytes live on disk, content
 * addressed: `DATA_DIR/installers/<zone id>/<sha256>` (modules/installers/installers.files.ts);
 * this table holds what the API answers and what policies reference by `id`. Two rows of a
 * zone may share one file (the same bytes uploaded twice); a clone into another zone gets a
 * row of its own there. Kept in its own file; drizzle.config.ts lists it.
 */
export const policyInstallers = pgTable(
  'policy_installers',
  {
    /** The public id (`configuration.installer.id`). */
    id: uuid('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The file name as uploaded. */
    name: text('name').notNull(),
    /** At most 512 MiB, so an integer holds it. */
    sizeBytes: integer('size_bytes').notNull(),
    /** Hex SHA-256 of the bytes, also the file's name in the zone's folder. */
    sha256: text('sha256').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('policy_installers_org_sha_idx').on(t.organizationId, t.sha256)],
);
