import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations, users } from './schema';

/**
 * A zone's APNS settings (issue 15), written only by `modules/apns`. Times come from the
 * service's clock, as in schema.ts. Private keys are PKCS#8 PEM, AES-256-GCM under the
 * server's secret key (zones/access-key.ts `encryptSecret`), never stored in clear.
 */

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One row per zone: the pending signing request with its key, and the current push certificate with its key. */
export const apnsSettings = pgTable('apns_settings', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** The pending certificate signing request (PEM), until a certificate made from it is uploaded. */
  csrPem: text('csr_pem'),
  csrKeySealed: text('csr_key_sealed'),
  csrCreatedAt: tstz('csr_created_at'),
  csrCreatedBy: integer('csr_created_by').references(() => users.id, { onDelete: 'set null' }),
  /** The current push certificate (PEM) and, when known here, its private key. */
  certificatePem: text('certificate_pem'),
  certificateKeySealed: text('certificate_key_sealed'),
  certificateUploadedAt: tstz('certificate_uploaded_at'),
  certificateUploadedBy: integer('certificate_uploaded_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: tstz('updated_at').notNull(),
});
